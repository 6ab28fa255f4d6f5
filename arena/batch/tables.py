"""N tables stepped at once: the batched engine's API.

``BatchTables(rules, size)`` holds the state of ``size`` hands as arrays (``layout``);
``reset`` deals them, ``step`` applies one action per table, ``legal_mask`` and ``results`` read
them. Every argument is checked before any table changes, so a bad call raises one
``BatchError`` naming the table and the problem and leaves the batch as it was.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from arena.batch import kernels
from arena.batch.arguments import check_dealers, check_vector
from arena.batch.config import KernelRules
from arena.batch.dealing import cut_fallbacks, deals_from_seeds
from arena.batch.errors import BatchShapeError, FinishedTableError, IllegalBatchActionError, UnsupportedRulesError
from arena.batch.layout import (
    CAPTURED0,
    DECISION,
    FACE_DOWN,
    HISTORY_FIELDS,
    INT_FIELDS,
    LEGAL,
    MASK_FIELDS,
    MAX_TRICKS,
    OUTCOMES,
    PILE,
    RESULT_FIELDS,
    TO_MOVE,
    Phase,
)
from arena.batch.table_arrays import NO_KEY, NO_LOG, NO_LOG_LEN, NO_STOP, TableArrays
from arena.engine.action_ids import DOWN_BASE, NUM_ACTIONS, describe_action_id
from arena.engine.bidding_rules import BIDDING_PRESETS
from arena.engine.cards import cards_of, format_cards
from arena.engine.outcome import HandOutcome
from arena.engine.rules import Rules, rules_for

IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True)
class BatchResults:
    """The hands' results, one entry per table (``arena.engine.outcome.HandResult`` field by
    field; ``winner`` -1 for a draw or a hand not over, ``outcome`` -1 for a hand not over)."""

    winner: npt.NDArray[np.int16]
    outcome: npt.NDArray[np.int16]
    tens: npt.NDArray[np.int16]
    tricks_won: npt.NDArray[np.int16]
    tricks_captured: npt.NDArray[np.int16]
    tricks_played: npt.NDArray[np.int16]
    kot: npt.NDArray[np.bool_]
    mendikot: npt.NDArray[np.bool_]
    all_aces: npt.NDArray[np.bool_]
    points: npt.NDArray[np.int16]

    def outcome_of(self, table: int) -> HandOutcome | None:
        code = int(self.outcome[table])
        return None if code < 0 else OUTCOMES[code]


class BatchTables(TableArrays):
    """``size`` tables of one set of rules, stepped together."""

    legal_column = LEGAL
    captured_column = CAPTURED0

    def __init__(self, rules: Rules, size: int) -> None:
        super().__init__(size, INT_FIELDS, MASK_FIELDS, MAX_TRICKS, HISTORY_FIELDS, RESULT_FIELDS)
        self.kernel_rules = KernelRules.of(rules)
        self.rules = rules

    @classmethod
    def of_preset(cls, preset: str, size: int, overrides: dict[str, object] | None = None) -> BatchTables:
        if preset in BIDDING_PRESETS:
            raise UnsupportedRulesError(f"{preset} is a bidding game: BiddingBatchTables plays it, not BatchTables")
        return cls(rules_for(preset, overrides), size)

    # ------------------------------------------------------------------ reset
    def reset(self, seeds: Sequence[int] | IntArray, dealers: Sequence[int] | IntArray | int = 0) -> None:
        """Deal every table from its seed (``Deal.from_seed``; the seed is the hand's chance seed too)."""
        seed_array = self._vector("seeds", seeds)
        deals = deals_from_seeds(self.rules, seed_array)
        self._start(deals, self._dealers(dealers), cut_fallbacks(self.rules, seed_array))

    def reset_deals(
        self, deals: npt.NDArray[np.integer], dealers: Sequence[int] | IntArray | int = 0,
        chances: Sequence[int] | IntArray | int = 0,
    ) -> None:
        """Start every table from an explicit deal, ``deals[t, seat, i]`` in deal order (as
        ``Deal.hands``), checked like ``Deal.check``; ``chances``: each hand's chance seed."""
        shape = (self.size, 4, self.rules.hand_size)
        deals = np.asarray(deals)
        if deals.shape != shape or not np.issubdtype(deals.dtype, np.integer):
            raise BatchShapeError(f"deals has shape {deals.shape} ({deals.dtype}); expected {shape} of integers")
        deck = np.array(sorted(cards_of(self.rules.deck_mask)), dtype=np.int64)
        wrong = np.flatnonzero((np.sort(deals.reshape(self.size, -1), axis=1) != deck).any(axis=1))
        if wrong.size:
            raise BatchShapeError(
                f"table {int(wrong[0])}: the deal does not use every card of the {self.rules.deck} deck once")
        chance_array = self._vector("chances", chances) if not isinstance(chances, int) else (
            np.full(self.size, chances, dtype=np.int64))
        self._start(deals.astype(np.int8), self._dealers(dealers), cut_fallbacks(self.rules, chance_array))

    def _dealers(self, dealers: Sequence[int] | IntArray | int) -> IntArray:
        return check_dealers(dealers, self.size)

    def _vector(self, name: str, values: Sequence[int] | IntArray) -> IntArray:
        return check_vector(name, values, self.size)

    def _start(self, deals: npt.NDArray[np.int8], dealers: IntArray, fallbacks: npt.NDArray[np.int16]) -> None:
        kernels.reset_tables(self.ints, self.masks, self.history, self.result, deals, dealers, fallbacks,
                             self.kernel_rules.array)

    # ------------------------------------------------------------------- step
    def step(self, actions: Sequence[int] | IntArray) -> None:
        """Apply ``actions[t]`` at table ``t`` (``NO_ACTION``, -1: leave it). All are checked
        first: one that is out of range, masked out, or for a finished hand raises and no table
        changes."""
        array = np.asarray(actions)
        if array.shape != (self.size,) or not np.issubdtype(array.dtype, np.integer):
            raise BatchShapeError(
                f"actions has shape {array.shape} ({array.dtype}); expected ({self.size},) integers, one per table"
            )
        array = array.astype(np.int64, copy=False)
        table, code = kernels.check_actions(self.ints, self.masks, array, self.kernel_rules.array)
        if code != kernels.CHECK_OK:
            self._refuse(int(table), int(array[table]), int(code))
        kernels.advance(self.ints, self.masks, self.history, self.result, kernels.GIVEN, array, self._no_uniforms,
                        NO_KEY, self.kernel_rules.array, self._actions,
                        NO_STOP, NO_LOG, NO_LOG_LEN)

    def _refuse(self, table: int, action: int, code: int) -> None:
        if code == kernels.CHECK_RANGE:
            raise IllegalBatchActionError(
                f"table {table}: action {action} is out of range (0..{NUM_ACTIONS - 1}, or -1 for none)")
        if code == kernels.CHECK_FINISHED:
            raise FinishedTableError(f"table {table}: {describe_action_id(action)}: the hand is over (pass -1 for it)")
        seat = int(self.ints[table, TO_MOVE])
        if self.ints[table, DECISION] == Phase.CALL_TRUMP:
            raise IllegalBatchActionError(f"table {table}: {describe_action_id(action)}: seat {seat} must call trumps")
        if self.ints[table, DECISION] == Phase.HIDE_TRUMP:
            raise IllegalBatchActionError(
                f"table {table}: {describe_action_id(action)}: seat {seat} must put one of its cards face down "
                f"({format_cards(int(self.masks[table, LEGAL]))})")
        reveal = " and reveal" if self.reveal_allowed()[table] else ""
        if action >= DOWN_BASE:
            down = "those cards face down" if self.down_allowed()[table] else (
                "no card face down: only the trump maker, unable to follow while its trump is face down, may")
            raise IllegalBatchActionError(
                f"table {table}: {describe_action_id(action)}: not legal for seat {seat} "
                f"(legal: {format_cards(int(self.masks[table, LEGAL]))}{reveal}; {down})"
            )
        raise IllegalBatchActionError(
            f"table {table}: {describe_action_id(action)}: not legal for seat {seat} "
            f"(legal: {format_cards(int(self.masks[table, LEGAL]))}{reveal})"
        )

    def random_actions(self, uniforms: npt.NDArray[np.float64]) -> IntArray:
        """A uniformly random legal action per table from ``uniforms`` in [0, 1), -1 where over."""
        kernels.random_actions(self.ints, self.masks, self._uniforms(uniforms), self.kernel_rules.array,
                               self._actions)
        return self._actions.copy()

    def step_random(self, uniforms: npt.NDArray[np.float64]) -> IntArray:
        """``step(random_actions(uniforms))`` in one pass over the tables (for random playouts);
        returns the actions taken."""
        kernels.advance(self.ints, self.masks, self.history, self.result, kernels.DRAWN, self._no_actions,
                        self._uniforms(uniforms), NO_KEY, self.kernel_rules.array, self._actions,
                        NO_STOP, NO_LOG, NO_LOG_LEN)
        return self._actions.copy()

    def step_keyed(self, key: int) -> IntArray:
        """``step_random(keyed_uniforms(key))`` without the array: table ``t`` draws its uniform
        from ``key`` and ``t`` (SplitMix64), so a playout is repeatable from one integer per step."""
        kernels.step_keyed(self.ints, self.masks, self.history, self.result, self._key(key),
                           self.kernel_rules.array, self._actions)
        return self._actions.copy()

    # ---------------------------------------------------------------- queries
    def legal_mask(self) -> npt.NDArray[np.bool_]:
        """``mask[t, a]``: action ``a`` (``action_ids``) is legal at table ``t`` now."""
        out = np.zeros((self.size, NUM_ACTIONS), dtype=np.bool_)
        kernels.legal_actions_mask(self.ints, self.masks, self.kernel_rules.array, out)
        return out

    def reveal_allowed(self) -> npt.NDArray[np.bool_]:
        """Whether the seat to move may ask for the face-down trump (``REVEAL_ID``), per table."""
        out = np.zeros(self.size, dtype=np.bool_)
        kernels.reveal_allowed(self.ints, self.masks, self.kernel_rules.array, out)
        return out

    def down_allowed(self) -> npt.NDArray[np.bool_]:
        """Whether the seat to move may play a legal card face down (``DOWN_BASE + card``), per table."""
        out = np.zeros(self.size, dtype=np.bool_)
        kernels.down_allowed(self.ints, self.masks, self.kernel_rules.array, out)
        return out

    @property
    def face_down(self) -> npt.NDArray[np.uint64]:
        """The cards played face down so far (``maker_discard=face_down``), as bitmasks. The
        arrays hold every card; what a seat may know of them is the observation's business."""
        return self.masks[:, FACE_DOWN]

    @property
    def pile(self) -> npt.NDArray[np.uint64]:
        return self.masks[:, PILE]

    def results(self) -> BatchResults:
        r = self.result
        return BatchResults(
            winner=r[:, 0].copy(), outcome=r[:, 1].copy(), tens=r[:, 2:4].copy(), tricks_won=r[:, 4:6].copy(),
            tricks_captured=r[:, 6:8].copy(), tricks_played=r[:, 8].copy(), kot=r[:, 9] != 0,
            mendikot=r[:, 10] != 0, all_aces=r[:, 11] != 0, points=r[:, 12].copy(),
        )
