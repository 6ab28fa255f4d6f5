"""The trick rules bots share with the engine (``arena.engine.trick``): card keys, the winner of
a trick as it stands, and when winning claims the centre (rules.md, "Tricks", "Who takes the
cards", Court Piece's Double Sir limits)."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from arena.engine import (
    NO_SUIT,
    TRUMP_BONUS,
    Capture,
    Card,
    RevealReason,
    Suit,
    TrumpMethod,
    TrumpReveal,
    TrumpSetting,
    claims_pile,
    parse_cards,
    play_key,
    rules_for,
    trick_best,
    won_after_reveal,
    won_with_trumps,
)

S, H, D, C = Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS


def cards(text: str) -> list[int]:
    return [int(c) for c in parse_cards(text)]


def winner(text: str, trump: int, trump_from: int = 0) -> str:
    played = cards(text)
    return str(Card(played[trick_best(played, trump, trump_from) & 3]))


def test_a_lead_follows_itself_and_a_trump_lead_counts_as_a_trump() -> None:
    assert play_key(int(Card.parse("9H")), NO_SUIT, S) == 7
    assert play_key(int(Card.parse("9S")), NO_SUIT, S) == 7 + TRUMP_BONUS


def test_off_suit_cards_cannot_win_unless_they_are_trumps_or_set_trumps() -> None:
    two_spades = int(Card.parse("2S"))
    assert play_key(two_spades, H, D) == -1
    assert play_key(two_spades, H, S) == TRUMP_BONUS
    assert play_key(two_spades, H, NO_SUIT, sets_trump=True) == TRUMP_BONUS
    assert play_key(two_spades, S, NO_SUIT, sets_trump=True) == 0  # following suit sets nothing


@pytest.mark.parametrize(
    ("trick", "trump", "won_by"),
    [
        ("9H AH 10H KH", S, "AH"),
        ("9H AH 2S KH", S, "2S"),
        ("9H 2S 3S AH", S, "3S"),
        ("9H AD AC AS", NO_SUIT, "9H"),
        ("9S 2S AH KS", S, "KS"),
    ],
)
def test_the_highest_trump_else_the_highest_of_the_led_suit_wins(trick: str, trump: int, won_by: str) -> None:
    assert winner(trick, trump) == won_by


def test_a_trump_suit_card_played_before_a_reveal_in_the_trick_is_no_trump() -> None:
    assert winner("9H 5S 2S KH", S, trump_from=2) == "2S"
    assert winner("9H 5S KH 4D", S, trump_from=3) == "KH"


def test_when_the_trump_suit_was_led_the_cards_before_a_reveal_were_trumps_all_along() -> None:
    assert winner("9S QS 2S 3H", S, trump_from=2) == "QS"


@given(st.permutations(range(52)), st.integers(1, 4), st.integers(-1, 3))
def test_the_winner_is_the_card_with_the_highest_key(deck: list[int], played: int, trump: int) -> None:
    trick = deck[:played]
    led = trick[0] // 13
    keys = [play_key(c, led, trump) for c in trick]
    assert trick_best(trick, trump) & 3 == keys.index(max(keys))
    assert trick_best(trick, trump) >> 2 == max(keys)


def test_sweep_claims_on_every_trick_and_always_on_the_last() -> None:
    rules = rules_for("dehla-pakad")
    assert all(claims_pile(rules, n, previous_won_with_trumps=False) for n in range(2, rules.hand_size + 1))


def test_direct_capture_has_no_claims() -> None:
    rules = dataclasses.replace(rules_for("dehla-pakad"), capture=Capture.DIRECT)
    assert not any(claims_pile(rules, n, True) for n in range(1, rules.hand_size + 1))


def test_double_sir_forbids_claims_on_the_first_two_tricks_and_the_last_but_one() -> None:
    rules = rules_for("court-piece-double-sir")
    n = rules.hand_size
    allowed = [t for t in range(1, n + 1) if claims_pile(rules, t, previous_won_with_trumps=True)]
    assert allowed == [t for t in range(3, n + 1) if t != n - 1]


def test_double_sir_with_a_hidden_trump_needs_a_win_after_the_reveal() -> None:
    rules = rules_for("court-piece-double-sir")
    assert not claims_pile(rules, 5, previous_won_with_trumps=False)
    assert claims_pile(rules, 5, previous_won_with_trumps=True)
    assert claims_pile(rules, rules.hand_size, previous_won_with_trumps=False)


def test_double_sir_a_claim_needs_a_previous_win_with_trumps_whatever_it_was_earlier() -> None:
    """Seed 003: "From the 3rd to the 11th trick inclusive, if the trick is won by the same
    player that won the previous trick [...] the player's team collects": every such trick, so
    the answer depends on the trick and the previous win only (a claim does not restart)."""
    rules = rules_for("court-piece-double-sir")
    assert all(claims_pile(rules, n, previous_won_with_trumps=True) for n in range(3, 12))


def test_first_discard_under_sweep_needs_the_previous_trick_won_with_trumps_set() -> None:
    """Seed 003: "No tricks can be collected until the trick after the one in which trumps are
    determined"."""
    rules = rules_for("dehla-pakad", {"trump": "first_discard"})
    assert not any(claims_pile(rules, n, previous_won_with_trumps=False) for n in range(1, 13))
    assert all(claims_pile(rules, n, previous_won_with_trumps=True) for n in range(2, 14))
    assert claims_pile(rules, 13, previous_won_with_trumps=False)
    direct = rules_for("mendikot", {"trump": "first_discard"})
    assert not claims_pile(direct, 5, previous_won_with_trumps=True)


