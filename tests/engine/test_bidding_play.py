"""The face-down trump and the two phases of play of Twenty-eight, from seed 003:

    "The highest bidder chooses a trump suit on the basis of his or her four cards, and places
    a card of this suit face down. [...] During the first phase, the face down trump card is not
    considered as belonging to the bidder's hand."

    "The player to the dealer's right leads to the first trick; players must follow suit if
    possible, the highest card of the suit lead wins the trick [...]. During this first phase it
    is illegal for the bidder to lead a card of the trump suit, unless he or she has no cards of
    other suits or if another player has already led a card of the trump suit."

    "You may discard any card. This card cannot win the trick. Before playing a card, you may
    call for the bidder's face down trump to be exposed. In this case, the bidder must turn this
    trump card face up for all to see, and it is then added to the bidder's hand. Having called
    for the trump to be exposed, you must play a trump to this trick if you have one; if you
    have no trump you may discard any card."

    "Beginning with the trick in which trump is exposed, each trick is won by the highest trump
    card in it. [...] The bidder is now free to lead any suit, including trump."

The deals are ``tests/bidding_helpers.py``'s: dealer 1, seat 0 bids 14 and hides 7H (hearts).
"""

from __future__ import annotations

import pytest

from arena.engine.actions import CALL, PLAY, REVEAL
from arena.engine.bidding_hand import BiddingDecision
from arena.engine.cards import SHORT_DECK, SUIT_MASKS, Card, Suit, cards_of, mask_of
from arena.engine.errors import IllegalActionError
from arena.engine.trump import RevealReason
from tests.bidding_helpers import PAIRS, VOIDS, act, bid_and_hide, play_trick, start

HEARTS = SUIT_MASKS[Suit.HEARTS]
SEVEN = Card.parse("7H")


def cards(text: str) -> set[Card]:
    return {Card.parse(t) for t in text.split()}


def test_four_cards_then_the_auction_then_four_more() -> None:
    """rules.md: "Deal four cards each, auction, four more"."""
    hand = start(VOIDS)
    assert [hand.hand(s).bit_count() for s in range(4)] == [4, 4, 4, 4]
    assert set(cards_of(hand.hand(0))) == cards("7H JS 9S QH")
    act(hand, "bid 14", "pass", "pass", "pass")
    assert hand.hand(1).bit_count() == 4 and hand.undealt(1).bit_count() == 4
    act(hand, "hide 7H")
    assert [hand.hand(s).bit_count() for s in range(4)] == [7, 8, 8, 8]
    assert hand.decision is BiddingDecision.PLAY and hand.to_move == 0


def test_the_face_down_card_is_not_part_of_the_bidders_hand() -> None:
    """"places a card of this suit face down [...] the face down trump card is not considered as
    belonging to the bidder's hand"."""
    hand = start(VOIDS)
    act(hand, "bid 14", "pass", "pass", "pass")
    with pytest.raises(IllegalActionError, match="cannot hide AS: seat 0 holds"):
        act(hand, "hide AS")  # from its four cards only
    act(hand, "hide 7H")
    assert hand.hidden_card == SEVEN and hand.trump is Suit.HEARTS
    assert not hand.hand(0) & SEVEN.bit


def test_the_bidder_may_not_lead_trumps_in_the_first_phase() -> None:
    """"During this first phase it is illegal for the bidder to lead a card of the trump suit,
    unless he or she has no cards of other suits"."""
    hand = start(VOIDS)
    bid_and_hide(hand)
    assert hand.legal_mask() == hand.hand(0) & ~HEARTS
    with pytest.raises(IllegalActionError, match="the bidder may not lead trumps before they are exposed"):
        act(hand, "QH")


def test_the_bidder_may_lead_trumps_once_another_player_led_them() -> None:
    """"... or if another player has already led a card of the trump suit"."""
    hand = start(VOIDS)
    bid_and_hide(hand)
    play_trick(hand, "10S KS AH 7D", winner=0)
    play_trick(hand, "8C 7S JC 7C", winner=2)
    play_trick(hand, "10H 8H JH 9H", winner=0)  # seat 2 leads hearts while they are face down
    assert hand.reveal is None and hand.trump_led
    assert hand.legal_mask() & HEARTS == mask_of([Card.parse("QH")])


