"""Replays already computed, kept by the record file's identity so a rewritten record is recomputed.

A finished match's record never changes, and computing a replay (every hand checked, every step
observed) costs tens of milliseconds; the key holds the file's size and modification time, so a
record rewritten in place (or repaired) is read again, never served stale.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from threading import Lock
from typing import Generic, TypeVar

Value = TypeVar("Value")

RecordKey = tuple[str, int, int, int, str]
"""(record file, its size, its modification time in ns, hand number, perspective)."""


class ReplayCache(Generic[Value]):
    """A small least-recently-used map of computed replays; safe to share between request threads."""

    def __init__(self, capacity: int = 256) -> None:
        self.capacity = capacity
        self._entries: OrderedDict[RecordKey, Value] = OrderedDict()
        self._lock = Lock()

    def get(self, path: Path, hand: int, perspective: str, compute: Callable[[], Value]) -> Value:
        """The value for this record, hand and perspective: cached, or computed now (errors are not kept)."""
        try:
            stat = path.stat()
        except OSError:
            return compute()  # the reader says why the record is missing
        key = (str(path), stat.st_size, stat.st_mtime_ns, hand, perspective)
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
