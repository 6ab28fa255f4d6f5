"""What each seat sees of a Twenty-eight hand (rules.md: "bids are public; the face-down card
only to the bidder until exposed"; seed 003: "The card is not shown to the other players, who
therefore will not know at first what suit is trump: it remains face down in front of the bidder
until at some point during the play someone calls for the trump suit to be exposed")."""

from __future__ import annotations

import json

import pytest

from arena.engine.auction import BID, PASS
from arena.engine.bidding_hand import Contract
from arena.engine.bidding_observation import observe_bidding
from arena.engine.cards import Card, Suit
from tests.bidding_helpers import VOIDS, act, bid_and_hide, start

SEVEN = Card.parse("7H")


def test_bids_are_public() -> None:
    hand = start(VOIDS)
    act(hand, "bid 14", "bid 16", "pass")
    for seat in range(4):
        view = observe_bidding(hand, seat)
        assert view.calls == ((0, BID[14]), (3, BID[16]), (2, PASS)) and view.contract is None
        assert view.cards_to_come == (4, 4, 4, 4) and len(view.hand) == 4
    assert observe_bidding(hand, 1).legal_actions[0] == BID[17] and observe_bidding(hand, 0).legal_actions == ()
    written = json.loads(json.dumps(observe_bidding(hand, 2).to_json()))
    assert written["calls"] == [[0, "bid 14"], [3, "bid 16"], [2, "pass"]]


def test_only_the_bidder_sees_the_face_down_card_until_it_is_exposed() -> None:
    hand = start(VOIDS)
    bid_and_hide(hand)
    mine = observe_bidding(hand, 0)
    assert mine.hidden_trump_card == SEVEN and mine.trump is Suit.HEARTS and SEVEN not in mine.hand
    for seat in (1, 2, 3):
        view = observe_bidding(hand, seat)
        assert view.contract == Contract(0, 14) and view.hidden_trump_holder == 0
        assert view.hidden_trump_card is None and view.trump is None and view.hand_sizes == (7, 8, 8, 8)
    act(hand, "9S", "8S", "10H", "reveal")
    for seat in range(4):
        view = observe_bidding(hand, seat)
        assert view.trump is Suit.HEARTS and view.hidden_trump_card is None and view.hidden_trump_holder is None
        assert view.reveal is not None and view.reveal.card == SEVEN
    assert observe_bidding(hand, 1).must_play_trump and not observe_bidding(hand, 2).must_play_trump


def test_points_taken_are_public() -> None:
    hand = start(VOIDS)
    bid_and_hide(hand)
    act(hand, "10S", "KS", "AH", "7D")  # seat 0 wins 10S and AH: 2 points
    assert all(observe_bidding(hand, seat).points == (2, 0) for seat in range(4))


def test_a_seat_outside_0_to_3_is_refused() -> None:
    with pytest.raises(ValueError, match=r"seat must be 0\.\.3"):
        observe_bidding(start(VOIDS), 4)