def test_won_with_trumps_reads_the_trump_setting_or_the_reveal_by_the_method() -> None:
    first = rules_for("dehla-pakad", {"trump": "first_discard"})
    set_at_3 = TrumpSetting(S, TrumpMethod.FIRST_DISCARD, 3, Card.parse("2S"), 1)
    assert not won_with_trumps(first, None, None, 2, 0)
    assert not won_with_trumps(first, set_at_3, None, 2, 0)
    assert won_with_trumps(first, set_at_3, None, 3, 2)  # the trump-setting trick itself
    assert won_with_trumps(first, set_at_3, None, 4, 0)
    hidden = rules_for("court-piece-double-sir")
    reveal = TrumpReveal(3, 1, 3, Card.parse("2S"), RevealReason.REQUEST)
    assert not won_with_trumps(hidden, None, None, 3, 0)
    assert not won_with_trumps(hidden, None, reveal, 3, 0)
    assert won_with_trumps(hidden, None, reveal, 3, 1)
    assert won_with_trumps(rules_for("dehla-pakad"), None, None, 1, 0)


@given(trick=st.integers(1, 12), position=st.integers(0, 3), reveal_position=st.integers(0, 3))
def test_a_win_before_a_reveal_in_a_later_trick_is_not_after_it(
    trick: int, position: int, reveal_position: int
) -> None:
    """Seed 003, Double Sir: "the winning card of the previous trick was played after the trump
    had been revealed". A reveal in the next trick (its holder revealing on lead) is after every
    card of this one, whatever the positions; one in an earlier trick is before all of them."""
    later = TrumpReveal(trick + 1, reveal_position, 0, Card.parse("2S"), RevealReason.REQUEST)
    earlier = TrumpReveal(trick - 1, reveal_position, 0, Card.parse("2S"), RevealReason.REQUEST) if trick > 1 else None
    same = TrumpReveal(trick, reveal_position, 0, Card.parse("2S"), RevealReason.REQUEST)
    assert not won_after_reveal(later, trick, position)
    assert earlier is None or won_after_reveal(earlier, trick, position)
    assert won_after_reveal(same, trick, position) == (position >= reveal_position)
