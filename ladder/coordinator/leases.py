"""Leases that expire: a coordinator takes a queued match, keeps it while it plays, and the
expired leases of coordinators that stopped renewing go back to the queue. A validating service
claims pending uploads the same way (``ladder/submission/intake.py``).

A lease is the match row itself: ``status = 'running'``, ``lease_owner``, ``lease_until`` and the
``attempt`` the lease bumped. Taking one is ``SELECT ... FOR UPDATE SKIP LOCKED`` on PostgreSQL
(several coordinators never wait for, nor take, the same row), then the ``UPDATE ... WHERE status
= 'queued'`` of ``ladder/coordinator/queue.py`` (all SQLite needs: it has one writer). The holder renews
``lease_until`` while the match plays; a renewal that finds a lease gone (swept, superseded) says
so, and the holder forgets that match. ``sweep`` puts every ``running`` match whose lease expired
back in the queue (failed after ``MAX_ATTEMPTS`` attempts); a result of an attempt that is no
longer the running one counts nothing (the attempt guard of ``ladder/coordinator/results.py``).

An upload's claim is ``lease_owner``/``lease_until`` on its ``pending`` row: a claim that expired
is free again, so the next claim takes it (that is its sweep), and a verdict is written only
while its writer holds the claim.

The clock is the database's on PostgreSQL, so coordinators on several hosts agree on when a lease
ends; SQLite's store is on this host, so this host's clock is its clock.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import func, or_, select, tuple_, update
from sqlalchemy.orm import Session

from ladder.coordinator.queue import MAX_ATTEMPTS, lease
from ladder.store.schema import Match, MatchStatus, Upload, UploadStatus, utcnow

DEFAULT_LEASE_SECONDS = 60.0
"""How long a lease lasts unless renewed: long enough that a busy coordinator never misses a
renewal (it renews every third of it), short enough that a dead one's matches wait a minute."""
RENEWALS_PER_LEASE = 3
MIN_LEASE_SECONDS = 1.0
MAX_LEASE_SECONDS = 86_400.0

Held = tuple[int, int]
"""A lease as its holder knows it: (match id, attempt)."""


@dataclass(frozen=True, slots=True)
class LeaseTerms:
    """How long a lease lasts (``dehla ladder run --lease-seconds``) and how often it is renewed."""

    seconds: float = DEFAULT_LEASE_SECONDS

    def __post_init__(self) -> None:
        if not MIN_LEASE_SECONDS <= self.seconds <= MAX_LEASE_SECONDS:
            raise ValueError(f"a lease lasts {MIN_LEASE_SECONDS:g} to {MAX_LEASE_SECONDS:g} s, not {self.seconds}")

    @property
    def renew_every(self) -> float:
        return self.seconds / RENEWALS_PER_LEASE

    def until(self, now: datetime) -> datetime:
        return now + timedelta(seconds=self.seconds)


@dataclass(frozen=True, slots=True)
class Swept:
    """What a sweep did: matches back in the queue, and matches failed (their last attempt)."""

    requeued: int = 0
    failed: int = 0


def store_now(session: Session) -> datetime:
    """The store's clock: PostgreSQL's ``clock_timestamp()``, or this host's for SQLite."""
    if session.get_bind().dialect.name == "postgresql":
        now = session.scalar(select(func.clock_timestamp()))
        assert isinstance(now, datetime)
        return now
    return utcnow()


def take(session: Session, owner: str, terms: LeaseTerms) -> Held | None:
    """Lease the oldest queued match no other coordinator is taking; None if there is none."""
    query = (select(Match.id).where(Match.status == MatchStatus.QUEUED).order_by(Match.id).limit(1)
             .with_for_update(skip_locked=True))
    match_id = session.scalar(query)
    if match_id is None:
        return None
    return take_match(session, match_id, owner, terms)


