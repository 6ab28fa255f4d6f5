"""Seed 001's closed method: ``reveal: on_play`` and ``hide_from: full_hand`` (preset
``mendikot-closed``, issue 11 rule 5).

Seed 001: "Closed method: The player to the dealer's right chooses one card from their own hand
and places it face down on the table; its suit becomes trump, but the card stays hidden until the
holder plays it or is forced to reveal it." and "If the holder of the hidden trump card chooses
to play it, the suit is revealed when the card hits the table. Until then, the trump suit is
secret, so partners may not know whether a discard is a trump or a plain off-suit card."

rules.md: the trump suit is **in force from the first trick** while secret; nobody may ask; for
following suit the face-down card counts as part of its holder's hand (the holder must play it
when it is their only card of the led suit); still down when it is the owner's last card, it is
revealed and played.
"""

from __future__ import annotations

import pytest

from arena.engine.actions import REVEAL
from arena.engine.cards import Card, Suit, parse_cards
from arena.engine.errors import IllegalActionError
from arena.engine.hand import Decision, HandState
from arena.engine.observation import observe
from arena.engine.trump import RevealReason
from tests.scenario_helpers import CANON, LAST_CARD_SCRIPT, act, mask, play_script, play_trick, start


def legal(state: HandState) -> set[str]:
    return {str(a) for a in state.legal_actions()}


def plays(cards: str) -> set[str]:
    return {f"play {c}" for c in parse_cards(cards)}


# Anticlockwise, dealer 1: seat 0 chooses the card and leads; play goes 0, 3, 2, 1.
# Seat 0's only heart, 2H, is its 13th card (dealt in the last packet). Seat 3 has no clubs or
# diamonds, seat 2 no hearts or clubs, seat 1 no spades or hearts.
CLOSED = (
    "AS KS QS JS 10S 9S 8S AD KD QD AC KC 2H",
    "3D 2D QC JC 10C 9C 8C 7C 6C 5C 4C 3C 2C",
    "7S 6S 5S 4S 3S JD 10D 9D 8D 7D 6D 5D 4D",
    "AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2S",
)


def closed(overrides: dict[str, str] | None = None) -> HandState:
    return start("mendikot-closed", CLOSED, dealer=1, overrides=overrides)


def test_the_card_is_chosen_from_the_whole_hand_after_the_full_deal() -> None:
    # Seed 001: "chooses one card from their own hand" (after "each player finishes with
    # thirteen cards"; "No card is placed on the table" before trump selection).
    state = closed()
    assert state.decision is Decision.HIDE_TRUMP and state.to_move == 0
    assert legal(state) == {f"hide {c}" for c in parse_cards(CLOSED[0])}
    assert all(state.hand(s) == mask(CLOSED[s]) for s in range(4))  # all 13 dealt already
    act(state, "hide 2H")
    assert state.hidden_card == Card.parse("2H")
    assert state.hand(0) == mask(CLOSED[0]) & ~mask("2H")


def test_hide_from_first_packet_keeps_the_choice_among_the_first_five() -> None:
    state = closed({"hide_from": "first_packet"})
    assert legal(state) == {f"hide {c}" for c in parse_cards(CLOSED[0])[:5]}
    with pytest.raises(IllegalActionError, match="first cards"):
        act(state, "hide 2H")


def test_the_secret_trump_decides_tricks_from_the_first_and_only_its_holder_sees_the_suit() -> None:
    # "its suit becomes trump, but the card stays hidden": seat 3, out of clubs, discards 3H
    # and wins trick 1 over the ace of clubs, though nobody but seat 0 knows hearts are trumps.
    state = closed()
    act(state, "hide 2H")
    assert state.trump_in_force is Suit.HEARTS  # in force at once (the engine's own truth)
    play_trick(state, "AC 3H 3S 2C", winner=3)
    assert state.reveal is None and state.hidden_card == Card.parse("2H")
    for seat in (1, 2, 3):
        view = observe(state, seat)
        assert view.trump is None and view.trump_in_force is None and view.trump_setting is None
        assert view.hidden_trump_holder == 0 and view.hidden_trump_card is None
        assert view.tricks[0].winner == 3  # "every seat sees who won"
    own = observe(state, 0)
    assert own.trump is Suit.HEARTS and own.hidden_trump_card == Card.parse("2H")


