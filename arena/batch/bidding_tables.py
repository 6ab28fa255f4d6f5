"""N tables of Twenty-eight (or Twenty-nine) stepped at once: the batched bidding game's API.

``BiddingBatchTables(rules, size)`` is ``BatchTables`` for ``BiddingRules``: ``reset`` deals,
``step`` applies one action per table (``action_ids.bidding_action_id``: cards, the call for the
trump, hides, a pass, bids), ``legal_mask`` and ``results`` read them. A class of its own, as
``BiddingHand`` is beside ``HandState``, so the other presets' kernels stay as they were. Every
argument is checked before any table changes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from arena.batch import bidding_kernels
from arena.batch.arguments import check_dealers, check_vector
from arena.batch.bidding_config import BiddingKernelRules
from arena.batch.bidding_layout import (
    BID_INT_FIELDS,
    BID_MASK_FIELDS,
    BID_RESULT_FIELDS,
    BR_BID,
    BR_BIDDER,
    BR_GAME_POINTS,
    BR_MADE,
    BR_PLAYED,
    BR_POINTS0,
    BR_VOID,
    BR_WINNER,
    CAPTURED0,
    DECISION,
    HIDDEN,
    HIGH_BID,
    HIGH_BIDDER,
    HISTORY_FIELDS,
    LEGAL,
    MAX_BID_TRICKS,
    TO_MOVE,
    TRUMP,
)
from arena.batch.dealing import deals_from_seeds
from arena.batch.errors import FinishedTableError, IllegalBatchActionError
from arena.batch.kernels import CHECK_FINISHED, CHECK_OK, CHECK_RANGE, DRAWN, GIVEN
from arena.batch.layout import Phase
from arena.batch.table_arrays import NO_KEY, NO_LOG, NO_LOG_LEN, NO_STOP, TableArrays
from arena.engine.action_ids import NUM_BIDDING_ACTIONS, bidding_action_of
from arena.engine.bidding_rules import BiddingRules, bidding_rules_for
from arena.engine.cards import format_cards

IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True)
class BiddingBatchResults:
    """The hands' results, one entry per table (``BiddingResult`` field by field; ``winner`` -1
    for a void hand, ``bidder`` -1 for a hand not over)."""

    bidder: npt.NDArray[np.int16]
    bid: npt.NDArray[np.int16]
    points: npt.NDArray[np.int16]
    """Card points per team (``[t, team]``), the last trick's point included."""
    void: npt.NDArray[np.bool_]
    made: npt.NDArray[np.bool_]
    game_points: npt.NDArray[np.int16]
    """Signed, for the bidding team (0 for a void hand)."""
    tricks_played: npt.NDArray[np.int16]
    winner: npt.NDArray[np.int16]


