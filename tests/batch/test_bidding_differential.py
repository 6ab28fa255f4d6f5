"""The batched Twenty-eight and Twenty-nine against ``arena.engine.bidding_hand``: the same seeded
deals and the same choices give the same decisions, legal actions (calls, hides, cards, the call
for the trump), tricks, captures, exposures and results (``arena.batch.bidding_differential``)."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.batch import SUPPORTED_BIDDING_PRESETS, BiddingBatchTables, Phase
from arena.batch.bidding_config import B_LAST_TRICK_POINTS, B_STRENGTH, BiddingKernelRules
from arena.batch.bidding_differential import compare, max_steps, play_recorded, seeded_uniforms
from arena.batch.bidding_layout import HAND0, HIDDEN, HIGH_BIDDER, LEGAL, REVEAL_TRICK, TRICK_LEN, TRUMP
from arena.engine.bidding_rules import BiddingRules, bidding_rules_for
from tests.batch_helpers import BIDDING_BATCH_OPTIONS

HANDS = 20_000


def _seeds(base: int, count: int) -> tuple[list[int], list[int]]:
    seeds = list(range(base, base + count))
    return seeds, [s % 4 for s in seeds]


@pytest.mark.parametrize("preset", SUPPORTED_BIDDING_PRESETS)
def test_twenty_thousand_seeded_random_hands_match(preset: str) -> None:
    rules = bidding_rules_for(preset)
    seeds, dealers = _seeds(20_000_000 * (SUPPORTED_BIDDING_PRESETS.index(preset) + 1), HANDS)
    report = compare(rules, seeds, dealers, seeded_uniforms(rules, 7, HANDS))
    assert report.hands == HANDS
    assert report.ok, report.summary()


@pytest.mark.parametrize(("preset", "overrides"), BIDDING_BATCH_OPTIONS)
def test_options_match(preset: str, overrides: dict[str, Any]) -> None:
    rules = bidding_rules_for(preset, overrides)
    seeds, dealers = _seeds(60_000_000 + 10_000 * BIDDING_BATCH_OPTIONS.index((preset, overrides)), 2_000)
    report = compare(rules, seeds, dealers, seeded_uniforms(rules, 11, 2_000))
    assert report.ok, report.summary()


_LONGEST = max(max_steps(bidding_rules_for(p)) for p in SUPPORTED_BIDDING_PRESETS)


@settings(max_examples=150, deadline=None)
@given(
    preset=st.sampled_from(SUPPORTED_BIDDING_PRESETS),
    seed=st.integers(-(2**63), 2**63 - 1),
    dealer=st.integers(0, 3),
    choices=st.lists(st.floats(0, 1, exclude_max=True), min_size=_LONGEST, max_size=_LONGEST),
)
def test_hypothesis_chosen_choices_match(preset: str, seed: int, dealer: int, choices: list[float]) -> None:
    rules = bidding_rules_for(preset)
    uniforms = np.array(choices[:max_steps(rules)], dtype=np.float64).reshape(-1, 1)
    report = compare(rules, [seed], [dealer], uniforms)
    assert report.ok, report.summary()


class LeadsTrumpsEarly(BiddingBatchTables):
    """A twin with one play rule broken on purpose: the bidder may lead trumps while they are
    face down (the first phase's ban forgotten)."""

    def step(self, actions: npt.NDArray[np.int64] | list[int]) -> None:  # type: ignore[override]
        super().step(actions)
        rows = np.flatnonzero((self.decision == Phase.PLAY) & (self.ints[:, TRICK_LEN] == 0)
                              & (self.ints[:, HIDDEN] >= 0) & (self.to_move == self.ints[:, HIGH_BIDDER]))
        self.masks[rows, LEGAL] = self.masks[rows, HAND0 + self.to_move[rows].astype(np.int64)]


class _BrokenRules(BiddingBatchTables):
    slot = 0
    value = 0

    def __init__(self, rules: BiddingRules, size: int) -> None:
        super().__init__(rules, size)
        array = self.kernel_rules.array.copy()
        array[self.slot] = self.value
        self.kernel_rules = BiddingKernelRules(rules, array)


class RanksTheNineLow(_BrokenRules):
    """A twin whose nine ranks below the seven (the rank order J 9 A 10 ... broken for one rank)."""

    slot = B_STRENGTH + 7  # the nine
    value = -1


class ForgetsTheLastTrickPoint(_BrokenRules):
    """A Twenty-nine twin that gives the last trick no point."""

    slot = B_LAST_TRICK_POINTS
    value = 0


@pytest.mark.parametrize(("twin", "preset", "words"), [
    (LeadsTrumpsEarly, "twenty-eight", "legal actions"),
    (RanksTheNineLow, "twenty-eight", "seat to move"),
    (ForgetsTheLastTrickPoint, "twenty-nine", "result"),
])
def test_a_broken_rule_in_the_twin_is_caught(twin: type[BiddingBatchTables], preset: str, words: str) -> None:
    rules = bidding_rules_for(preset)
    seeds, dealers = _seeds(42, 300)
    uniforms = seeded_uniforms(rules, 3, 300)
    assert compare(rules, seeds, dealers, uniforms).ok
    broken = compare(rules, seeds, dealers, uniforms, make_tables=twin)
    assert broken.mismatched_hands > 0
    assert words in broken.first[0].what, broken.summary()


@pytest.mark.parametrize(("preset", "overrides"), [
    ("twenty-eight", {}), ("twenty-nine", {"no_exposure": "last_trick"}),
])
def test_random_hands_reach_every_ending(preset: str, overrides: dict[str, Any]) -> None:
    """The differential tests' random hands reach each way a hand goes: exposures in either phase,
    void hands (or the bidder's call on the last trick), contracts made and lost."""
    rules = bidding_rules_for(preset, overrides)
    tables = BiddingBatchTables(rules, 2_000)
    seeds = np.arange(2_000)
    tables.reset(seeds, seeds % 4)
    play_recorded(tables, seeded_uniforms(rules, 9, 2_000))
    results = tables.results()
    exposed_in = tables.ints[:, REVEAL_TRICK]
    assert (exposed_in == 1).mean() > 0.02 and (exposed_in >= 5).mean() > 0.2
    # Random bids run high: few contracts are made (about 1 in 80), but some are.
    assert results.made.sum() >= 10 and (~results.made & ~results.void).mean() > 0.5
    assert (tables.ints[:, TRUMP] >= 0).all()
    if overrides:  # nobody called in seven tricks: the bidder exposes in the last
        assert not results.void.any() and (exposed_in == 8).mean() > 0.05
    else:
        assert results.void.mean() > 0.05 and (results.tricks_played[results.void] == 7).all()
