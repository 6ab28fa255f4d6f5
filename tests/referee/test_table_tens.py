"""The referee's table in a ``tens:N`` match (issue 29 part 3), bots in process: the match ends
after the hand that leaves a team's tens total at or past N and ahead, and every seat is told the
running totals, through the protobuf adapter as a gRPC bot would read them.

rules.md, "Tens-total matches": "each team's captured tens accumulate across hands towards a target
(`tens:N`); the first team to reach it wins the match"."""

from __future__ import annotations

import pytest

from arena.contract.messages import HandEnd, MatchEnd
from arena.engine.match import MatchFormat, MatchScore
from arena.engine.rules import rules_for
from arena.referee.in_process import play_in_process
from protocol import convert
from sample_bots.random.bot import RandomBot


class TallyBot(RandomBot):
    """A random bot that keeps the match scores it is sent, read back from their wire form."""

    def __init__(self, seat: int) -> None:
        super().__init__(seat)
        self.ends: list[HandEnd] = []
        self.final: MatchEnd | None = None

    def on_hand_end(self, end: HandEnd) -> None:
        self.ends.append(convert.hand_end_from_pb(convert.hand_end_to_pb(end, "m")))

    def on_match_end(self, end: MatchEnd) -> None:
        self.final = convert.match_end_from_pb(convert.match_end_to_pb(end, "m"))


@pytest.mark.parametrize(("preset", "target", "seed"), [("dehla-pakad", 7, 3), ("mendikot", 9, 8),
                                                        ("dehla-pakad-hidden", 5, 21)])
def test_the_table_plays_until_a_team_leads_at_the_target(preset: str, target: int, seed: int) -> None:
    bots = [TallyBot(seat) for seat in range(4)]
    outcome = play_in_process(bots, seed=seed, preset=preset, match_format=f"tens:{target}")
    totals = (0, 0)
    for number, result in enumerate(outcome.hands):
        totals = (totals[0] + result.tens[0], totals[1] + result.tens[1])
        ended = max(totals) >= target and totals[0] != totals[1]
        assert ended == (number == len(outcome.hands) - 1), (number, totals)
        for bot in bots:
            told = bot.ends[number].score
            assert told is not None and told.tens == totals and told.hands_played == number + 1
    assert outcome.score == (float(totals[0]), float(totals[1]))
    assert outcome.winner_team == (0 if totals[0] > totals[1] else 1)
    final = outcome.final
    assert final is not None and final.tens == totals
    assert len(outcome.hands) >= 2  # a race over several hands, not one hand's tens
    assert final.is_over(rules_for(preset), MatchFormat.parse(f"tens:{target}"))
    for bot in bots:
        assert bot.final is not None and bot.final.winner_team == outcome.winner_team
        assert bot.final.score.tens == totals


def test_a_hands_match_tells_no_tens() -> None:
    bots = [TallyBot(seat) for seat in range(4)]
    play_in_process(bots, seed=4, match_format="hands:2")
    assert all(end.score is not None and end.score.tens == (0, 0) for bot in bots for end in bot.ends)
    assert all(isinstance(end.score, MatchScore) for end in bots[0].ends)

