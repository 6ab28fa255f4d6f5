"""Face-down discards of the trump maker (``maker_discard: face_down``, preset
``court-piece-double-sir``), from seed 003 (Double Sir):

    "If the player who chose trump is unable to follow suit, he or she may either reveal the
    trump and play a trump card (not necessarily the revealed card) or may play a card of
    another suit face down, so as not to give any clue about the suit chosen as trumps."

and rules.md: "The other seats see only that a face-down card was played; it cannot win the
trick; it is turned up when the hand ends (the record holds it). Until then the other seats'
views show it as an unknown card wherever it lies (the trick, the pile, a captured pile, the
tens counts)."
"""

from __future__ import annotations

import pytest

from arena.engine.actions import DOWN, PLAY, REVEAL, PlayCard, parse_action
from arena.engine.cards import Card, cards_of
from arena.engine.errors import IllegalActionError, RulesError
from arena.engine.hand import HandState
from arena.engine.hand_records import hand_record, replay_record
from arena.engine.observation import observe
from arena.engine.rules import MakerDiscard, rules_for
from arena.engine.trick import NO_SUIT, trick_best
from tests.scenario_helpers import act, finish_hand, mask, play_trick, start

# Anticlockwise, dealer 1: seat 0 is the trump maker and leads; play order 0, 3, 2, 1. Seat 0
# puts 2S face down (spades trumps) and holds no clubs; seat 3 holds no hearts or spades.
HANDS = (
    "2S AH KH QH JH 10H AS KS QS KD QD JD 6D",
    "8H 6H 4H 2H 7S 6S 5S 4S 3S 3C 2C 3D 2D",
    "9H 7H 5H 3H JS 10S 9S 8S 6C 5C 4C AD 4D",
    "AC KC QC JC 10C 9C 8C 7C 5D 10D 9D 8D 7D",
)
TEN = Card.parse("10H")


def to_clubs_lead(overrides: dict[str, str] | None = None) -> HandState:
    """Two tricks in: seat 2 won the second and led 4C, seat 1 followed with 2C; seat 0, void in
    clubs, is to play (seat 3 plays last)."""
    state = start("court-piece-double-sir", HANDS, dealer=1, overrides=overrides)
    act(state, "hide 2S")
    play_trick(state, "AH 7C 3H 2H", winner=0)
    play_trick(state, "6D 7D AD 2D", winner=2)
    act(state, "4C", "2C")
    assert state.to_move == 0 and state.hidden_card is not None
    return state


def test_the_maker_unable_to_follow_may_discard_any_card_face_down() -> None:
    state = to_clubs_lead()
    legal = state.legal_actions()
    hand = cards_of(state.hand(0))
    assert legal == (*(PLAY[c] for c in hand), *(DOWN[c] for c in hand), REVEAL)
    assert str(DOWN[TEN]) == "play 10H down" and parse_action("play 10H down") is DOWN[TEN]


def test_a_face_down_card_cannot_win_and_other_seats_see_an_unknown_card() -> None:
    state = to_clubs_lead()
    act(state, "play 10H down")
    led = ((2, Card.parse("4C")), (1, Card.parse("2C")))
    for seat in (1, 2, 3):
        view = observe(state, seat)
        assert view.current_trick == (*led, (0, None)) and view.current_face_down == (2,)
    mine = observe(state, 0)
    assert mine.current_trick == (*led, (0, TEN)) and mine.current_face_down == (2,)
    act(state, "AC")
    trick = state.tricks[-1]
    assert trick.winner == 3 and trick.face_down == (2,) and trick.cards[2] == TEN
    # No claim (Double Sir: the previous winning card came before any reveal): the pile holds it.
    assert trick.taken_by is None and state.pile & mask("10H")
    for seat in (1, 2, 3):
        view = observe(state, seat)
        assert view.tricks[-1].cards == (Card.parse("4C"), Card.parse("2C"), None, Card.parse("AC"))
        assert TEN not in view.pile and view.pile_face_down == 1
    mine = observe(state, 0)
    assert TEN in mine.pile and mine.pile_face_down == 0 and mine.tricks[-1].cards[2] == TEN


def test_a_face_down_ten_taken_is_unknown_in_the_captured_pile_and_the_tens() -> None:
    state = to_clubs_lead({"capture": "direct"})
    act(state, "play 10H down", "AC")
    assert state.captured(1) & mask("10H")
    for seat in (1, 2, 3):
        view = observe(state, seat)
        assert TEN not in view.captured[1] and view.captured_face_down == (0, 1) and view.tens == (0, 0)
    mine = observe(state, 0)
    assert TEN in mine.captured[1] and mine.captured_face_down == (0, 0) and mine.tens == (0, 1)


