"""The batched engine against ``arena.engine``: the same seeded deals and the same choices give
the same decisions, legal actions, tricks, captures and results (``arena.batch.differential``)."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.batch import SUPPORTED_PRESETS, BatchTables, Phase
from arena.batch.differential import MAX_STEPS, compare, seeded_uniforms
from arena.batch.layout import HAND0, LEGAL
from arena.engine.rules import rules_for

HANDS = 20_000


def _seeds(base: int, count: int) -> tuple[list[int], list[int]]:
    seeds = list(range(base, base + count))
    return seeds, [s % 4 for s in seeds]


@pytest.mark.parametrize("preset", SUPPORTED_PRESETS)
def test_twenty_thousand_seeded_random_hands_match(preset: str) -> None:
    seeds, dealers = _seeds(1_000_000 * (SUPPORTED_PRESETS.index(preset) + 1), HANDS)
    report = compare(rules_for(preset), seeds, dealers, seeded_uniforms(7, HANDS))
    assert report.hands == HANDS
    assert report.ok, report.summary()


OPTIONS: list[tuple[str, dict[str, Any]]] = [
    ("dehla-pakad", {"direction": "anticlockwise", "two_two": "tricks_won_at_table"}),
    ("dehla-pakad", {"two_two": "tricks_captured", "capture": "direct"}),
    ("dehla-pakad", {"two_two": "draw", "deck": "short32"}),
    ("dehla-pakad", {"trump": "none"}),
    ("dehla-pakad", {"trump": "first_discard"}),
    ("dehla-pakad-cut", {"deck": "short32", "direction": "anticlockwise"}),
    ("court-piece", {"early_end": True}),
    ("court-piece", {"deck": "short32", "capture": "sweep"}),
    ("court-piece", {"trump": "first_discard", "capture": "sweep"}),
    ("dehla-pakad", {"hand_result": "mendikot", "bonus_aces": True, "mendikot_bonus": 2, "kot_bonus": 3,
                     "capture": "direct"}),
    ("dehla-pakad", {"hand_result": "mendikot", "trump": "cut", "mendikot_bonus": 1}),
    ("dehla-pakad", {"hand_result": "seven_tricks", "trump": "none", "kot_bonus": 2}),
    ("dehla-pakad-hidden", {"hide_from": "full_hand", "direction": "anticlockwise"}),
    ("dehla-pakad-hidden", {"deck": "short32", "capture": "direct"}),
    ("dehla-pakad-hidden", {"reveal": "on_request"}),
    ("mendikot", {"capture": "sweep", "deck": "short32"}),
    ("mendikot", {"hide_from": "full_hand", "bonus_aces": True}),
    ("court-piece", {"trump": "hidden", "reveal": "on_request", "early_end": True}),
    ("mendikot-closed", {"hide_from": "first_packet", "deck": "short32", "capture": "sweep"}),
    ("dehla-pakad-hidden", {"reveal": "on_play"}),
]


@pytest.mark.parametrize(("preset", "overrides"), OPTIONS)
def test_options_match(preset: str, overrides: dict[str, Any]) -> None:
    seeds, dealers = _seeds(5_000_000 + 10_000 * OPTIONS.index((preset, overrides)), 2_000)
    report = compare(rules_for(preset, overrides), seeds, dealers, seeded_uniforms(11, 2_000))
    assert report.ok, report.summary()


@settings(max_examples=150, deadline=None)
@given(
    preset=st.sampled_from(SUPPORTED_PRESETS),
    seed=st.integers(-(2**63), 2**63 - 1),
    dealer=st.integers(0, 3),
    choices=st.lists(st.floats(0, 1, exclude_max=True), min_size=MAX_STEPS, max_size=MAX_STEPS),
)
def test_hypothesis_chosen_choices_match(preset: str, seed: int, dealer: int, choices: list[float]) -> None:
    uniforms = np.array(choices, dtype=np.float64).reshape(MAX_STEPS, 1)
    report = compare(rules_for(preset), [seed], [dealer], uniforms)
    assert report.ok, report.summary()


class ForgetsFollowSuit(BatchTables):
    """A twin with one rule broken on purpose: after each step the seat to move may play any
    card of its hand, as if nobody had to follow suit."""

    def step(self, actions: npt.NDArray[np.int64] | list[int]) -> None:  # type: ignore[override]
        super().step(actions)
        rows = np.flatnonzero(self.decision == Phase.PLAY)
        self.masks[rows, LEGAL] = self.masks[rows, HAND0 + self.to_move[rows].astype(np.int64)]


def test_a_broken_rule_in_the_twin_is_caught() -> None:
    seeds, dealers = _seeds(42, 200)
    rules = rules_for("dehla-pakad")
    uniforms = seeded_uniforms(3, 200)
    assert compare(rules, seeds, dealers, uniforms).ok
    broken = compare(rules, seeds, dealers, uniforms, make_tables=ForgetsFollowSuit)
    assert broken.mismatched_hands > 0
    assert "legal actions" in broken.first[0].what, broken.summary()
