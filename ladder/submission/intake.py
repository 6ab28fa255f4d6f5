"""Uploads over HTTP: take an author's archive in, queue it, validate it as ``dehla submit`` does.

Receiving stores the archive as ``uploads/<id>.tar.gz`` and a ``pending`` ``Upload`` row (after
the author's hourly rate limit). A queue inside the service then takes pending uploads oldest
first, at most ``concurrency`` at a time, and for each: unpacks it safely into a fresh folder
(``arena.bots.archive``), runs the local ``submit()`` on that folder with the author as the
bot's owner (the same manifest checks, content hash and validation matches), and ends the row
``accepted`` (with its version) or ``rejected`` (with a one-line reason in the arena's words).
The bot's own output from a failed validation goes to ``uploads/<id>.log``, for its author only.
The queue is the table: a service restarted picks the pending rows up again. A service claims an
upload before validating it, with a lease it renews while it works (``ladder/coordinator/leases.py``), so
several services on one store never validate one upload at once; the claim of a service that
died expires and the upload is taken again; a verdict is written only by the claim's holder.
Another service's work never wakes this one's threads, so an idle worker and a long poll look
at the store again every ``STORE_RECHECK`` seconds.
"""

from __future__ import annotations

import logging
import math
import os
import re
import shutil
import tempfile
import threading
import time
import tomllib
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, BinaryIO

from sqlalchemy import select

from arena.bots.archive import DEFAULT_LIMITS, ArchiveError, ArchiveLimits, peek_file, unpack
from arena.bots.manifest import ManifestError, load_manifest
from arena.engine.errors import ArenaError
from arena.sandbox.runner import RunnerKind
from ladder.coordinator.leases import LeaseTerms, claim_upload, holds_claim, release_claim, renew_claims
from ladder.execution.runners import DEFAULT_RUNNER, RunnerUnavailable, check_runner, ladder_runner
from ladder.rating.ratings import RatingEnv
from ladder.store.database import Store
from ladder.store.ownership import NotYourBotError, check_owner
from ladder.store.paths import ArenaData
from ladder.store.schema import Bot, BotVersion, Upload, UploadStatus, utcnow
from ladder.submission.submit import SubmissionRejected, Validator, submit, validation_matches
from ladder.submission.upload_caps import DEFAULT_IN_FLIGHT, DEFAULT_STAGED_BYTES, Receiving
from ladder.versions.folders import FolderError

log = logging.getLogger(__name__)

DEFAULT_UPLOADS_PER_HOUR = 10
DEFAULT_CONCURRENCY = 1
WINDOW = timedelta(hours=1)
REASON_CHARS = 300
LONG_POLLS = 8
"""Status requests that may wait for a verdict at once (``GET /api/uploads/{id}?wait=``)."""
LISTED = 100
"""``GET /api/uploads``: an author's most recent uploads."""


@dataclass(frozen=True, slots=True)
class IntakeSettings:
    """How the service takes uploads (``dehla serve --runner --uploads-per-hour --validations``)."""

    runner: RunnerKind = DEFAULT_RUNNER
    uploads_per_hour: int = DEFAULT_UPLOADS_PER_HOUR
    concurrency: int = DEFAULT_CONCURRENCY
    limits: ArchiveLimits = DEFAULT_LIMITS
    claim: LeaseTerms = field(default_factory=LeaseTerms)
    """How long a claim on an upload lasts unless the service renews it (every third of it)."""
    in_flight: int = DEFAULT_IN_FLIGHT
    """An author's uploads arriving or waiting for a verdict at once (``ladder/submission/upload_caps.py``)."""
    staged_bytes: int = DEFAULT_STAGED_BYTES
    """Their bytes at once (a body counts its declared length)."""

    def __post_init__(self) -> None:  # a caller may name the runner as text
        object.__setattr__(self, "runner", ladder_runner(self.runner))


class RateLimitedError(ArenaError):
    """Too many uploads in the last hour; ``retry_after`` seconds until the next is allowed."""

    def __init__(self, per_hour: int, retry_after: int) -> None:
        super().__init__(f"at most {per_hour} uploads per hour; try again in {retry_after} s")
        self.retry_after = retry_after


