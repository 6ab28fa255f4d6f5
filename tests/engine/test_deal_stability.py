"""Seeded deals are the same on every machine and Python version, and explicit deals are checked."""

import hashlib

import pytest

from arena.engine.chance import choose_index, derive_seed, random_number, shuffled
from arena.engine.deal import Deal
from arena.engine.errors import DealError
from arena.engine.rules import rules_for


def test_seeded_deal_is_pinned() -> None:
    # A change here breaks every stored record and duplicate schedule: it must be deliberate.
    deal = Deal.from_seed(rules_for(), 1)
    assert [" ".join(map(str, hand[:5])) for hand in deal.hands] == PINNED_SEED_1


PINNED_SEED_1 = [
    "QC 2C 10H 10C 6C",
    "KC 5C 4C 8D 4D",
    "KD 9H 5S JS 7S",
    "2D 6H 9C KH KS",
]


def test_random_number_is_blake2b_of_the_labels() -> None:
    expected = int.from_bytes(hashlib.blake2b(b"5/x/3", digest_size=64).digest(), "big")
    assert random_number(5, "x", 3) == expected


def test_shuffle_is_a_permutation_and_depends_on_seed_and_labels() -> None:
    items = list(range(52))
    a, b, c = shuffled(items, 1, "deal"), shuffled(items, 2, "deal"), shuffled(items, 1, "other")
    assert sorted(a) == items
    assert len({tuple(a), tuple(b), tuple(c)}) == 3
    assert shuffled(items, 1, "deal") == a


def test_shuffle_is_roughly_uniform() -> None:
    counts = [0] * 4
    for seed in range(4000):
        counts[shuffled([0, 1, 2, 3], seed).index(0)] += 1
    assert all(900 < n < 1100 for n in counts), counts


def test_choose_index_and_derive_seed_are_in_range() -> None:
    assert {choose_index(3, s) for s in range(100)} == {0, 1, 2}
    assert 0 <= derive_seed(9, "deal", 4) < 2**63


def test_short_deck_deals_eight_cards_of_seven_and_up() -> None:
    rules = rules_for("dehla-pakad", {"deck": "short32"})
    deal = Deal.from_seed(rules, 3)
    assert all(len(hand) == 8 for hand in deal.hands)
    assert all(card.rank >= 5 for hand in deal.hands for card in hand)


@pytest.mark.parametrize(("hands", "message"), [
    ([["AS"] * 13] * 4, "dealt twice"),
    ([["AS"]] * 4, "has 1 cards, expected 13"),
    ([[]] * 3, "list of 4 hands"),
])
def test_bad_explicit_deals_are_rejected_with_a_reason(hands: list[list[str]], message: str) -> None:
    with pytest.raises(DealError, match=message):
        Deal.from_text(rules_for(), hands)


def test_bad_card_text_in_a_deal_names_its_place() -> None:
    hands = [[str(c) for c in hand] for hand in Deal.from_seed(rules_for(), 1).hands]
    hands[2][4] = "XY"
    with pytest.raises(DealError, match=r"deal.hands\[2\]\[4\]: 'XY' is not a card"):
        Deal.from_text(rules_for(), hands)
