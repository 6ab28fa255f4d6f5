"""A Twenty-eight hand's record: written from the hand, replayed exactly, nothing in it trusted."""

from __future__ import annotations

import copy
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.engine.bidding_hand import BiddingHand, new_hand
from arena.engine.bidding_records import bidding_hand_record, is_bidding_record, replay_bidding_record
from arena.engine.bidding_rules import bidding_rules_for
from arena.engine.errors import RecordError
from arena.engine.hand_records import hand_record
from arena.engine.rules import rules_for
from arena.engine.selfplay import selfplay_hands


def finished(preset: str, seed: int) -> BiddingHand:
    hand = new_hand(bidding_rules_for(preset), seed, seed % 4)
    rng = random.Random(seed)
    while not hand.is_over:
        hand.apply(rng.choice(hand.legal_actions()))
    return hand


@pytest.mark.parametrize("preset", ["twenty-eight", "twenty-nine"])
@settings(max_examples=20, deadline=None, derandomize=True, database=None)
@given(seed=st.integers(0, 10**6))
def test_a_record_replays_to_the_same_hand(preset: str, seed: int) -> None:
    hand = finished(preset, seed)
    record = bidding_hand_record(hand)
    assert is_bidding_record(record) and record["game"] == "bidding"
    again = replay_bidding_record(record)
    assert again.history == hand.history and again.result == hand.result
    assert bidding_hand_record(again) == record


def test_a_record_is_checked_not_trusted() -> None:
    record = bidding_hand_record(finished("twenty-eight", 3))
    lied = copy.deepcopy(record)
    lied["result"]["points"] = [28, 0]
    with pytest.raises(RecordError, match=r"^result\.points: the record says \[28, 0\] but the replay gives"):
        replay_bidding_record(lied)
    wrong_seat = copy.deepcopy(record)
    wrong_seat["actions"][0]["seat"] = (wrong_seat["actions"][0]["seat"] + 1) % 4
    with pytest.raises(RecordError, match=r"^actions\[0\] \(seat \d, 'bid \d+'\): seat \d is to move$"):
        replay_bidding_record(wrong_seat)
    bad_bid = copy.deepcopy(record)
    bad_bid["actions"][0]["action"] = "bid 40"
    with pytest.raises(RecordError, match=r"^actions\[0\] \(seat \d, 'bid 40'\): cannot bid 40: the maximum is 28$"):
        replay_bidding_record(bad_bid)
    with pytest.raises(RecordError, match=r"^game: "):
        replay_bidding_record({**record, "game": "whist"})


def test_a_trick_taking_record_is_not_a_bidding_one() -> None:
    state, _ = next(iter(selfplay_hands(rules_for("dehla-pakad"), 1, seed=2)))
    assert not is_bidding_record(hand_record(state))
