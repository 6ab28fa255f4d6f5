"""Table and deal: seats and teams, play direction, the deck, packets, seeded and explicit deals,
and what a seat may see.

rules.md, "Table and deal" and the check "A seat's observation never depends on cards it
cannot see (hands of others, a face-down trump)".
"""

from __future__ import annotations

import pytest

from arena.engine.cards import SHORT_DECK, Rank, cards_of
from arena.engine.deal import Deal
from arena.engine.errors import DealError
from arena.engine.hand import Decision, HandState
from arena.engine.observation import observe
from arena.engine.rules import rules_for
from tests.scenario_helpers import (
    CANON,
    act,
    assert_all_cards_with_one_team,
    finish_hand,
    make_deal,
    mask,
    play_trick,
    start,
)

# ---------------------------------------------------------------------------------------------
# Seats, teams and direction


@pytest.mark.parametrize("dealer", range(4))
def test_clockwise_the_player_after_the_dealer_calls_and_leads(dealer: int) -> None:
    state = start("dehla-pakad", CANON, dealer=dealer)
    first = (dealer + 1) % 4
    assert state.decision is Decision.CALL_TRUMP
    assert state.to_move == first
    act(state, "call S")
    assert state.to_move == first
    finish_hand(state)
    trick = state.tricks[0]
    assert trick.leader == first
    assert trick.seats == tuple((first + i) % 4 for i in range(4))


@pytest.mark.parametrize("dealer", range(4))
def test_anticlockwise_everything_is_mirrored(dealer: int) -> None:
    state = start("dehla-pakad", CANON, dealer=dealer, overrides={"direction": "anticlockwise"})
    first = (dealer - 1) % 4  # the player on the dealer's right
    assert state.to_move == first
    act(state, "call S")
    finish_hand(state)
    for trick in state.tricks:
        assert trick.seats == tuple((trick.leader - i) % 4 for i in range(4))


def test_partners_sit_opposite() -> None:
    # Direct capture: seats 0 and 2 win for team 0, seats 1 and 3 for team 1.
    state = start("court-piece", CANON, dealer=1)
    act(state, "call H")
    for plays, winner in [("5C 2C 3C 4C", 0), ("3H 4H 5H 2H", 2)]:
        assert play_trick(state, plays, winner).taken_by == 0
    state = start("court-piece", CANON, dealer=1)
    act(state, "call H")
    # Anticlockwise from seat 0: seats 0, 3, 2, 1.
    assert play_trick(state, "2S JS QS KS", 1).taken_by == 1  # seat 1's king of spades
    assert play_trick(state, "3D 4D KD 2D", 3).taken_by == 1  # seat 3's king of diamonds


# ---------------------------------------------------------------------------------------------
# Deck and packets

def test_52_cards_ranked_ace_high_with_the_ten_below_the_jack() -> None:
    order = [r.label for r in sorted(Rank, reverse=True)]
    assert order == ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]


def test_full_deck_is_dealt_five_four_four() -> None:
    rules = rules_for("dehla-pakad")
    assert rules.packets == (5, 4, 4)
    assert rules.hand_size == 13
    deal = Deal.from_seed(rules, 7)
    assert sorted(c for hand in deal.hands for c in hand) == list(range(52))
    # Trumps are settled after the first packet: the caller has seen five cards.
    state = HandState(rules, deal, dealer=3)
    assert state.hand(0) == mask(" ".join(str(c) for c in deal.hands[0][:5]))


def test_short_deck_has_32_cards_eight_each_dealt_five_three() -> None:
    rules = rules_for("mendikot", {"deck": "short32"})
    assert rules.hand_size == 8 and rules.packets == (5, 3)
    deal = Deal.from_seed(rules, 11)
    assert all(len(hand) == 8 for hand in deal.hands)
    cards = [c for hand in deal.hands for c in hand]
    assert len(set(cards)) == 32
    assert all(c.rank >= Rank.SEVEN for c in cards)  # 2s-6s removed


def test_short_deck_rejects_low_cards_in_an_explicit_deal() -> None:
    rules = rules_for("dehla-pakad", {"deck": "short32"})
    hands = [[str(c) for c in cards_of(SHORT_DECK)[s * 8:(s + 1) * 8]] for s in range(4)]
    Deal.from_text(rules, hands)
    hands[0][0] = "6S"
    with pytest.raises(DealError):
        Deal.from_text(rules, hands)


