"""A cluster match's live state, from the Dask worker that plays it to the coordinator's data folder.

A worker's disk is not the server's, so a worker of ``dehla ladder run --cluster`` writes no live
file: its board's outlet (``WorkerOutlet``) sends each state as a Dask event on ``LIVE_TOPIC``
(``Worker.log_event``: through the scheduler, which keeps only the last
``distributed.admin.low-level-log-length`` events of a topic, to the clients subscribed to it).
The coordinator's ``LiveRelay`` receives them and writes ``DATA/live/mNNNNNN.live.json`` as a
worker of the local pool does, so ``dehla serve`` shows the table the same way.

What comes back is not trusted: a message must be a ``LiveMessage`` (no other keys, bounded), for
a match and attempt this coordinator has in play (``expect``; a late message of a match already
settled is dropped, so nothing recreates a removed file), and its state a ``LiveState`` of that
match; anything else is dropped and counted. The relay stamps ``updated`` with its own clock as it
writes (the heartbeat readers judge staleness by is the coordinator's, not a worker's clock).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from arena.referee.live_view import MAX_LIVE_BYTES, AtomicLiveFile, LiveState, live_path

LIVE_TOPIC = "dehla-live"
"""The Dask event topic every cluster match's live states travel on."""

MATCH_KEY = r"^m[0-9]{6,12}$"
"""A ladder match's key (``report_files.match_key``): the only name a relayed file gets."""


class LiveMessage(BaseModel):
    """One event on ``LIVE_TOPIC``: a match's whole live state (JSON), or None at its end."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    match: str = Field(pattern=MATCH_KEY)
    attempt: int = Field(ge=1, le=1000)
    state: str | None = Field(max_length=MAX_LIVE_BYTES)
    worker: str | None = Field(default=None, max_length=300, description="Added by the scheduler: who sent it.")


class WorkerOutlet:
    """A board's outlet on a Dask worker: each state sent to the coordinator as an event. Made in
    the task's thread (where ``get_worker`` knows its worker); ``log_event`` may then be called from
    any thread of it."""

    def __init__(self, match: str, attempt: int) -> None:
        from distributed import get_worker  # noqa: PLC0415 - only on a Dask worker

        self.match = match
        self.attempt = attempt
        self._worker = get_worker()

    def _send(self, state: str | None) -> None:
        self._worker.log_event(LIVE_TOPIC, {"match": self.match, "attempt": self.attempt, "state": state})

    def publish(self, text: str) -> None:
        self._send(text)

    def withdraw(self) -> None:
        self._send(None)


class LiveRelay:
    """The coordinator's end: writes the live file of each match it has in play on a cluster.
    ``receive`` runs on the Dask client's thread, ``expect``/``settled`` on the loop's: one lock."""

    def __init__(self, folder: Path, clock: Callable[[], float] = time.time) -> None:
        self.folder = folder
        self.clock = clock
        self.written = 0
        self.dropped = 0
        """Messages refused (malformed, another match's, a settled attempt's): the tests' count."""
        self._expected: dict[str, int] = {}
        self._lock = threading.Lock()

    def expect(self, match: str, attempt: int) -> None:
        """``match``'s ``attempt`` is in play: its states are written from now on."""
        with self._lock:
            self._expected[match] = attempt

    def settled(self, match: str) -> None:
        """The match's future is done (reported, lost, cancelled): its file goes, later states are dropped."""
        with self._lock:
            self._expected.pop(match, None)
            AtomicLiveFile(live_path(self.folder, match)).withdraw()

    def close(self) -> None:
        """The run ends: every file it wrote goes."""
        with self._lock:
            matches, self._expected = list(self._expected), {}
            for match in matches:
                AtomicLiveFile(live_path(self.folder, match)).withdraw()

    def receive(self, event: Any) -> None:
        """A Dask event, ``(scheduler time, message)``: written if it is a state of a match in play."""
        try:
            _, raw = event
            message = LiveMessage.model_validate(raw)
            state = None if message.state is None else LiveState.model_validate_json(message.state)
        except (TypeError, ValueError, ValidationError):
            self._drop()
            return
        with self._lock:
            if self._expected.get(message.match) != message.attempt:
                self.dropped += 1
                return
            file = AtomicLiveFile(live_path(self.folder, message.match))
            if state is None:
                file.withdraw()
                return
            if state.match_id != message.match:
                self.dropped += 1
                return
            try:
                file.publish(state.model_copy(update={"updated": self.clock()}).model_dump_json())
            except OSError:
                self.dropped += 1
                return
            self.written += 1

    def _drop(self) -> None:
        with self._lock:
            self.dropped += 1
