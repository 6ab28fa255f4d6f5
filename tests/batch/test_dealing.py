"""Deals from seeds are the scalar engine's (``Deal.from_seed``) card for card, and an
explicit deal starts the same hand."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.batch import BatchTables
from arena.batch.dealing import cut_fallbacks, deals_from_seeds, digests
from arena.engine.chance import choose_index
from arena.engine.deal import Deal
from arena.engine.rules import rules_for


@pytest.mark.parametrize("deck", ["full52", "short32"])
def test_seeded_deals_are_the_scalar_engines(deck: str) -> None:
    rules = rules_for("dehla-pakad", {"deck": deck})
    seeds = [0, 1, -1, 2**63 - 1, -(2**63), *range(100, 2_100)]
    deals = deals_from_seeds(rules, np.array(seeds, dtype=np.int64))
    for seed, deal in zip(seeds, deals, strict=True):
        assert [list(h) for h in Deal.from_seed(rules, seed).hands] == deal.tolist(), seed


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(-(2**63), 2**63 - 1))
def test_any_seed_deals_the_same(seed: int) -> None:
    rules = rules_for("dehla-pakad")
    assert deals_from_seeds(rules, np.array([seed]))[0].tolist() == [list(h) for h in Deal.from_seed(rules, seed).hands]


@settings(max_examples=300, deadline=None)
@given(seeds=st.lists(st.integers(-(2**63), 2**63 - 1), min_size=1, max_size=20),
       labels=st.lists(st.text("abcdefghijklmnopqrstuvwxyz-", min_size=1, max_size=12), max_size=4))
def test_the_compiled_digest_is_hashlibs(seeds: list[int], labels: list[str]) -> None:
    expected = [hashlib.blake2b("/".join([str(s), *labels]).encode(), digest_size=64).digest() for s in seeds]
    assert [bytes(row) for row in digests(np.array(seeds, dtype=np.int64), *labels)] == expected


def test_an_explicit_deal_starts_the_same_hand_as_its_seed() -> None:
    rules = rules_for("dehla-pakad")
    seeded, explicit = BatchTables(rules, 3), BatchTables(rules, 3)
    seeded.reset([5, 6, 7], [0, 1, 2])
    explicit.reset_deals(np.array([Deal.from_seed(rules, s).hands for s in (5, 6, 7)]), [0, 1, 2], [5, 6, 7])
    assert (seeded.ints == explicit.ints).all()
    assert (seeded.masks == explicit.masks).all()


@settings(max_examples=100, deadline=None)
@given(chances=st.lists(st.integers(-(2**63), 2**63 - 1), min_size=1, max_size=20))
def test_cut_fallbacks_are_the_scalar_engines_draw(chances: list[int]) -> None:
    """Under cut trump, the card that sets trumps if nobody cuts is ``HandState``'s draw
    (``choose_index(count, chance, "cut-fallback")``), computed for every table at once."""
    rules = rules_for("dehla-pakad-cut")
    count = 4 * rules.packets[0]
    expected = [choose_index(count, chance, "cut-fallback") for chance in chances]
    assert cut_fallbacks(rules, np.array(chances, dtype=np.int64)).tolist() == expected
