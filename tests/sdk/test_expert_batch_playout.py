"""The expert's batched playout held to the engine: the same legal cards, tricks, captured cards
and hand results as ``HandState`` on the same deals with the same forced choices, and the same
values as the scalar greedy playout (``lean_playout``), card for card."""

from __future__ import annotations

import random
from collections.abc import Iterator

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.engine import decide_hand
from arena.engine.deal import Deal
from arena.engine.hand import HandState
from arena.engine.observation import observe
from arena.engine.rules import Rules, rules_for
from sample_bots.expert.batch_playout import BatchHand, Ints, batch_playout, hands_array
from sample_bots.expert.bot import FIRST_BATCH, BatchCost, cautious_row
from sample_bots.expert.playout import lean_applies, lean_playout
from sdk.sampling import Sampler

LEAN_PRESETS = ("dehla-pakad", "dehla-pakad-cut", "court-piece")
"""The presets whose play, once trumps are in force and face up, the batch covers."""
ROWS = 24


def _lean_position(rules: Rules, seed: int) -> HandState | None:
    """A hand after a random number of random legal actions, if the batch applies there."""
    rng = random.Random(seed)
    state = HandState(rules, Deal.from_seed(rules, seed), seed % 4)
    for _ in range(rng.randrange(0, 4 * rules.hand_size - 4)):
        state.apply(rng.choice(state.legal_actions()))
    return state if lean_applies(state, rules) else None


def _worlds(state: HandState, rows: int, seed: int) -> list[HandState]:
    """``rows`` full deals the seat to move cannot tell from ``state`` (its sampler's), as engine states."""
    assert state.to_move is not None
    sampler = Sampler(observe(state, state.to_move))
    rng = random.Random(seed)
    return [sampler.state(sampler.sample(rng)) for _ in range(rows)]


def _lean_worlds(rules: Rules, seeds: range) -> Iterator[tuple[HandState, Ints]]:
    """For each seed that gives a lean position: the position and ``ROWS`` of its worlds' hands."""
    for seed in seeds:
        state = _lean_position(rules, seed)
        if state is not None:
            worlds = _worlds(state, ROWS, seed)
            yield state, hands_array([[w.hand(s) for s in range(4)] for w in worlds])


def _cards(mask: int) -> list[int]:
    return [c for c in range(52) if mask >> c & 1]


def _as_card_mask(legal: Ints, row: int) -> int:
    return sum(int(legal[row, suit]) << (13 * suit) for suit in range(4))


def mismatches(batch_type: type[BatchHand], rules: Rules, seed: int) -> list[str]:
    """Plays random legal cards (the same in both) through ``batch_type`` and the engine, one
    world per row, and lists every difference: legal cards, trick winners, captured cards,
    tricks captured, the hand's result. Empty when no lean position comes of ``seed``."""
    state = _lean_position(rules, seed)
    if state is None:
        return []
    worlds = _worlds(state, ROWS, seed)
    batch = batch_type(state, rules, hands_array([[w.hand(s) for s in range(4)] for w in worlds]))
    rng = random.Random(seed)
    found: list[str] = []
    while not batch.over:
        legal = batch.legal()
        suits = np.zeros(ROWS, dtype=np.int64)
        ranks = np.zeros(ROWS, dtype=np.int64)
        for row, world in enumerate(worlds):
            if _as_card_mask(legal, row) != world.legal_mask():
                found.append(f"row {row}: legal cards differ at trick {world.trick_number}")
            card = rng.choice(_cards(world.legal_mask()))
            suits[row], ranks[row] = divmod(card, 13)
            world.play(card)
        batch.play(suits, ranks)
    for row, world in enumerate(worlds):
        captured, caught, winners = batch.results_of(row)
        if winners != [t.winner for t in world.tricks]:
            found.append(f"row {row}: trick winners differ")
        if captured != [world.captured(0), world.captured(1)] or caught != [world.captured_tricks(t) for t in (0, 1)]:
            found.append(f"row {row}: captured cards differ")
        if decide_hand(rules, world.dealer, captured, caught, winners) != world.result:
            found.append(f"row {row}: hand result differs")
    return found


@pytest.mark.parametrize("preset", LEAN_PRESETS)
def test_the_engines_legal_cards_tricks_captures_and_results_under_forced_choices(preset: str) -> None:
    rules = rules_for(preset)
    compared = 0
    for seed in range(40):
        assert mismatches(BatchHand, rules, seed) == [], seed
        compared += _lean_position(rules, seed) is not None
    assert compared >= 20  # lean positions were played, not skipped


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 100_000), preset=st.sampled_from(LEAN_PRESETS))
def test_the_engine_under_forced_choices_on_any_seed(seed: int, preset: str) -> None:
    assert mismatches(BatchHand, rules_for(preset), seed) == []