def test_partners_may_not_know_whether_a_discard_is_a_trump() -> None:
    # Seat 0 hides 8S: spades are trumps. Seat 2 (seat 0's partner), out of clubs, throws 3S and
    # wins; seat 3's 3H is a plain discard. Seat 2's own view still names no trump.
    state = closed()
    act(state, "hide 8S")
    play_trick(state, "AC 3H 3S 2C", winner=2)
    view = observe(state, 2)
    assert view.trump is None and view.tricks[0].winner == 2


def test_nobody_may_ask_for_the_reveal() -> None:
    state = closed()
    act(state, "hide 2H", "AC")
    assert REVEAL not in state.legal_actions()  # seat 3 is out of clubs
    with pytest.raises(IllegalActionError, match="nobody may ask"):
        state.apply(REVEAL)
    assert state.reveal is None


def test_the_holder_must_follow_with_the_face_down_card_when_it_is_its_only_card_of_the_suit() -> None:
    # "or is forced to reveal it": hearts led, seat 0's only heart is the face-down 2H.
    state = closed()
    act(state, "hide 2H")
    play_trick(state, "AC 3H 3S 2C", winner=3)
    act(state, "AH", "4S", "3C")
    assert legal(state) == {"play 2H"}
    with pytest.raises(IllegalActionError, match="follow suit"):
        act(state, "AS")
    act(state, "2H")
    reveal = state.reveal
    assert reveal is not None
    assert (reveal.trick, reveal.position, reveal.seat, reveal.card, reveal.reason) == (
        2, 3, 0, Card.parse("2H"), RevealReason.PLAYED,
    )
    assert state.tricks[-1].winner == 3 and state.hidden_card is None
    for seat in range(4):  # "the suit is revealed when the card hits the table"
        view = observe(state, seat)
        assert view.trump is Suit.HEARTS is view.trump_in_force and view.hidden_trump_holder is None


def test_the_holder_may_lead_the_face_down_card_and_it_is_revealed_as_played() -> None:
    # "If the holder of the hidden trump card chooses to play it, the suit is revealed when the
    # card hits the table."
    state = closed()
    act(state, "hide 8S")
    assert "play 8S" in legal(state)
    act(state, "8S")
    reveal = state.reveal
    assert reveal is not None and (reveal.trick, reveal.position, reveal.reason) == (1, 0, RevealReason.PLAYED)
    assert state.current_trick == ((0, Card.parse("8S")),)
    assert observe(state, 1).trump is Suit.SPADES


def test_a_face_down_card_left_to_the_end_is_revealed_only_when_played() -> None:
    # Canonical deal: everybody follows for twelve tricks; seat 0's 2S is then its only card.
    # Unlike on_request (turned up as the owner's turn comes), nothing is shown before the play,
    # and spades, trumps all along, win the last trick.
    state = start("mendikot-closed", CANON, dealer=1)
    act(state, "hide 2S")
    play_script(state, LAST_CARD_SCRIPT)
    act(state, "AC", "AD", "AH")
    assert state.reveal is None and observe(state, 1).trump is None
    assert legal(state) == {"play 2S"}
    act(state, "2S")
    assert state.reveal is not None and state.reveal.reason is RevealReason.LAST_CARD
    assert state.tricks[-1].winner == 0 and state.is_over


def test_refusing_another_seat_the_face_down_card_says_no_more_than_for_any_card_it_lacks() -> None:
    # A bot that tries the face-down card must not learn from the refusal that it guessed right
    # (the refusal's text reaches the match record and EndMatch). Seat 3 is to move.
    state = closed()
    act(state, "hide 2H", "AC")
    with pytest.raises(IllegalActionError) as hidden:
        act(state, "2H")
    with pytest.raises(IllegalActionError) as other:
        act(state, "AS")  # held by seat 0, not face down
    assert str(hidden.value).replace("2H", "AS") == str(other.value)
