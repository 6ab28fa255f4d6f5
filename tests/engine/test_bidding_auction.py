"""The auction of Twenty-eight and Twenty-nine, from seed 003's bidding section:

    "The player to dealer's right speaks first, and subsequent players, in anticlockwise order,
    may either bid higher or pass. The minimum bid allowed is 14 and the maximum is 28 (assuming
    that the point for the last trick is not counted; for 29, bidding starts with 17). If any
    player bids, the auction continues for as many rounds as necessary until three players pass
    in succession. The player to dealer's right must bid at least the minimum."

and rules.md: "option ``auction: single_round``: seed 003's first wording, each player speaks
once"; "Option: to overbid your partner when your left-hand opponent has passed you must bid
at least 20."

Dealer 1 throughout: anticlockwise, seat 0 (the dealer's right) speaks first, then 3, 2, 1.
"""

from __future__ import annotations

import pytest

from arena.engine.auction import BID, PASS, Auction, Bid, parse_call
from arena.engine.bidding_hand import BiddingDecision, new_hand
from arena.engine.bidding_rules import BiddingRules, bidding_rules_for
from arena.engine.errors import IllegalActionError, InvalidActionError

EIGHT = bidding_rules_for("twenty-eight")


def run(calls: str, rules: BiddingRules = EIGHT, opener: int = 0) -> Auction:
    auction = Auction(rules, opener)
    for text in calls.split(","):
        if text.strip():
            auction = auction.after(parse_call(text))
    return auction


def test_the_dealers_right_speaks_first_then_anticlockwise() -> None:
    """"The player to dealer's right speaks first, and subsequent players, in anticlockwise
    order"."""
    hand = new_hand(EIGHT, 3, dealer=1)
    assert hand.decision is BiddingDecision.BID and hand.to_move == 0
    speakers = []
    for call in (BID[14], PASS, BID[15]):
        speakers.append(hand.to_move)
        hand.apply(call)
    assert speakers == [0, 3, 2] and hand.to_move == 1


def test_the_opener_must_bid_at_least_the_minimum() -> None:
    """"The player to dealer's right must bid at least the minimum": no pass, nothing below 14."""
    auction = Auction(EIGHT, 0)
    assert PASS not in auction.legal_calls() and auction.legal_calls()[0] == BID[14]
    with pytest.raises(IllegalActionError, match="seat 0 opens the auction and must bid at least 14"):
        auction.after(PASS)
    with pytest.raises(IllegalActionError, match="cannot bid 13: the least bid now is 14"):
        auction.after(BID[13])


def test_bids_run_from_14_to_28_and_later_players_bid_higher_or_pass() -> None:
    """"may either bid higher or pass. The minimum bid allowed is 14 and the maximum is 28"."""
    auction = run("bid 16")
    assert auction.legal_calls() == (*BID[17:29], PASS)
    with pytest.raises(IllegalActionError, match="the least bid now is 17"):
        auction.after(BID[16])
    with pytest.raises(IllegalActionError, match="cannot bid 29: the maximum is 28"):
        auction.after(BID[29])


def test_twenty_nine_bidding_starts_with_17() -> None:
    """"for 29, bidding starts with 17"."""
    nine = bidding_rules_for("twenty-nine")
    calls = Auction(nine, 0).legal_calls()
    assert calls[0] == BID[17] and calls[-1] == BID[29]


def test_the_auction_goes_on_until_three_players_pass_in_succession() -> None:
    """"the auction continues for as many rounds as necessary until three players pass in
    succession": a player who passed may bid again in a later round."""
    auction = run("bid 14, pass, bid 15, pass, bid 16, pass, pass")
    assert not auction.is_over and auction.to_speak == 1  # seat 1 passed before, speaks again
    auction = run("bid 14, pass, bid 15, pass, bid 16, pass, pass, bid 18, pass, pass")
    assert not auction.is_over and auction.to_speak == 2
    auction = auction.after(PASS)
    assert auction.is_over and auction.high == (1, 18) and auction.to_speak is None
    assert auction.legal_calls() == ()
    with pytest.raises(IllegalActionError, match="the auction is over"):
        auction.after(PASS)


def test_two_passes_do_not_end_it() -> None:
    auction = run("bid 14, pass, pass")
    assert not auction.is_over and auction.to_speak == 1


def test_the_opening_bid_stands_after_three_passes() -> None:
    auction = run("bid 14, pass, pass, pass")
    assert auction.is_over and auction.high == (0, 14)


def test_a_bid_of_the_maximum_ends_the_auction() -> None:
    """Nobody may bid above 28, so the three passes that would end the auction are forced."""
    auction = run("bid 20, bid 28")
    assert auction.is_over and auction.high == (3, 28)


def test_single_round_each_player_speaks_once() -> None:
    """Option ``auction: single_round`` (seed 003: "The auction continues once until the player
    passes and the bid moves on to the next player")."""
    rules = bidding_rules_for("twenty-eight", {"auction": "single_round"})
    auction = run("bid 14, bid 16, pass", rules)
    assert not auction.is_over and auction.to_speak == 1
    auction = auction.after(PASS)
    assert auction.is_over and auction.high == (3, 16)


def test_overbidding_a_partner_after_the_left_hand_opponent_passed_needs_20() -> None:
    """Option ``overbid_partner_min: 20``: "to overbid your partner when your left-hand opponent
    has passed you must bid at least 20" (anticlockwise, the left-hand opponent spoke just
    before)."""
    rules = bidding_rules_for("twenty-eight", {"overbid_partner_min": 20})
    auction = run("bid 15, pass", rules)  # seat 0 bid, seat 3 passed: seat 2 is 0's partner
    assert auction.to_speak == 2 and auction.legal_calls()[0] == BID[20]
    with pytest.raises(IllegalActionError, match="partner after your left-hand opponent passed needs at least 20"):
        auction.after(BID[16])
    assert auction.after(BID[20]).high == (2, 20)
    # Without the option, or when the opponent bid in between, any higher bid will do.
    assert run("bid 15, pass").legal_calls()[0] == BID[16]
    assert run("bid 15, bid 16", rules).legal_calls()[0] == BID[17]
    # Overbidding an opponent is never limited.
    assert run("bid 15, pass, pass", rules).legal_calls()[0] == BID[16]


def test_the_winner_of_the_auction_puts_a_trump_face_down() -> None:
    """"The highest bidder chooses a trump suit on the basis of his or her four cards"."""
    hand = new_hand(EIGHT, 3, dealer=1)
    for call in (BID[14], BID[17], PASS, PASS, PASS):
        hand.apply(call)
    assert hand.decision is BiddingDecision.HIDE_TRUMP and hand.to_move == 3
    assert hand.contract is not None and (hand.contract.bidder, hand.contract.bid) == (3, 17)
    assert hand.hand(3).bit_count() == 4 and len(hand.legal_actions()) == 4


@pytest.mark.parametrize(
    ("text", "call"), [("bid 16", BID[16]), ("16", BID[16]), ("PASS", PASS), (" pass ", PASS)]
)
def test_calls_have_a_text_form(text: str, call: object) -> None:
    assert parse_call(text) == call
    assert str(parse_call(str(call))) == str(call)


@pytest.mark.parametrize("text", ["bid", "bid x", "double", "bid 1000", "bid -3"])
def test_bad_call_text_is_a_one_line_error(text: str) -> None:
    with pytest.raises(InvalidActionError, match="is not a call"):
        parse_call(text)


def test_bid_values_are_shared() -> None:
    assert parse_call("bid 20") is BID[20] and Bid(20) == BID[20]