def test_the_bidder_holding_only_trumps_may_lead_one() -> None:
    """"... unless he or she has no cards of other suits": seat 0 holds all eight hearts."""
    hand = start((
        "7H JH 9H AH 10H KH QH 8H",
        "JS 9S AS 10S KS QS 8S 7S",
        "JD 9D AD 10D KD QD 8D 7D",
        "JC 9C AC 10C KC QC 8C 7C",
    ))
    bid_and_hide(hand)
    assert hand.legal_mask() == hand.hand(0) == HEARTS & SHORT_DECK & ~SEVEN.bit
    play_trick(hand, "QH JC JD JS", winner=0)  # nobody can follow: discards, QH wins


def test_a_copy_of_a_hand_is_independent() -> None:
    hand = start(VOIDS)
    bid_and_hide(hand)
    copy = hand.clone()
    play_trick(copy, "10S KS AH 7D", winner=0)
    assert len(hand.tricks) == 0 and len(copy.tricks) == 1 and hand.hand(0) != copy.hand(0)


def test_in_the_first_phase_the_highest_card_of_the_suit_led_wins() -> None:
    """"the highest card of the suit lead wins the trick" with the ranks J 9 A 10 K Q 8 7: 10S
    beats KS; "During the first phase, cards of the (concealed) trump suit have no special
    effect": seat 2's AH, of the hidden trump suit, does not win."""
    hand = start(VOIDS)
    bid_and_hide(hand)
    play_trick(hand, "10S KS AH 7D", winner=0)
    assert hand.reveal is None


def test_a_player_unable_to_follow_may_discard_or_call() -> None:
    """"If you have no card of the suit led you have two options: You may discard any card.
    [...] you may call for the bidder's face down trump to be exposed"."""
    hand = start(VOIDS)
    bid_and_hide(hand)
    act(hand, "9S", "8S")
    assert hand.to_move == 2
    assert hand.legal_actions() == (*(PLAY[c] for c in cards_of(hand.hand(2))), REVEAL)
    act(hand, "10H")  # a discard: cannot win
    # One who can follow may not call.
    hand2 = start(VOIDS)
    bid_and_hide(hand2)
    act(hand2, "9S")
    assert REVEAL not in hand2.legal_actions()
    with pytest.raises(IllegalActionError, match="cannot reveal: seat 3 can follow suit"):
        act(hand2, "reveal")


def test_the_called_trump_goes_to_the_bidders_hand_and_the_caller_must_trump() -> None:
    """"the bidder must turn this trump card face up for all to see, and it is then added to the
    bidder's hand. Having called for the trump to be exposed, you must play a trump to this
    trick if you have one"; "Beginning with the trick in which trump is exposed, each trick is
    won by the highest trump card in it": seat 1's 8H wins over the 9S led and over seat 2's
    10H, discarded before the exposure ("This card cannot win the trick")."""
    hand = start(VOIDS)
    bid_and_hide(hand)
    act(hand, "9S", "8S", "10H", "reveal")
    reveal = hand.reveal
    assert reveal is not None and (reveal.trick, reveal.position, reveal.seat) == (1, 3, 1)
    assert reveal.card == SEVEN and reveal.reason is RevealReason.REQUEST
    assert hand.hidden_card is None and hand.hand(0) & SEVEN.bit
    assert hand.must_play_trump and hand.legal_actions() == (PLAY[Card.parse("8H")],)
    with pytest.raises(IllegalActionError, match="called for the trump and must play one"):
        act(hand, "7C")
    act(hand, "8H")
    assert hand.tricks[-1].winner == 1 and not hand.must_play_trump


def test_a_caller_without_trumps_may_discard_any_card() -> None:
    """"if you have no trump you may discard any card"."""
    hand = start(VOIDS)
    bid_and_hide(hand)
    play_trick(hand, "10S KS AH 7D", winner=0)
    act(hand, "9S", "8S", "reveal")  # seat 2 holds 10H: it must play it
    assert hand.legal_actions() == (PLAY[Card.parse("10H")],)
    act(hand, "10H", "8H")  # seat 1 follows the exposure with its own trump (a free choice)
    # 10H ranks above 8H: seat 2 wins.
    assert hand.tricks[-1].winner == 2
    hand = start(VOIDS)
    bid_and_hide(hand)
    play_trick(hand, "10S KS AH 7D", winner=0)
    play_trick(hand, "9S 8S 10H 8H", winner=0)  # discards only: 9S wins
    act(hand, "AS", "QS", "reveal")  # seat 2 has no hearts left: any card
    assert hand.legal_mask() == hand.hand(2)


