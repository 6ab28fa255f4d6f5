"""The checks both batched APIs (``BatchTables``, ``BiddingBatchTables``) make of their arguments:
each bad one raises ``BatchShapeError`` naming it (and the table), before any table changes."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from arena.batch.errors import BatchShapeError

IntArray = npt.NDArray[np.int64]


def check_size(size: object) -> int:
    """A positive number of tables."""
    if isinstance(size, bool) or not isinstance(size, int | np.integer) or size < 1:
        raise BatchShapeError(f"size must be a positive number of tables, not {size!r}")
    return int(size)


def check_vector(name: str, values: Sequence[int] | IntArray, size: int) -> IntArray:
    """One integer per table, as ``int64``."""
    array = np.asarray(values)
    if array.shape != (size,) or not (np.issubdtype(array.dtype, np.integer) or array.size == 0):
        raise BatchShapeError(
            f"{name} has shape {array.shape} ({array.dtype}); expected ({size},) integers, one per table"
        )
    return array.astype(np.int64, copy=False)


def check_dealers(dealers: Sequence[int] | IntArray | int, size: int) -> IntArray:
    """One seat, or a seat per table."""
    if isinstance(dealers, bool):
        raise BatchShapeError(f"dealers must be a seat or one seat per table, not {dealers!r}")
    if isinstance(dealers, int | np.integer):
        array = np.full(size, int(dealers), dtype=np.int64)
    else:
        array = check_vector("dealers", dealers, size)
    if array.min() < 0 or array.max() > 3:
        bad = int(np.flatnonzero((array < 0) | (array > 3))[0])
        raise BatchShapeError(f"table {bad}: dealer must be a seat 0..3, not {int(array[bad])}")
    return array


def check_key(key: object) -> int:
    """The integer key of a keyed step (any integer, taken modulo 2**64 by the caller)."""
    if isinstance(key, bool) or not isinstance(key, int | np.integer):
        raise BatchShapeError(f"key must be an integer, not {key!r}")
    return int(key)