def take_match(session: Session, match_id: int, owner: str, terms: LeaseTerms) -> Held | None:
    """Lease one queued match (e.g. one this transaction just scheduled); None if it is taken."""
    attempt = lease(session, match_id, owner, until=terms.until(store_now(session)))
    return None if attempt is None else (match_id, attempt)


def renew(session: Session, owner: str, held: Collection[Held], terms: LeaseTerms) -> set[Held]:
    """Push the end of ``owner``'s leases ``held`` further out; the ones it still holds (a lease
    swept, or taken again by another attempt, is not among them)."""
    if not held:
        return set()
    kept = session.execute(
        update(Match)
        .where(Match.status == MatchStatus.RUNNING, Match.lease_owner == owner,
               tuple_(Match.id, Match.attempt).in_(list(held)))
        .values(lease_until=terms.until(store_now(session)))
        .returning(Match.id, Match.attempt)
    )
    return {(row.id, row.attempt) for row in kept}


def sweep(session: Session) -> Swept:
    """Put the running matches whose lease ended (or that never had an end: leased before leases
    expired) back in the queue; a match whose last allowed attempt expired fails instead."""
    now = store_now(session)
    expired = (Match.status == MatchStatus.RUNNING, or_(Match.lease_until.is_(None), Match.lease_until < now))
    failed = session.execute(
        update(Match).where(*expired, Match.attempt >= MAX_ATTEMPTS)
        .values(status=MatchStatus.FAILED, lease_owner=None, lease_until=None, finished_at=now,
                error=f"its lease expired on attempt {MAX_ATTEMPTS} of {MAX_ATTEMPTS} (the coordinator "
                      "playing it stopped renewing it: killed, or cut off from the store)")
    ).rowcount  # type: ignore[attr-defined]
    requeued = session.execute(
        update(Match).where(*expired).values(status=MatchStatus.QUEUED, lease_owner=None, lease_until=None)
    ).rowcount  # type: ignore[attr-defined]
    return Swept(int(requeued), int(failed))


# ----------------------------------------------------------------------------- uploads
def claim_upload(session: Session, owner: str, terms: LeaseTerms) -> int | None:
    """Claim the oldest pending upload that nobody holds (or whose claim expired) for ``owner``:
    one statement, so two validating services on one store never validate the same upload at once."""
    now = store_now(session)
    free = (Upload.status == UploadStatus.PENDING, or_(Upload.lease_until.is_(None), Upload.lease_until < now))
    oldest = (select(Upload.id).where(*free).order_by(Upload.id).limit(1).with_for_update(skip_locked=True)
              .scalar_subquery())
    claimed = session.scalar(update(Upload).where(Upload.id == oldest, *free)
                             .values(lease_owner=owner, lease_until=terms.until(now)).returning(Upload.id))
    return claimed


def renew_claims(session: Session, owner: str, held: Collection[int], terms: LeaseTerms) -> set[int]:
    """Push ``owner``'s claims on the pending uploads ``held`` further out; the ones it still holds."""
    if not held:
        return set()
    kept = session.scalars(update(Upload)
                           .where(Upload.id.in_(list(held)), Upload.status == UploadStatus.PENDING,
                                  Upload.lease_owner == owner)
                           .values(lease_until=terms.until(store_now(session))).returning(Upload.id))
    return set(kept)


def release_claim(session: Session, owner: str, upload_id: int) -> None:
    """Give a pending upload back (a service stopping before it began): free for the next claim."""
    session.execute(update(Upload).where(Upload.id == upload_id, Upload.lease_owner == owner)
                    .values(lease_owner=None, lease_until=None))


def holds_claim(session: Session, owner: str, upload_id: int) -> bool:
    """Whether ``owner`` still holds the upload's claim (locked until the transaction ends, so a
    verdict is written only by the holder)."""
    query = (select(Upload.id).where(Upload.id == upload_id, Upload.status == UploadStatus.PENDING,
                                     Upload.lease_owner == owner).with_for_update())
    return session.scalar(query) is not None