def test_the_bidder_unable_to_follow_may_discard_without_exposing() -> None:
    """"If the bidder holds no card of the suit that was led, the bidder has essentially the same
    options as the other players: to discard any card without declaring trump, or to expose the
    face down trump card and play a trump card"; and "if [...] the bidder has no trump cards in
    hand, and another player leads the trump suit, the bidder can play any card, since the face
    down trump card is not yet part of the bidder's hand"."""
    hand = start(PAIRS)
    bid_and_hide(hand)
    play_trick(hand, "JS 7S KS QS", winner=0)
    play_trick(hand, "8S 9S AS 10S", winner=3)
    play_trick(hand, "JH AH 10H QH", winner=3)  # hearts led while face down; seat 0 follows
    act(hand, "8H", "9H", "KH")
    assert hand.to_move == 0 and not hand.hand(0) & HEARTS
    assert hand.legal_actions() == (*(PLAY[c] for c in cards_of(hand.hand(0))), REVEAL)
    act(hand, "9D")  # a discard: 9H (seat 2) wins
    assert hand.tricks[-1].winner == 2 and hand.reveal is None


def test_the_bidder_may_expose_and_then_leads_trumps_freely() -> None:
    """"or to expose the face down trump card and play a trump card to the trick"; "The bidder is
    now free to lead any suit, including trump"."""
    hand = start(VOIDS)
    bid_and_hide(hand)
    play_trick(hand, "10S KS AH 7D", winner=0)
    play_trick(hand, "8C 7S JC 7C", winner=2)
    act(hand, "9C", "8D", "reveal")  # seat 0, out of clubs, exposes its own trump
    assert hand.reveal is not None and hand.reveal.seat == 0 and hand.must_play_trump
    assert set(cards_of(hand.legal_mask())) == cards("JH QH 7H")
    act(hand, "QH", "JD")
    assert hand.tricks[-1].winner == 0
    assert hand.legal_mask() & HEARTS == mask_of(cards("JH 7H"))


def test_in_the_exposure_trick_a_trump_after_the_call_beats_the_suit_led() -> None:
    """From the exposure on, a trump played to the trick beats the suit led; an earlier discard
    of the trump suit does not (seat 2's 10H is higher than 8H but came before the call)."""
    hand = start(VOIDS)
    bid_and_hide(hand)
    play_trick(hand, "9S 8S 10H reveal 8H", winner=1)


def test_second_phase_trumps_win_and_a_player_out_of_the_suit_may_discard() -> None:
    """"each trick is won by the highest trump card in it. Tricks that contain no trump cards are
    won by the highest card of the suit led. [...] if unable to follow, they may play a trump
    card or discard a card of another suit, as they like"."""
    hand = start(VOIDS)
    bid_and_hide(hand)
    play_trick(hand, "9S 8S 10H reveal 8H", winner=1)
    play_trick(hand, "7C 8C KH QC", winner=3)  # seat 3, no clubs, trumps with KH
    act(hand, "JD", "JC")  # seat 3 leads JD; seat 2, out of diamonds, discards a club
    assert hand.legal_mask() == mask_of(cards("KD AD 10D QD 8D 7D"))
    act(hand, "7D", "AS")  # seat 0 discards too: no trump in the trick, JD wins
    assert hand.tricks[-1].winner == 3


@pytest.mark.parametrize("bad", [CALL[Suit.SPADES], "play 10S", None, PLAY[Card.parse("2S")]])
def test_what_is_not_an_action_of_this_game_is_refused_in_one_line(bad: object) -> None:
    hand = start(VOIDS)
    bid_and_hide(hand)
    with pytest.raises(IllegalActionError) as caught:
        hand.apply(bad)  # type: ignore[arg-type]
    assert "\n" not in str(caught.value) and len(hand.history) == 5


def test_play_by_card_number_is_apply_with_its_checks_and_reasons() -> None:
    """``BiddingHand.play(card)`` (the batched engine's differential tests replay with it) takes
    the same cards as ``apply(PLAY[card])`` and refuses the others with the same reason; ``may_call``
    is whether ``REVEAL`` is among the legal actions."""
    hand = start(VOIDS)
    with pytest.raises(IllegalActionError, match="seat 0 must bid or pass"):
        hand.play(Card.parse("7H"))
    bid_and_hide(hand)
    with pytest.raises(IllegalActionError, match="the bidder may not lead trumps before they are exposed"):
        hand.play(Card.parse("QH"))
    with pytest.raises(IllegalActionError, match="not an action of this game"):
        hand.play(52)
    assert len(hand.history) == 5 and not hand.may_call
    hand.play(Card.parse("9S"))
    hand.play(Card.parse("8S"))
    assert hand.may_call and REVEAL in hand.legal_actions()
    assert hand.history[-1] == (3, PLAY[Card.parse("8S")])