class TrumpBlindBatch(BatchHand):
    """A broken twin: the trick goes to the highest card of the led suit, trumps ignored."""

    def _winning_position(self) -> Ints:
        return np.zeros(self.rows, dtype=np.int64) + np.argmax(self._led_ranks, axis=1)

    def _place(self, suit: Ints, rank: Ints, remove: bool) -> None:
        if self.k == 0:
            self._led_ranks = np.full((self.rows, 4), -1, dtype=np.int64)
            self._led_suit = suit
        self._led_ranks[:, self.k] = np.where(suit == self._led_suit, rank, -1)
        super()._place(suit, rank, remove)


def test_a_winner_rule_that_ignores_trumps_is_caught() -> None:
    rules = rules_for("dehla-pakad")
    found = [m for seed in range(10) for m in mismatches(TrumpBlindBatch, rules, seed)]
    assert any("trick winners differ" in m for m in found)


@pytest.mark.parametrize("blind", [False, True])
@pytest.mark.parametrize("preset", LEAN_PRESETS)
def test_the_greedy_playouts_values_are_the_scalar_ones(preset: str, blind: bool) -> None:
    rules = rules_for(preset)
    compared = 0
    for seed in range(40):
        state = _lean_position(rules, seed)
        if state is None:
            continue
        worlds = _worlds(state, ROWS, seed)
        candidates = _cards(state.legal_mask())
        first = [candidates[row % len(candidates)] for row in range(ROWS)]
        expected = []
        for world, card in zip(worlds, first, strict=True):
            world.play(card)
            expected.append(lean_playout(world, rules, 1, blind) if not world.is_over else None)
        if None in expected:
            continue
        hands = hands_array([[w.hand(s) | (1 << c if s == state.to_move else 0) for s in range(4)]
                             for w, c in zip(worlds, first, strict=True)])
        got = batch_playout(state, rules, 1, hands, first, blind)
        assert got.tolist() == expected, seed
        compared += ROWS
    assert compared >= 20 * ROWS


def test_blind_playouts_judge_safety_by_the_unseen_cards_not_their_places() -> None:
    rules = rules_for("dehla-pakad")
    differ = compared = 0
    for state, hands in _lean_worlds(rules, range(30)):
        sighted = batch_playout(state, rules, 0, hands)
        blind = batch_playout(state, rules, 0, hands, blind=True)
        differ += int((sighted != blind).sum())
        compared += ROWS
    assert compared and differ > compared // 20  # the policies differ in many worlds, not a few


def test_rows_blind_and_sighted_in_one_batch_are_each_as_alone() -> None:
    rules = rules_for("dehla-pakad")
    for state, hands in _lean_worlds(rules, range(12)):
        mixed = np.arange(ROWS) % 2 == 1
        together = BatchHand(state, rules, hands, blind=mixed)
        together.play_greedy()
        alone = batch_playout(state, rules, 0, hands), batch_playout(state, rules, 0, hands, blind=True)
        expected = np.where(mixed, alone[1], alone[0])
        assert together.values(0).tolist() == expected.tolist()


def test_a_cautious_row_takes_each_card_at_its_worse_for_an_override() -> None:
    assert cautious_row([0.0, 1.0, -1.0, 0.5, 0.5, 2.0], 3) == [0.5, 0.5, -1.0]


def test_a_batch_is_sized_within_the_time_its_timings_allow() -> None:
    cost = BatchCost(fixed=0.5, per_world=0.25)
    assert cost.fits(0.25) == 0  # under the prior's fixed part: no batch
    assert cost.fits(3.0) == 10
    cost.observe(100, 2.0)  # a batch of 100 took 2 s: 100 fit in 2 s, 150 in 3 s, none in less
    assert cost.fits(1.5) == 0
    assert cost.fits(2.0) == 100
    assert cost.fits(3.0) == 150
    cost.observe(10, 0.5)  # a smaller batch bounds the small ones better
    assert cost.fits(1.0) == 20



def test_batches_grow_from_a_small_first_one() -> None:
    cost = BatchCost(fixed=0.0, per_world=1e-9)
    assert cost.largest_next() == FIRST_BATCH  # however much time the prior promises
    cost.observe(FIRST_BATCH, 1.0)
    cost.observe(8, 0.1)
    assert cost.largest_next() == 4 * FIRST_BATCH
