"""The end of a Twenty-eight hand and the match, from seed 003 and rules.md:

    "If no one calls for trump to be exposed during the first seven tricks, the game stands
    invalid" (seed 003); rules.md: "default: the hand is void and the same dealer deals again;
    option: the bidder must expose it and play it in the last trick instead."

    "the highest bidder undertakes that his or her side will win in tricks at least the number
    of points bid" (seed 003); rules.md: "The bidding team wins the hand if the card points of
    the tricks it took reach the bid. Game points: +1 to the bidding team if it made its bid,
    -1 if not (option: by bid size, 14-19: 1, 20-23: 2, 24-27: 3, 28: 4). The match goes to a
    target of game points (default 6)." and "the dealer rotates each hand".
"""

from __future__ import annotations

import pytest

from arena.engine.actions import PLAY, REVEAL
from arena.engine.bidding_outcome import (
    BiddingMatchScore,
    BiddingResult,
    decide_bidding_hand,
    game_point_value,
)
from arena.engine.bidding_rules import bidding_rules_for
from arena.engine.cards import Card, mask_of
from arena.engine.trump import RevealReason
from tests.bidding_helpers import PAIRS, bid_and_hide, play_without_calls, start

EIGHT = bidding_rules_for("twenty-eight")
NINE = bidding_rules_for("twenty-nine")


def masks(team0: str) -> tuple[int, int]:
    """Team 0 took the cards ``team0``; team 1 the rest of the pack."""
    mine = mask_of(Card.parse(t) for t in team0.split())
    return mine, EIGHT.deck_mask & ~mine


def test_nobody_calling_in_seven_tricks_makes_the_hand_void() -> None:
    """"If no one calls for trump to be exposed during the first seven tricks, the game stands
    invalid": the hand ends after the seventh trick and scores nothing."""
    hand = start(PAIRS)
    bid_and_hide(hand)
    play_without_calls(hand)
    result = hand.result
    assert result is not None and result.void and result.tricks_played == 7
    assert result.winner is None and result.game_points == 0 and not result.made
    assert hand.reveal is None and hand.hidden_card == Card.parse("7H")


def test_a_void_hand_is_dealt_again_by_the_same_dealer() -> None:
    """rules.md: "the hand is void and the same dealer deals again"."""
    void = BiddingResult(0, 14, (10, 8), True, False, 0, 7)
    score = BiddingMatchScore(dealer=1).after(EIGHT, void)
    assert (score.dealer, score.points, score.hands_played) == (1, (0, 0), 1)


def test_option_the_bidder_exposes_and_plays_it_in_the_last_trick() -> None:
    """Option ``no_exposure: last_trick``: "the bidder must expose it and play it in the last
    trick instead"."""
    hand = start(PAIRS, overrides={"no_exposure": "last_trick"})
    bid_and_hide(hand)
    while hand.to_move != 0 or hand.hand(0):
        plays = [a for a in hand.legal_actions() if a is not REVEAL]
        hand.apply(plays[0])
    assert len(hand.tricks) == 7 and hand.hidden_card is not None
    assert hand.legal_actions() == (REVEAL,)
    hand.apply(REVEAL)
    reveal = hand.reveal
    assert reveal is not None and reveal.trick == 8 and reveal.reason is RevealReason.LAST_CARD
    assert hand.legal_actions() == (PLAY[Card.parse("7H")],)
    hand.apply(PLAY[Card.parse("7H")])
    while not hand.is_over:
        hand.apply(hand.legal_actions()[0])
    result = hand.result
    assert result is not None and not result.void and result.tricks_played == 8
    assert sum(result.points) == 28


def test_the_bid_is_made_when_the_points_reach_it() -> None:
    """"his or her side will win in tricks at least the number of points bid": 14 of 14 makes
    it (+1), 13 does not (-1). Team 0 takes JS JH (6), 9S 9H (4), AS AH AD AC (4) = 14."""
    made = decide_bidding_hand(EIGHT, 2, 14, masks("JS JH 9S 9H AS AH AD AC"), None, 8)
    assert made.points == (14, 14) and made.made and made.game_points == 1 and made.winner == 0
    short = decide_bidding_hand(EIGHT, 2, 14, masks("JS JH 9S 9H AS AH AD KC"), None, 8)
    assert short.points == (13, 15) and not short.made and short.game_points == -1
    assert short.winner == 1
    # The other team bid: the same cards are 14 points for it (14 of 28).
    theirs = decide_bidding_hand(EIGHT, 1, 15, masks("JS JH 9S 9H AS AH AD AC"), None, 8)
    assert theirs.points[1] == 14 and not theirs.made and theirs.winner == 0


def test_twenty_nine_counts_the_last_trick() -> None:
    """rules.md: "Twenty-nine also counts 1 point for the last trick"."""
    result = decide_bidding_hand(NINE, 1, 17, masks("JS JH 9S 9H AS AH AD AC"), 1, 8)
    assert result.points == (14, 15) and sum(result.points) == 29 and not result.made
    result = decide_bidding_hand(NINE, 0, 15, masks("JS JH 9S 9H AS AH AD AC"), 0, 8)
    assert result.points == (15, 14) and result.made


@pytest.mark.parametrize(
    ("bid", "value"),
    [(14, 1), (19, 1), (20, 2), (23, 2), (24, 3), (27, 3), (28, 4), (29, 4)],
)
def test_option_game_points_by_bid_size(bid: int, value: int) -> None:
    """Option ``game_points: by_bid``: "14-19: 1, 20-23: 2, 24-27: 3, 28: 4" (Twenty-nine's 29:
    4 as well)."""
    rules = bidding_rules_for("twenty-nine", {"game_points": "by_bid", "min_bid": 14})
    assert game_point_value(rules, bid) == value
    assert game_point_value(EIGHT, min(bid, 28)) == 1


def test_game_points_go_to_the_bidding_team_plus_or_minus() -> None:
    """"+1 to the bidding team if it made its bid, -1 if not"; the deal passes to the next player
    (anticlockwise: seat 1 deals, then seat 0)."""
    score = BiddingMatchScore(dealer=1)
    score = score.after(EIGHT, BiddingResult(0, 16, (16, 12), False, True, 1, 8))
    assert score.points == (1, 0) and score.dealer == 0
    score = score.after(EIGHT, BiddingResult(3, 20, (10, 18), False, False, -1, 8))
    assert score.points == (1, -1) and score.dealer == 3


def test_the_match_goes_to_six_game_points() -> None:
    """rules.md: "The match goes to a target of game points (default 6)"."""
    win = BiddingResult(1, 14, (10, 18), False, True, 1, 8)
    score = BiddingMatchScore(dealer=0)
    for _ in range(5):
        score = score.after(EIGHT, win)
    assert score.points == (0, 5) and not score.is_over(EIGHT)
    score = score.after(EIGHT, win)
    assert score.is_over(EIGHT) and score.winner() == 1
    assert not score.is_over(bidding_rules_for("twenty-eight", {"target": 7}))