class BiddingBatchTables(TableArrays):
    """``size`` tables of one set of bidding rules, stepped together."""

    legal_column = LEGAL
    captured_column = CAPTURED0

    def __init__(self, rules: BiddingRules, size: int) -> None:
        super().__init__(size, BID_INT_FIELDS, BID_MASK_FIELDS, MAX_BID_TRICKS, HISTORY_FIELDS, BID_RESULT_FIELDS)
        self.kernel_rules = BiddingKernelRules.of(rules)
        self.rules = rules

    @classmethod
    def of_preset(cls, preset: str, size: int, overrides: dict[str, Any] | None = None) -> BiddingBatchTables:
        return cls(bidding_rules_for(preset, overrides), size)

    # ------------------------------------------------------------------ reset
    def reset(self, seeds: Sequence[int] | IntArray, dealers: Sequence[int] | IntArray | int = 0) -> None:
        """Deal every table from its seed (``Deal.from_seed`` of the rules' 32-card pack)."""
        seed_array = check_vector("seeds", seeds, self.size)
        deals = deals_from_seeds(self.rules.deal_rules, seed_array)
        bidding_kernels.reset_tables(self.ints, self.masks, self.history, self.result, deals,
                                     check_dealers(dealers, self.size), self.kernel_rules.array)

    # ------------------------------------------------------------------- step
    def step(self, actions: Sequence[int] | IntArray) -> None:
        """Apply ``actions[t]`` at table ``t`` (-1: leave it). All are checked first: one that is
        out of range, not legal, or for a finished hand raises and no table changes."""
        array = check_vector("actions", actions, self.size)
        table, code = bidding_kernels.check_actions(self.ints, self.masks, array, self.kernel_rules.array)
        if code != CHECK_OK:
            self._refuse(int(table), int(array[table]), int(code))
        bidding_kernels.advance(self.ints, self.masks, self.history, self.result, GIVEN, array, self._no_uniforms,
                                NO_KEY, self.kernel_rules.array, self._actions,
                                NO_STOP, NO_LOG, NO_LOG_LEN)

    def _refuse(self, table: int, action: int, code: int) -> None:
        if code == CHECK_RANGE:
            raise IllegalBatchActionError(
                f"table {table}: action {action} is out of range (0..{NUM_BIDDING_ACTIONS - 1}, or -1 for none)")
        what = str(bidding_action_of(action))
        if code == CHECK_FINISHED:
            raise FinishedTableError(f"table {table}: {what}: the hand is over (pass -1 for it)")
        seat = int(self.ints[table, TO_MOVE])
        decision = Phase(int(self.ints[table, DECISION]))
        if decision is Phase.BID:
            least = int(self.least_bid()[table])
            high = int(self.ints[table, HIGH_BID])
            allowed = f"bid {least}..{self.rules.max_bid}" + (" or pass" if high else " (the opener may not pass)")
            raise IllegalBatchActionError(f"table {table}: {what}: seat {seat} may {allowed}")
        cards = format_cards(int(self.masks[table, LEGAL]))
        if decision is Phase.HIDE_TRUMP:
            raise IllegalBatchActionError(
                f"table {table}: {what}: seat {seat} must put one of its cards face down ({cards})")
        call = " or call for the trump" if self.reveal_allowed()[table] else ""
        raise IllegalBatchActionError(f"table {table}: {what}: not legal for seat {seat} (legal: {cards}{call})")

    def random_actions(self, uniforms: npt.NDArray[np.float64]) -> IntArray:
        """The ``floor(u * count)``-th legal action per table in id order, -1 where over."""
        bidding_kernels.random_actions(self.ints, self.masks, self._uniforms(uniforms), self.kernel_rules.array,
                                       self._actions)
        return self._actions.copy()

    def step_random(self, uniforms: npt.NDArray[np.float64]) -> IntArray:
        """``step(random_actions(uniforms))`` in one pass; returns the actions taken."""
        bidding_kernels.advance(self.ints, self.masks, self.history, self.result, DRAWN, self._no_actions,
                                self._uniforms(uniforms), NO_KEY, self.kernel_rules.array, self._actions,
                                NO_STOP, NO_LOG, NO_LOG_LEN)
        return self._actions.copy()

    def step_keyed(self, key: int) -> IntArray:
        """``step_random(keyed_uniforms(key))`` without the array (SplitMix64, as ``BatchTables``)."""
        bidding_kernels.step_keyed(self.ints, self.masks, self.history, self.result, self._key(key),
                                   self.kernel_rules.array, self._actions)
        return self._actions.copy()

    # ---------------------------------------------------------------- queries
    def legal_mask(self) -> npt.NDArray[np.bool_]:
        """``mask[t, a]``: action ``a`` (``bidding_action_id``) is legal at table ``t`` now."""
        out = np.zeros((self.size, NUM_BIDDING_ACTIONS), dtype=np.bool_)
        bidding_kernels.legal_actions_mask(self.ints, self.masks, self.kernel_rules.array, out)
        return out

    def least_bid(self) -> npt.NDArray[np.int64]:
        """The least bid the speaker may make, per table (0 outside the auction)."""
        return self.call_options()[0]

    def reveal_allowed(self) -> npt.NDArray[np.bool_]:
        """Whether the seat to move may call for the face-down trump (``REVEAL_ID``), per table."""
        return self.call_options()[1]

    def call_options(self) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.bool_]]:
        """``(least_bid(), reveal_allowed())`` in one pass over the tables."""
        least = np.zeros(self.size, dtype=np.int64)
        reveal = np.zeros(self.size, dtype=np.bool_)
        bidding_kernels.call_options(self.ints, self.masks, self.kernel_rules.array, least, reveal)
        return least, reveal

    @property
    def trump(self) -> npt.NDArray[np.int16]:
        """The trump suit once the bidder has set it (even while face down), else -1."""
        return self.ints[:, TRUMP]

    @property
    def hidden(self) -> npt.NDArray[np.int16]:
        """The face-down trump card while it is down, else -1 (only the bidder may be told)."""
        return self.ints[:, HIDDEN]

    @property
    def bidder(self) -> npt.NDArray[np.int16]:
        """The highest bidder so far (-1 before the opening bid)."""
        return self.ints[:, HIGH_BIDDER]

    def results(self) -> BiddingBatchResults:
        r = self.result
        return BiddingBatchResults(
            bidder=r[:, BR_BIDDER].copy(), bid=r[:, BR_BID].copy(), points=r[:, BR_POINTS0:BR_POINTS0 + 2].copy(),
            void=r[:, BR_VOID] != 0, made=r[:, BR_MADE] != 0, game_points=r[:, BR_GAME_POINTS].copy(),
            tricks_played=r[:, BR_PLAYED].copy(), winner=r[:, BR_WINNER].copy(),
        )