def test_the_end_of_the_hand_and_the_record_turn_it_up() -> None:
    state = to_clubs_lead()
    act(state, "play 10H down")
    finish_hand(state)
    for seat in range(4):
        view = observe(state, seat)
        assert view.tricks[2].cards[2] == TEN and view.tricks[2].face_down == (2,)
        assert view.pile_face_down == 0 and view.captured_face_down == (0, 0)
        assert TEN in view.captured[0] + view.captured[1]
    record = hand_record(state)
    assert {"seat": 0, "action": "play 10H down"} in record["actions"]
    again = replay_record(record)
    assert again.tricks == state.tricks and again.face_down_cards == mask("10H")


def test_only_the_maker_void_with_the_trump_down_may_discard_face_down() -> None:
    state = to_clubs_lead()
    act(state, "reveal")  # revealing instead: then a trump if able, and nothing face down
    assert not any(isinstance(a, PlayCard) and a.face_down for a in state.legal_actions())
    with pytest.raises(IllegalActionError, match="only the trump maker"):
        act(state, "play 10H down")
    # The maker on lead plays open; another void seat (seat 3 is out of hearts) never gets the
    # choice; nor does the maker when it can follow (seat 0 holds hearts).
    state = start("court-piece-double-sir", HANDS, dealer=1)
    act(state, "hide 2S")
    assert state.to_move == 0 and not any_face_down(state)
    act(state, "AH")
    assert state.to_move == 3 and not any_face_down(state)
    act(state, "7C", "3H", "2H")
    act(state, "KH")
    act(state, "8C", "5H", "4H")
    assert state.to_move == 0 and not any_face_down(state)
    state = start("court-piece-double-sir", HANDS, dealer=1)
    act(state, "hide 2S", "6D", "7D", "AD", "2D", "9H", "8H")
    assert state.to_move == 0 and not any_face_down(state)


def any_face_down(state: HandState) -> bool:
    return any(isinstance(a, PlayCard) and a.face_down for a in state.legal_actions())


def test_with_maker_discard_open_the_old_behaviour_stays() -> None:
    rules = rules_for("court-piece-double-sir", {"maker_discard": "open"})
    assert rules.maker_discard is MakerDiscard.OPEN
    state = to_clubs_lead({"maker_discard": "open"})
    assert not any(isinstance(a, PlayCard) and a.face_down for a in state.legal_actions())
    with pytest.raises(IllegalActionError, match="only the trump maker"):
        act(state, "play 10H down")
    act(state, "10H")
    assert observe(state, 1).current_trick[2] == (0, TEN)


def test_the_option_belongs_to_an_on_request_hidden_trump() -> None:
    assert rules_for("court-piece-double-sir").maker_discard is MakerDiscard.FACE_DOWN
    assert rules_for("mendikot").maker_discard is MakerDiscard.OPEN
    with pytest.raises(Exception, match="maker_discard=face_down applies only under reveal=on_request"):
        rules_for("dehla-pakad-hidden", {"maker_discard": "face_down"})
    # Overriding the trump method (or the reveal) on top of the preset drops the option with it.
    assert rules_for("court-piece-double-sir", {"trump": "called"}).maker_discard is MakerDiscard.OPEN
    assert rules_for("court-piece-double-sir", {"reveal": "on_void"}).maker_discard is MakerDiscard.OPEN


def test_a_face_down_discard_never_meets_an_on_play_trump() -> None:
    """The two closed-trump rules of issue 11 exclude each other: an on_play trump is turned up
    by its own play and nobody asks, so there is no caller to discard face down."""
    refusal = "maker_discard=face_down applies only under reveal=on_request, not reveal=on_play"
    with pytest.raises(RulesError, match=refusal):
        rules_for("mendikot-closed", {"maker_discard": "face_down"})
    assert rules_for("court-piece-double-sir", {"reveal": "on_play"}).maker_discard is MakerDiscard.OPEN
    # hide_from is about the choice of the card, not its reveal: it goes with face-down discards.
    both = rules_for("court-piece-double-sir", {"hide_from": "full_hand"})
    assert both.maker_discard is MakerDiscard.FACE_DOWN and both.hide_from.value == "full_hand"


def test_the_trick_winner_ignores_face_down_positions() -> None:
    """Even a card that would win (here the led suit's ace, which a real face-down card never
    is) does not when its position is face down."""
    cards = [int(Card.parse(c)) for c in ("2C", "AC", "5C", "3C")]
    assert trick_best(cards, NO_SUIT) & 3 == 1
    assert trick_best(cards, NO_SUIT, 0, face_down=0b10) & 3 == 2
