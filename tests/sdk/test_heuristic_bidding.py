"""The heuristic bot on Twenty-eight (issue 29, "Done when"): it beats the random bot, and every
sample bot plays the bidding games legally through the referee's table in this process."""

from __future__ import annotations

import pytest

from arena.contract.faults import FaultPolicy
from arena.engine.bidding_outcome import BiddingResult
from arena.referee.in_process import play_in_process
from arena.referee.stats import mean_interval
from sample_bots.heuristic.bot import HeuristicBot
from sample_bots.random.bot import RandomBot
from sample_bots.search.bot import SearchBot, SearchBudget


def test_the_heuristic_beats_random_on_twenty_eight_over_100_deals() -> None:
    """The mean deal-pair score's 95% interval lies above zero (``bench/`` has no figure to add:
    this test is the measurement; ``docs/performance.md``)."""
    outcome = play_in_process([HeuristicBot(), RandomBot(1), HeuristicBot(), RandomBot(3)], deals=100, seed=28,
                              preset="twenty-eight")
    assert outcome.status == "done" and outcome.faults == []
    interval = mean_interval(outcome.deal_scores)
    assert interval.n == 100
    assert interval.low > 0, interval


@pytest.mark.parametrize("preset", ["twenty-eight", "twenty-nine"])
def test_every_sample_bot_plays_the_bidding_games_legally(preset: str) -> None:
    bots = [SearchBot(1, SearchBudget(bidding_seconds=0.01)), RandomBot(2), HeuristicBot(), RandomBot(4)]
    outcome = play_in_process(bots, deals=6, seed=9, preset=preset, policy=FaultPolicy.SUBSTITUTE)
    assert outcome.faults == [] and outcome.substitutions == [0, 0, 0, 0]
    assert len(outcome.hands) == 12 and len(outcome.deal_scores) == 6


def test_a_match_to_the_target_ends_when_a_team_reaches_it() -> None:
    """Game points move only for the bidding team, +1 when it makes its bid (the target is 6)."""
    outcome = play_in_process([HeuristicBot() for _ in range(4)], seed=4, preset="twenty-eight",
                              match_format="hands:500")
    assert outcome.faults == []
    assert max(outcome.score) == 6 > min(outcome.score)
    assert outcome.winner_team == outcome.score.index(6)
    counted = [h for h in outcome.hands if isinstance(h, BiddingResult) and not h.void]
    assert sum(h.game_points for h in counted) == sum(outcome.score)