class UploadsOffError(ArenaError):
    """This service takes no uploads (its runner cannot start bots here)."""


@dataclass(frozen=True, slots=True)
class UploadView:
    """An upload as its author sees it (never anyone else)."""

    id: int
    status: UploadStatus
    reason: str | None
    bot: str | None
    version: int | None
    label: str | None
    content_hash: str | None
    size_bytes: int
    created_at: datetime
    finished_at: datetime | None
    has_log: bool

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "status": self.status.value, "reason": self.reason, "bot": self.bot,
                "version": self.version, "label": self.label, "content_hash": self.content_hash,
                "size_bytes": self.size_bytes, "created_at": _iso(self.created_at),
                "finished_at": None if self.finished_at is None else _iso(self.finished_at),
                "has_log": self.has_log, "url": f"/api/uploads/{self.id}"}


def _iso(when: datetime) -> str:
    return _aware(when).isoformat(timespec="seconds")


def _aware(when: datetime) -> datetime:
    """SQLite hands times back without their zone; they are all UTC."""
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)


def uploads_folder(data: ArenaData) -> Path:
    return data.root / "uploads"


def archive_path(data: ArenaData, upload_id: int) -> Path:
    return uploads_folder(data) / f"{upload_id}.tar.gz"


def log_path(data: ArenaData, upload_id: int) -> Path:
    """The bot's own output from a rejected validation: its author's to read, nobody else's."""
    return uploads_folder(data) / f"{upload_id}.log"


def one_line(text: str, limit: int = REASON_CHARS) -> str:
    """A reason as one short line: control characters to spaces, runs of space collapsed."""
    flat = " ".join(re.sub(r"[\x00-\x1f\x7f-\x9f]", " ", text).split())
    return flat if len(flat) <= limit else flat[:limit - 3] + "..."


def check_rate(store: Store, author_id: int, per_hour: int, now: datetime | None = None) -> None:
    """Raise ``RateLimitedError`` if the author uploaded ``per_hour`` times in the last hour."""
    now = now or utcnow()
    with store.reading() as session:
        recent = list(session.scalars(select(Upload.created_at).where(Upload.author_id == author_id)
                                      .order_by(Upload.id.desc()).limit(per_hour)))
    if len(recent) < per_hour:
        return
    oldest = _aware(recent[-1])
    if now - oldest < WINDOW:
        raise RateLimitedError(per_hour, max(1, math.ceil((oldest + WINDOW - now).total_seconds())))


def _view(session: Any, row: Upload, data: ArenaData) -> UploadView:
    version = session.get(BotVersion, row.version_id) if row.version_id is not None else None
    return UploadView(row.id, row.status, row.reason, row.bot_name, version.number if version else None,
                      version.label if version else None, row.content_hash, row.size_bytes, row.created_at,
                      row.finished_at, log_path(data, row.id).exists())


def upload_of(store: Store, upload_id: int, author_id: int) -> UploadView | None:
    """The upload if ``author_id`` made it; ``None`` otherwise (whether it exists is not said)."""
    with store.reading() as session:
        row = session.get(Upload, upload_id)
        if row is None or row.author_id != author_id:
            return None
        return _view(session, row, store.data)


def uploads_of(store: Store, author_id: int, limit: int = LISTED) -> list[UploadView]:
    with store.reading() as session:
        rows = session.scalars(select(Upload).where(Upload.author_id == author_id)
                               .order_by(Upload.id.desc()).limit(limit))
        return [_view(session, row, store.data) for row in rows]


def upload_log(store: Store, upload_id: int, author_id: int) -> str | None:
    """The bot's output from the upload's failed validation, for its author; ``None`` if there is
    none or the upload is someone else's."""
    if upload_of(store, upload_id, author_id) is None:
        return None
    try:
        return log_path(store.data, upload_id).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None


