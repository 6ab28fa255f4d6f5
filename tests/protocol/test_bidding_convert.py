"""Protocol 1.6, the bidding games: every message of a Twenty-eight or Twenty-nine match survives
a round trip through the adapter, the other games' messages carry none of its fields, and a bad
bid from a bot names its field."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from google.protobuf import text_format
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.contract.faults import FaultPolicy
from arena.contract.messages import (
    BiddingDecisionRequest,
    BiddingHandEnd,
    DecisionReply,
    MatchEnd,
    MatchStart,
    Termination,
)
from arena.contract.time_control import TimeControl
from arena.engine.auction import BID, PASS
from arena.engine.bidding_hand import BiddingHand, new_hand
from arena.engine.bidding_observation import observe_bidding
from arena.engine.bidding_outcome import BiddingMatchScore
from arena.engine.bidding_rules import BIDDING_PRESETS, bidding_rules_for
from arena.engine.match import MatchFormat
from arena.engine.rules import rules_for
from protocol import PROTOCOL_VERSION, convert
from protocol.gen.dehla.arena.v1 import arena_pb2 as pb

ROOT = Path(__file__).resolve().parents[2]
RULES = {
    **{preset: bidding_rules_for(preset) for preset in BIDDING_PRESETS},
    "twenty-eight by_bid last_trick single_round": bidding_rules_for(
        "twenty-eight", {"game_points": "by_bid", "no_exposure": "last_trick", "auction": "single_round",
                         "overbid_partner_min": 20, "target": 9}),
}


def played(rules_name: str, seed: int, stop: int) -> BiddingHand:
    """A hand after ``stop`` random legal actions (or finished)."""
    hand = new_hand(RULES[rules_name], seed, seed % 4)
    rng = random.Random(seed)
    for _ in range(stop):
        if hand.is_over:
            break
        hand.apply(rng.choice(hand.legal_actions()))
    return hand


@pytest.mark.parametrize("rules_name", list(RULES))
@settings(max_examples=20, deadline=None, derandomize=True, database=None)
@given(seed=st.integers(0, 10**6), stop=st.integers(0, 60))
def test_bidding_views_and_requests_round_trip_exactly(rules_name: str, seed: int, stop: int) -> None:
    hand = played(rules_name, seed, stop)
    score = BiddingMatchScore(dealer=hand.dealer, hands_played=4, points=(3, -1))
    for seat in range(4):
        view = observe_bidding(hand, seat, score)
        for _ in range(2):  # the second pass goes through the adapter's caches
            assert convert.bidding_observation_from_pb(convert.bidding_observation_to_pb(view)) == view
        request = BiddingDecisionRequest("r-1", 3, view, 1.0, 12.5)
        assert convert.decision_from_pb(convert.decision_to_pb(request, "m")) == request


@pytest.mark.parametrize("rules_name", list(RULES))
def test_a_finished_hand_and_the_match_end_round_trip(rules_name: str) -> None:
    hand = played(rules_name, 5, 200)
    assert hand.is_over and hand.result is not None
    before = BiddingMatchScore(dealer=hand.dealer)
    after = before.after(hand.rules, hand.result)
    for seat in range(4):
        end = BiddingHandEnd(0, hand.result, hand.deal.hands, observe_bidding(hand, seat, before), after)
        assert convert.hand_end_from_pb(convert.hand_end_to_pb(end, "m")) == end
    match_end = MatchEnd(Termination.COMPLETED, 0, after)
    assert convert.match_end_from_pb(convert.match_end_to_pb(match_end, "m")) == match_end


@pytest.mark.parametrize("rules_name", list(RULES))
def test_start_match_carries_the_bidding_rules_instead_of_the_rules(rules_name: str) -> None:
    start = MatchStart("m", 1, 3, "twenty-eight", RULES[rules_name], MatchFormat.parse("duplicate:2"),
                       TimeControl(), FaultPolicy.SUBSTITUTE, 99)
    message = convert.start_to_pb(start)
    assert message.HasField("bidding_rules") and not message.HasField("rules")
    assert list(message.bidding_rules.card_points) == [0] * 7 + [2, 1, 3, 0, 0, 1]  # 9 2, 10 1, J 3, A 1
    assert message.protocol_version.minor == PROTOCOL_VERSION[1] == 6
    assert convert.start_from_pb(message) == start


def test_the_other_games_messages_carry_no_bidding_field() -> None:
    """1.6 only adds: a trick-taking game's StartMatch is the message 1.5 sent."""
    start = MatchStart("m", 0, 2, "dehla-pakad", rules_for("dehla-pakad"), MatchFormat.parse("kots:3"),
                       TimeControl())
    message = convert.start_to_pb(start)
    assert message.HasField("rules") and not message.HasField("bidding_rules")


