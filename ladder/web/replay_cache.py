"""Replays already computed, kept by the record's identity so a rewritten record is recomputed.

A finished match's record never changes, and computing a replay (every hand checked, every step
observed) costs tens of milliseconds; the key is the record's identity (``records.record_identity``:
its row's match, name and size, so a row edited in place is read again, never served stale).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from threading import Lock
from typing import Generic, TypeVar

Value = TypeVar("Value")

RecordKey = tuple[tuple[str, int, int], int, str]
"""(the record's identity, hand number, perspective)."""


class ReplayCache(Generic[Value]):
    """A small least-recently-used map of computed replays; safe to share between request threads."""

    def __init__(self, capacity: int = 256) -> None:
        self.capacity = capacity
        self._entries: OrderedDict[RecordKey, Value] = OrderedDict()
        self._lock = Lock()

    def get(self, identity: tuple[str, int, int] | None, hand: int, perspective: str,
            compute: Callable[[], Value]) -> Value:
        """The value for this record, hand and perspective: cached, or computed now (errors are not
        kept; no identity: the record cannot be read, and the reader says why)."""
        if identity is None:
            return compute()
        key = (identity, hand, perspective)
        with self._lock:
            if key in self._entries:
                self._entries.move_to_end(key)
                return self._entries[key]
        value = compute()
        with self._lock:
            self._entries[key] = value
            while len(self._entries) > self.capacity:
                self._entries.popitem(last=False)
        return value

    def __len__(self) -> int:
        return len(self._entries)
