"""An author's uploads in flight: how many and how many bytes the service holds for them at once.

The hourly rate limit counts uploads once they are recorded; it never saw the bodies still
arriving, nor a body refused after it arrived. One author could thus keep a dozen 32 MB bodies
arriving at once (384 MiB on the service's disk) without spending a single upload of the hour.
So, per author, ``in_flight`` caps uploads that are arriving or waiting for their verdict, and
``staged_bytes`` caps their bytes (a body counts its declared length from its first byte).

What is counted where: uploads waiting for their verdict are ``pending`` rows of the store, so
that part holds across every service on one store; bodies still arriving are counted by the
service receiving them (``Receiving``), since a body belongs to one connection of one process
(a row per body would need a lease and its renewal, for a process that dies mid-body). With N
services an author may thus have up to N bodies arriving beyond what the store shows; the
reverse proxy's per-address connection limit (docs/deploy.md) bounds that further.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from sqlalchemy import func, select

from arena.bots.archive import size
from arena.engine.errors import ArenaError
from ladder.store.database import Store
from ladder.store.schema import Upload, UploadStatus

DEFAULT_IN_FLIGHT = 4
"""Uploads an author may have arriving or waiting for a verdict at once."""
DEFAULT_STAGED_BYTES = 64 * 1024 * 1024
"""Their bytes: two archives of the largest size (32 MB) at once."""
RETRY_AFTER = 30
"""Seconds a refused author is told to wait (a validation takes about that)."""


class InFlightError(ArenaError):
    """The author has too many uploads, or too many bytes, arriving or waiting for a verdict."""

    retry_after = RETRY_AFTER


@dataclass(frozen=True, slots=True)
class InFlight:
    """An author's uploads the service holds: arriving here, or waiting in the store."""

    uploads: int
    bytes: int


def pending_in_store(store: Store, author_id: int) -> InFlight:
    """The author's uploads waiting for their verdict, on every service of this store."""
    with store.reading() as session:
        count, total = session.execute(select(func.count(), func.coalesce(func.sum(Upload.size_bytes), 0))
                                       .where(Upload.author_id == author_id,
                                              Upload.status == UploadStatus.PENDING)).one()
    return InFlight(int(count), int(total))


@dataclass
class Receiving:
    """The bodies this service is receiving, by author: their declared lengths."""

    _lock: threading.Lock = field(default_factory=threading.Lock)
    _bodies: dict[int, list[int]] = field(default_factory=dict)

    def of(self, author_id: int) -> InFlight:
        with self._lock:
            bodies = self._bodies.get(author_id, [])
            return InFlight(len(bodies), sum(bodies))

    def admit(self, store: Store, author_id: int, declared: int, in_flight: int, staged_bytes: int) -> None:
        """Count a body about to arrive, or raise ``InFlightError`` (nothing counted then)."""
        pending = pending_in_store(store, author_id)
        with self._lock:
            bodies = self._bodies.setdefault(author_id, [])
            uploads, held = pending.uploads + len(bodies), pending.bytes + sum(bodies)
            if uploads + 1 > in_flight:
                raise InFlightError(f"{uploads} uploads of yours are arriving or waiting for validation (at most "
                                    f"{in_flight} at once): wait for their verdicts, then upload again")
            if held + declared > staged_bytes:
                raise InFlightError(f"your uploads arriving or waiting for validation hold {size(held)}; this one "
                                    f"would pass the {size(staged_bytes)} an author may have at once: wait for "
                                    f"their verdicts, then upload again")
            bodies.append(declared)

    def release(self, author_id: int, declared: int) -> None:
        """The body arrived (now a pending row, counted by the store) or was abandoned."""
        with self._lock:
            bodies = self._bodies.get(author_id, [])
            if declared in bodies:
                bodies.remove(declared)
            if not bodies:
                self._bodies.pop(author_id, None)