STORE_RECHECK = 1.0
"""Seconds an idle worker, a long poll or ``wait_until_idle`` goes without reading the store again:
a service on the same store receives, validates and abandons uploads without waking this one
(an upload received there, a verdict written there, a dead service's expired claim)."""


@dataclass
class Intake:
    """The service's uploads: receiving them and the queue that validates them."""

    store: Store
    settings: IntakeSettings = field(default_factory=IntakeSettings)
    validate: Validator = validation_matches
    env: RatingEnv = field(default_factory=RatingEnv)
    unavailable: str | None = None
    """Why this service takes no uploads (``None``: it does)."""
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _wake: threading.Condition = field(init=False)
    _claimed: set[int] = field(default_factory=set)
    _stopping: bool = False
    _workers: list[threading.Thread] = field(default_factory=list)
    _names: dict[str, threading.Lock] = field(default_factory=dict)
    _pollers: threading.BoundedSemaphore = field(default_factory=lambda: threading.BoundedSemaphore(LONG_POLLS))
    owner: str = field(default_factory=lambda: f"intake-{uuid.uuid4().hex[:12]}")
    """This service's name on the claims it holds."""
    _stop_renewing: threading.Event = field(default_factory=threading.Event)
    _receiving: Receiving = field(default_factory=Receiving)

    def __post_init__(self) -> None:
        self._wake = threading.Condition(self._lock)

    # -- receiving ----------------------------------------------------------------------------

    def check_open(self, author_id: int) -> None:
        """Before reading a body: refuse at once if uploads are off or the author is over the rate."""
        if self.unavailable is not None:
            raise UploadsOffError(self.unavailable)
        check_rate(self.store, author_id, self.settings.uploads_per_hour)

    def admit(self, author_id: int, declared: int) -> None:
        """Count a body of ``declared`` bytes about to arrive against the author's caps on uploads
        in flight (``InFlightError`` at once when over them, before a byte is read); ``release``
        it once it is recorded or abandoned."""
        settings = self.settings
        self._receiving.admit(self.store, author_id, declared, settings.in_flight, settings.staged_bytes)

    def release(self, author_id: int, declared: int) -> None:
        self._receiving.release(author_id, declared)

    @contextmanager
    def staging(self) -> Iterator[tuple[Path, BinaryIO]]:
        """A new file to receive an upload's body into; removed unless ``record`` took it."""
        folder = uploads_folder(self.store.data)
        folder.mkdir(parents=True, exist_ok=True)
        fd, name = tempfile.mkstemp(prefix=".incoming-", suffix=".tar.gz", dir=folder)
        path = Path(name)
        try:
            with os.fdopen(fd, "wb") as file:
                yield path, file
        finally:
            path.unlink(missing_ok=True)

    def check_name(self, author_id: int, staged: Path) -> None:
        """Refuse at once (``NotYourBotError``, nothing stored) an upload whose ``bot.toml`` names a
        bot the author may not add to; an archive this cannot read is left to the queue, which
        checks the owner again in any case."""
        with staged.open("rb") as source:
            raw = peek_file(source, "bot.toml")
        try:
            name = tomllib.loads(raw.decode("utf-8"))["name"] if raw is not None else None
        except (UnicodeDecodeError, tomllib.TOMLDecodeError, KeyError, TypeError):
            return
        if isinstance(name, str):
            with self.store.reading() as session:
                check_owner(session, name, author_id)

    def record(self, author_id: int, staged: Path, size: int) -> UploadView:
        """Make the received file a pending upload (the rate checked again, under the lock, so two
        uploads at once cannot both take the last place) and wake the queue. An upload for a bot
        that is not the author's is refused here, before it is stored (``check_name``)."""
        self.check_name(author_id, staged)
        with self._wake:
            check_rate(self.store, author_id, self.settings.uploads_per_hour)
            with self.store.transaction() as session:
                row = Upload(author_id=author_id, status=UploadStatus.PENDING, size_bytes=size)
                session.add(row)
                session.flush()
                staged.rename(archive_path(self.store.data, row.id))
                view = _view(session, row, self.store.data)
            self._wake.notify()
        return view

    # -- the queue ----------------------------------------------------------------------------

    def start(self) -> None:
        """Start the workers (``concurrency`` threads), unless this service takes no uploads."""
        if self.unavailable is None:
            try:
                check_runner(self.settings.runner)
            except RunnerUnavailable as exc:
                self.unavailable = f"uploads are off on this server: {exc}"
        if self.unavailable is not None:
            log.warning("%s", self.unavailable)
            return
        for number in range(self.settings.concurrency):
            worker = threading.Thread(target=self._work, name=f"intake-{number}", daemon=True)
            worker.start()
            self._workers.append(worker)
        if self.settings.concurrency:
            renewer = threading.Thread(target=self._renew, name="claims-renewal", daemon=True)
            renewer.start()
            self._workers.append(renewer)

    def stop(self, timeout: float = 5.0) -> None:
        """Ask the workers to stop after the upload each is validating (which stays pending if
        they do not finish in time, and is validated again after a restart)."""
        with self._wake:
            self._stopping = True
            self._wake.notify_all()
        self._stop_renewing.set()
        for worker in self._workers:
            worker.join(timeout)

    def wait_for(self, upload_id: int, timeout: float) -> None:
        """Return once the upload is no longer pending, or after ``timeout`` seconds (a long poll).
        At most ``LONG_POLLS`` wait at once (each holds one of the service's threads); beyond
        that a request returns at once and its client polls again."""
        if not self._pollers.acquire(blocking=False):
            return
        try:
            self._wait_until(lambda: not self._is_pending(upload_id), timeout)
        finally:
            self._pollers.release()

    def wait_until_idle(self, timeout: float) -> bool:
        """Whether every upload was validated within ``timeout`` seconds (none pending or running)."""
        return self._wait_until(lambda: not self._claimed and self._next_pending() is None, timeout)

    def _wait_until(self, done: Callable[[], bool], timeout: float) -> bool:
        """Whether ``done`` held within ``timeout`` seconds: checked when this service's workers
        say something changed, and every ``STORE_RECHECK`` seconds for what other services did."""
        deadline = time.monotonic() + timeout
        with self._wake:
            while not done():
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._wake.wait(min(left, STORE_RECHECK))
            return True

    def _is_pending(self, upload_id: int) -> bool:
        with self.store.reading() as session:
            return session.scalar(select(Upload.status).where(Upload.id == upload_id)) is UploadStatus.PENDING

    def _work(self) -> None:
        while True:
            with self._wake:
                upload_id = self._claim()
                while upload_id is None and not self._stopping:
                    self._wake.wait(STORE_RECHECK)
                    upload_id = self._claim()
                if self._stopping or upload_id is None:
                    if upload_id is not None:
                        self._claimed.discard(upload_id)
                        with self.store.transaction() as session:
                            release_claim(session, self.owner, upload_id)
                    return
            try:
                self.process(upload_id)
            finally:
                with self._wake:
                    self._claimed.discard(upload_id)
                    self._wake.notify_all()  # long polls and ``wait_until_idle``

    def _claim(self) -> int | None:
        """Claim the oldest pending upload nobody holds (the caller holds the lock)."""
        with self.store.transaction() as session:
            found = claim_upload(session, self.owner, self.settings.claim)
        if found is not None:
            self._claimed.add(found)
        return found

    def _renew(self) -> None:
        """Renew this service's claims on time while its workers validate (their threads are busy)."""
        while not self._stop_renewing.wait(self.settings.claim.renew_every):
            with self._wake:
                held = set(self._claimed)
            if not held:
                continue
            try:
                with self.store.transaction() as session:
                    kept = renew_claims(session, self.owner, held, self.settings.claim)
            except Exception:
                log.exception("renewing the claims on uploads %s", sorted(held))
                continue
            with self._wake:
                self._claimed -= held - kept  # renewed no more; ``_finish`` drops their verdicts
            for lost in sorted(held - kept):
                log.warning("upload %d: this service's claim on it ended (it was slower than its claim); "
                            "its verdict will not be written here", lost)

    def _next_pending(self) -> int | None:
        with self.store.reading() as session:
            query = select(Upload.id).where(Upload.status == UploadStatus.PENDING)
            return session.scalar(query.order_by(Upload.id).limit(1))

    # -- one upload ---------------------------------------------------------------------------

    def process(self, upload_id: int) -> None:
        """Validate one pending upload and end it accepted or rejected."""
        data = self.store.data
        with self.store.reading() as session:
            row = session.get(Upload, upload_id)
            if row is None or row.status is not UploadStatus.PENDING or row.lease_owner != self.owner:
                return
            author_id = row.author_id
        work = uploads_folder(data) / "work"
        workspace = work / f"{upload_id}.{self.owner}"
        for leftover in work.glob(f"{upload_id}.*"):  # of earlier claims, which ended: their verdicts never count
            shutil.rmtree(leftover, ignore_errors=True)
        workspace.mkdir(parents=True)
        try:
            self._validate(upload_id, author_id, workspace / "bot")
        except (ArchiveError, ArenaError, OSError) as exc:
            if isinstance(exc, SubmissionRejected) and exc.log_tail.strip():
                log_path(data, upload_id).write_text(exc.log_tail, encoding="utf-8")
            self._finish(upload_id, UploadStatus.REJECTED, reason=self._reason(exc, workspace))
        except Exception:
            log.exception("upload %d: unexpected error while validating it", upload_id)
            self._finish(upload_id, UploadStatus.REJECTED,
                         reason="the server failed while validating this upload (its operator's log says why); "
                                "upload it again")
        finally:
            shutil.rmtree(workspace, ignore_errors=True)

    def _validate(self, upload_id: int, author_id: int, folder: Path) -> None:
        archive = archive_path(self.store.data, upload_id)
        try:
            source = archive.open("rb")
        except FileNotFoundError:
            raise ArchiveError(None, "the uploaded file is missing (the upload was interrupted); upload it "
                                     "again") from None
        with source:
            unpack(source, folder, self.settings.limits)
        name = load_manifest(folder).name
        with self.store.transaction() as session:
            row = session.get(Upload, upload_id)
            assert row is not None
            row.bot_name = name
        with self._name_lock(name):  # the same bot's uploads one at a time: one version per content
            result = submit(self.store, self.env, folder, self.settings.runner, self.validate, owner=author_id)
        self._finish(upload_id, UploadStatus.ACCEPTED, version_id=result.version_id,
                     content_hash=result.content_hash)

    @contextmanager
    def _name_lock(self, name: str) -> Iterator[None]:
        with self._lock:
            lock = self._names.setdefault(name, threading.Lock())
        with lock:
            yield

    @staticmethod
    def _reason(exc: BaseException, workspace: Path) -> str:
        """The refusal in the arena's words, one line, with our own paths taken out."""
        text = str(exc).replace(f"{workspace / 'bot'}/", "").replace(str(workspace / "bot"), "the upload")
        if isinstance(exc, NotYourBotError | ManifestError | ArchiveError | FolderError | SubmissionRejected):
            return one_line(text)
        if isinstance(exc, OSError):
            return one_line(f"the server could not store the upload ({exc.strerror or type(exc).__name__})")
        return one_line(text)

    def _finish(self, upload_id: int, status: UploadStatus, reason: str | None = None,
                version_id: int | None = None, content_hash: str | None = None) -> None:
        with self.store.transaction() as session:
            if not holds_claim(session, self.owner, upload_id):
                log.warning("upload %d: its claim ended before its verdict; another claim validates it", upload_id)
                return
            row = session.get_one(Upload, upload_id)
            row.lease_owner = None
            row.lease_until = None
            row.status = status
            row.reason = reason
            row.version_id = version_id
            row.content_hash = content_hash
            row.finished_at = utcnow()
            if version_id is not None and row.bot_name is None:
                row.bot_name = session.scalar(select(Bot.name).join(BotVersion, BotVersion.bot_id == Bot.id)
                                              .where(BotVersion.id == version_id))
