"""Random self-play of the bidding games: its summary adds up to the hands it played, and its
game points are the match score ``BiddingMatchScore`` keeps."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from arena.engine.bidding_rules import bidding_rules_for
from arena.engine.bidding_selfplay import BiddingSelfPlaySummary, selfplay_bidding_hands


@settings(max_examples=15, deadline=None)
@given(preset=st.sampled_from(["twenty-eight", "twenty-nine"]), hands=st.integers(1, 12),
       seed=st.integers(0, 2**32))
def test_the_summary_counts_every_hand_once_and_the_game_points_are_the_contracts(preset: str, hands: int,
                                                                                  seed: int) -> None:
    rules = bidding_rules_for(preset)
    summary = BiddingSelfPlaySummary()
    points = [0, 0]
    for state, score in selfplay_bidding_hands(rules, hands, seed):
        result = state.result
        assert result is not None
        summary.add(result)
        summary.final = score
        points[result.bidding_team] += result.game_points
        assert rules.min_bid <= result.bid <= rules.max_bid
        assert sum(result.points) == 28 + rules.last_trick_points or result.void
    report = summary.to_json()
    assert report["hands"] == hands == sum(report["bids"].values())
    assert sum(report["contracts_made"]) + sum(report["contracts_failed"]) + report["invalid_hands"] == hands
    assert report["match_score"] == points
    assert report["match_winner"] == (None if points[0] == points[1] else int(points[1] > points[0]))


def test_the_same_seed_plays_the_same_hands() -> None:
    rules = bidding_rules_for("twenty-eight")
    first = [state.result for state, _ in selfplay_bidding_hands(rules, 5, seed=9)]
    assert first == [state.result for state, _ in selfplay_bidding_hands(rules, 5, seed=9)]
