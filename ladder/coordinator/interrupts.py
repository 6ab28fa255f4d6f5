"""Ctrl-C that never lands in the middle of a bookkeeping step.

The coordinator's steps that touch the store and the executor together (lease a match and
hand it to a worker; record a finished match and forget its future) must not be cut in two.
``DeferredInterrupt`` turns SIGINT into ``KeyboardInterrupt`` as usual, except inside a
``critical()`` block, where it is held and raised as the block ends.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType, TracebackType
from typing import Any


class DeferredInterrupt:
    """Install with ``with DeferredInterrupt() as guard:``; a no-op outside the main thread
    (only the main thread receives signals in Python)."""

    def __init__(self) -> None:
        self.depth = 0
        self.pending = False
        self._previous: Any = None
        self._installed = False

    def __enter__(self) -> DeferredInterrupt:
        if threading.current_thread() is threading.main_thread():
            self._previous = signal.signal(signal.SIGINT, self._handle)
            self._installed = True
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        if self._installed:
            signal.signal(signal.SIGINT, self._previous)
            self._installed = False

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        if self.depth:
            self.pending = True
            return
        raise KeyboardInterrupt

    @contextmanager
    def critical(self, *, reraise: bool = True) -> Iterator[None]:
        """Hold Ctrl-C until the block ends, then raise it (unless the block is already failing,
        or ``reraise`` is false: the caller reads ``pending`` itself)."""
        self.depth += 1
        try:
            yield
        finally:
            self.depth -= 1
        if reraise and not self.depth and self.pending:
            self.pending = False
            raise KeyboardInterrupt