def test_short_deck_hand_has_eight_tricks_and_every_card_ends_with_one_team() -> None:
    rules = rules_for("dehla-pakad", {"deck": "short32"})
    state = HandState(rules, Deal.from_seed(rules, 3), dealer=3)
    assert state.hand(0).bit_count() == 5 and state.undealt(0).bit_count() == 3
    finish_hand(state)
    assert len(state.tricks) == 8
    assert_all_cards_with_one_team(state, SHORT_DECK)


# ---------------------------------------------------------------------------------------------
# Seeded and explicit deals

def test_seeded_deals_replay_exactly() -> None:
    rules = rules_for("dehla-pakad-cut")
    assert Deal.from_seed(rules, 42) == Deal.from_seed(rules, 42)
    assert Deal.from_seed(rules, 42) != Deal.from_seed(rules, 43)
    histories = []
    for _ in range(2):
        state = HandState(rules, Deal.from_seed(rules, 42), dealer=2)
        finish_hand(state)
        histories.append((state.history, state.result))
    assert histories[0] == histories[1]


@pytest.mark.parametrize(
    "hands",
    [
        [CANON[0], CANON[1], CANON[2], CANON[3].replace("2C", "2S")],  # 2S twice, 2C missing
        [CANON[0] + " 2C", CANON[1], CANON[2], CANON[3].replace(" 2C", "")],  # 14 and 12
        [CANON[0], CANON[1], CANON[2]],  # three hands
        [CANON[0].replace("AS", "ZZ"), CANON[1], CANON[2], CANON[3]],  # not a card
    ],
)
def test_an_explicit_deal_must_be_a_deal_of_the_deck(hands: list[str]) -> None:
    with pytest.raises(DealError):
        make_deal(rules_for("dehla-pakad"), hands)


# ---------------------------------------------------------------------------------------------
# What a seat may see

# The on_void deal of the trump tests, and the same deal with 2D (seat 0) and 2C (seat 3)
# swapped, so that seat 0 hides a club instead of a diamond; and one with 6S (seat 2) and 3S
# (seat 3) swapped. Seats 1 and 2 hold the same cards in the first two deals.
HIDDEN_A = (
    "2D AH KH QH JH AS KS QS JS AC KC QC JC",
    "3D 10S 9S 8S 7S 10C 9C 8C 7C AD KD QD JD",
    "10H 9H 8H 7H 6H 6S 5S 4S 6C 5C 4C 10D 9D",
    "5H 4H 3H 2H 3S 2S 3C 2C 8D 7D 6D 5D 4D",
)
HIDDEN_B = (
    HIDDEN_A[0].replace("2D", "2C"),
    HIDDEN_A[1],
    HIDDEN_A[2],
    HIDDEN_A[3].replace("2C", "2D"),
)
HIDDEN_C = (
    HIDDEN_A[0],
    HIDDEN_A[1],
    HIDDEN_A[2].replace("6S", "3S"),
    HIDDEN_A[3].replace("3S", "6S"),
)


def test_a_face_down_trump_is_invisible_to_the_other_seats() -> None:
    a = start("dehla-pakad-hidden", HIDDEN_A, dealer=3)
    b = start("dehla-pakad-hidden", HIDDEN_B, dealer=3)
    act(a, "hide 2D")
    act(b, "hide 2C")
    for seat in (1, 2):
        assert observe(a, seat).to_json() == observe(b, seat).to_json()
    # Its owner knows it.
    assert observe(a, 0).hidden_trump_card != observe(b, 0).hidden_trump_card


def test_an_observation_does_not_depend_on_other_hands() -> None:
    a = start("dehla-pakad-hidden", HIDDEN_A, dealer=3)
    c = start("dehla-pakad-hidden", HIDDEN_C, dealer=3)
    for state in (a, c):
        act(state, "hide 2D", "AH", "3D", "10H", "5H")  # seat 1 void: the trump is revealed
    for seat in (0, 1):
        assert observe(a, seat).to_json() == observe(c, seat).to_json()
    assert observe(a, 2).to_json() != observe(c, 2).to_json()  # seat 2 sees its own cards
