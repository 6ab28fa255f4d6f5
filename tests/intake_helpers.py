"""Shared helpers of the intake tests (the uploads' queue, in process): a store with two authors,
an upload as the web endpoint records it, and a validator that records what it sees."""

from __future__ import annotations

import threading
from pathlib import Path

from arena.referee.launcher import BotCommand
from ladder.admin.authors import add_author
from ladder.store.database import Store
from ladder.submission.intake import Intake
from tests.ladder_helpers import open_store

SETTLE = 60.0
"""Seconds a test waits for the queue at most: a bound on failure, never a pause."""


def send(intake: Intake, author_id: int, archive: bytes) -> int:
    """What the web endpoint does with a received body."""
    with intake.staging() as (staged, file):
        file.write(archive)
        file.close()
        return intake.record(author_id, staged, len(archive)).id


def fresh(tmp_path: Path) -> tuple[Store, int, int]:
    store = open_store(tmp_path / "data")
    return store, add_author(store, "asha").author.id, add_author(store, "bela").author.id


class Recorder:
    """A validator that records which bots it validated, in order, and how many ran at once;
    with ``together`` it holds each until that many are inside (a barrier: they overlapped)."""

    def __init__(self, together: int = 1) -> None:
        self.lock = threading.Lock()
        self.order: list[str] = []
        self.active = 0
        self.peak = 0
        self.barrier = threading.Barrier(together, timeout=SETTLE)

    def __call__(self, command: BotCommand, records: Path, runner: str) -> None:
        with self.lock:
            self.order.append(command.name)
            self.active += 1
            self.peak = max(self.peak, self.active)
        try:
            self.barrier.wait()
        finally:
            with self.lock:
                self.active -= 1
