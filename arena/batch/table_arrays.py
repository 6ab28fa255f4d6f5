"""What both kinds of batched tables (``BatchTables``, ``BiddingBatchTables``) hold and answer
alike: the four arrays of ``size`` tables, the checked uniforms and keys of a random step, and the
reads whose columns mean the same in both layouts. Each kind adds its rules, kernels and results."""

from __future__ import annotations

from typing import ClassVar

import numpy as np
import numpy.typing as npt

from arena.batch import kernels
from arena.batch.arguments import check_key, check_size
from arena.batch.errors import BatchShapeError
from arena.batch.layout import DECISION, TO_MOVE, TRICKS_DONE, Phase

NO_KEY = np.uint64(0)
"""The key a step kernel gets when its actions are not keyed (one type for every call: one compile)."""
NO_STOP = np.zeros(4, dtype=np.bool_)
NO_LOG = np.empty((0, 0), dtype=np.int16)
NO_LOG_LEN = np.empty(0, dtype=np.int64)
"""The opponents' inputs of a step kernel for the other steps (the types of ``sdk.learn.vector``'s)."""


class TableArrays:
    """``size`` tables as ``ints``, ``masks``, ``history`` and ``result`` (columns per the kind's
    layout); a kind names where its legal and captured cards live."""

    legal_column: ClassVar[int]
    captured_column: ClassVar[int]
    """The first team's; the second team's follows it."""

    def __init__(self, size: int, int_fields: int, mask_fields: int, max_tricks: int, history_fields: int,
                 result_fields: int) -> None:
        self.size = check_size(size)
        self.ints = np.zeros((self.size, int_fields), dtype=np.int16)
        self.masks = np.zeros((self.size, mask_fields), dtype=np.uint64)
        self.history = np.full((self.size, max_tricks, history_fields), -1, dtype=np.int8)
        self.result = np.zeros((self.size, result_fields), dtype=np.int16)
        self._actions = np.full(self.size, -1, dtype=np.int64)
        self._no_actions = np.empty(0, dtype=np.int64)  # the unused inputs of a shared step kernel
        self._no_uniforms = np.empty(0, dtype=np.float64)

    def keyed_uniforms(self, key: int) -> npt.NDArray[np.float64]:
        """The uniforms ``step_keyed(key)`` draws, one per table."""
        out = np.empty(self.size, dtype=np.float64)
        kernels.keyed_uniforms(self._key(key), out)
        return out

    @staticmethod
    def _key(key: int) -> np.uint64:
        """A keyed step's integer key, checked, as the kernels take it (modulo 2**64)."""
        return np.uint64(check_key(key) % 2**64)

    def _uniforms(self, uniforms: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        """One uniform in [0, 1) per table, as ``float64``."""
        array = np.asarray(uniforms, dtype=np.float64)
        if array.shape != (self.size,):
            raise BatchShapeError(f"uniforms has shape {array.shape}; expected ({self.size},)")
        return array

    @property
    def decision(self) -> npt.NDArray[np.int16]:
        """Each table's ``Phase`` (``Phase.OVER`` once its hand is over)."""
        return self.ints[:, DECISION]

    @property
    def to_move(self) -> npt.NDArray[np.int16]:
        return self.ints[:, TO_MOVE]

    @property
    def legal_cards(self) -> npt.NDArray[np.uint64]:
        """The cards the seat to move may play (or put face down as the trump), as bitmasks."""
        return self.masks[:, self.legal_column]

    @property
    def over(self) -> npt.NDArray[np.bool_]:
        over: npt.NDArray[np.bool_] = self.ints[:, DECISION] == Phase.OVER
        return over

    @property
    def tricks_done(self) -> npt.NDArray[np.int16]:
        return self.ints[:, TRICKS_DONE]

    def captured(self, team: int) -> npt.NDArray[np.uint64]:
        return self.masks[:, self.captured_column + team]