def test_every_call_round_trips_and_a_bad_bid_names_its_field() -> None:
    for call in (*BID[1:], PASS):
        reply = DecisionReply("r", call)
        assert convert.reply_from_pb(convert.reply_to_pb(reply)) == reply
    bad = pb.DecideResponse(request_id="r", action=pb.Action(bid=pb.Bid(amount=0)))
    with pytest.raises(convert.ConversionError, match=r"^action\.bid\.amount: 0 is not a bid"):
        convert.reply_from_pb(bad)
    with pytest.raises(convert.ConversionError, match=r"bid belongs to a bidding game's auction"):
        convert.action_from_pb(pb.Action(bid=pb.Bid(amount=16)))


def test_older_bots_are_told_the_bidding_games_need_1_6() -> None:
    assert convert.minor_needed(bidding_rules_for("twenty-nine"), "twenty-nine") == (6, "the bidding game twenty-nine")
    assert convert.minor_needed(rules_for("dehla-pakad")) is None


@settings(max_examples=25, deadline=None, derandomize=True, database=None)
@given(seed=st.integers(0, 10**6))
def test_the_face_down_card_reaches_only_the_bidder_on_the_wire(seed: int) -> None:
    """Whichever of its four cards the bidder puts face down (any suit), every other seat's
    request is the same bytes; the bidder's own names the card."""
    hand = new_hand(RULES["twenty-eight"], seed, seed % 4)
    rng = random.Random(seed)
    while hand.contract is None:
        hand.apply(rng.choice(hand.legal_actions()))
    bidder = hand.contract.bidder
    seen: dict[int, set[bytes]] = {seat: set() for seat in range(4)}
    for choice in hand.legal_actions():
        after = hand.clone()
        after.apply(choice)
        for seat in range(4):
            request = BiddingDecisionRequest("r", 0, observe_bidding(after, seat), 1.0, 1.0)
            message = convert.decision_to_pb(request, "m")
            seen[seat].add(message.SerializeToString(deterministic=True))
            if seat == bidder:
                assert message.bidding_observation.hidden_trump_card == convert.card_to_pb(choice.card)  # type: ignore[union-attr]
    assert len(seen[bidder]) == 4
    assert all(len(seen[seat]) == 1 for seat in range(4) if seat != bidder)


def test_the_guide_s_bidding_example_is_the_engine_s_view() -> None:
    """docs/protocol.md's BiddingObservation is what the referee sends for that hand (seed 17, dealer 2)."""
    blocks = re.findall(r"```textproto\n(# message: dehla\.arena\.v1\.BiddingObservation.*?)```",
                        (ROOT / "docs" / "protocol.md").read_text(), re.DOTALL)
    (block,) = blocks
    example = text_format.Parse(block, pb.BiddingObservation())
    hand = new_hand(bidding_rules_for("twenty-eight"), 17, 2)
    hand.apply(BID[14])
    hand.apply(BID[16])
    view = observe_bidding(hand, 3, BiddingMatchScore(dealer=2, hands_played=3, points=(1, 0)))
    assert convert.bidding_observation_from_pb(example) == view
