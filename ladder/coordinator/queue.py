"""The match queue: scheduling into the store, leasing, requeueing, and building jobs.

A lease is an ``UPDATE ... WHERE status = 'queued'`` that bumps ``attempt``: only one coordinator
can win it, on SQLite or PostgreSQL alike (``ladder/coordinator/leases.py`` picks the row, gives the lease its
expiry, renews and sweeps). A match whose worker died goes back to ``queued``; a report carrying
an older attempt is stale and ignored.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from arena.contract.time_control import MoveRelease
from arena.engine.match import FormatKind, MatchFormat
from arena.sandbox.runner import RunnerKind
from ladder.execution.jobs import MatchJob, SeatBot
from ladder.execution.runners import DEFAULT_RUNNER, ladder_runner
from ladder.rating.ratings import RatingEnv
from ladder.rating.scheduler import Entry, Pairing
from ladder.store.archives import archive_of
from ladder.store.read_model import active_versions
from ladder.store.schema import Bot, BotVersion, Match, MatchStatus, Partnership, utcnow

NEVER_PLAYED = 1000
MAX_ATTEMPTS = 3


DEFAULT_DEALS = 16
"""Deals per ladder match (each played twice). Measured with ``bench/ladder.py``: 16-deal matches
reach the true order of six bots in 20.5-23 matches (medians of 8 seeds) against 53 for 8-deal ones,
and a sandboxed 16-deal match of the sample bots takes only 1.1-1.4x as long as an 8-deal one
(starting four bots dominates), so the ranking settles in about half the machine time."""

DEFAULT_BANK = 30.0
"""Seconds a seat may overrun its per-move time once in a ladder match (the referee's own default)."""

DEFAULT_FORMAT = MatchFormat(FormatKind.DUPLICATE, DEFAULT_DEALS)


@dataclass(frozen=True, slots=True)
class MatchSettings:
    """How ladder matches are played."""

    preset: str = "dehla-pakad"
    match_format: MatchFormat = DEFAULT_FORMAT
    runner: RunnerKind = DEFAULT_RUNNER
    per_move: float = 1.0
    bank: float = DEFAULT_BANK
    release: MoveRelease = MoveRelease.SLOT_END
    """When the referee releases each move: ``slot-end`` unless a caller (a test, a benchmark,
    ``dehla ladder run --release on-reply``) asks for speed over fairness."""
    live_folder: str | None = None
    """Where the workers publish each match's public table as it is played (``DATA/live``), when
    they run on this machine (the local pool); None: nowhere (a Dask cluster's workers send them to
    the coordinator instead: ``ladder.execution.live_relay``)."""

    def __post_init__(self) -> None:  # a caller may name them as text (``duplicate:16``, ``local``)
        object.__setattr__(self, "match_format", MatchFormat.of(self.match_format))
        object.__setattr__(self, "runner", ladder_runner(self.runner))
        object.__setattr__(self, "release", MoveRelease(self.release))


def entries(session: Session) -> list[Entry]:
    """Scheduler entries for the active versions; ``idle`` counts matches since each last played."""
    versions = active_versions(session)
    last: dict[int, int] = {}
    for column in Match.seat_columns():
        for version, match_id in session.execute(select(column, func.max(Match.id)).group_by(column)):
            last[version] = max(last.get(version, 0), match_id)
    top = session.scalar(select(func.max(Match.id))) or 0
    return [Entry(v.id, v.skill, v.matches, top - last[v.id] if v.id in last else NEVER_PLAYED)
            for v in versions]


def partnership(session: Session, env: RatingEnv, a: int, b: int) -> Partnership:
    """The pair's row, created on its first match. Two coordinators may schedule the same new pair
    at once (a shared store): the second insert fails on the pair's unique key, inside a savepoint,
    and the row the first one made is read instead."""
    low, high = min(a, b), max(a, b)
    query = select(Partnership).where(Partnership.low_id == low, Partnership.high_id == high)
    found = session.scalar(query)
    if found is not None:
        return found
    skill = env.new()
    created = Partnership(low_id=low, high_id=high, mu=skill.mu, sigma=skill.sigma, matches=0, wins=0, draws=0,
                          losses=0)
    try:
        with session.begin_nested():
            session.add(created)
    except IntegrityError:
        return session.scalars(query).one()
    return created


def enqueue(session: Session, env: RatingEnv, pairing: Pairing, seed: int, settings: MatchSettings) -> Match:
    # In key order: two coordinators making the same new pairs (each insert waits for the other's on
    # the unique key) never wait on each other in a cycle, which PostgreSQL ends as a deadlock.
    pairs = {team: (min(team), max(team)) for team in (pairing.team_a, pairing.team_b)}
    made = {pair: partnership(session, env, *pair) for pair in sorted(set(pairs.values()))}
    team_a, team_b = made[pairs[pairing.team_a]], made[pairs[pairing.team_b]]
    s0, s1, s2, s3 = pairing.seats
    match = Match(status=MatchStatus.QUEUED, seed=seed, preset=settings.preset,
                  match_format=settings.match_format, team_a_id=team_a.id, team_b_id=team_b.id,
                  seat0_id=s0, seat1_id=s1, seat2_id=s2, seat3_id=s3, attempt=0)
    session.add(match)
    session.flush()
    return match


def lease(session: Session, match_id: int, owner: str, until: datetime | None = None) -> int | None:
    """Take a queued match for ``owner`` (until ``until``: None, a lease that never expires by
    itself); the new attempt number, or None if someone else has it."""
    result = session.execute(
        update(Match)
        .where(Match.id == match_id, Match.status == MatchStatus.QUEUED)
        .values(status=MatchStatus.RUNNING, attempt=Match.attempt + 1, lease_owner=owner, lease_until=until,
                started_at=utcnow())
    )
    if result.rowcount != 1:  # type: ignore[attr-defined]
        return None
    return session.scalar(select(Match.attempt).where(Match.id == match_id))


def release(session: Session, match_id: int, attempt: int, error: str | None = None) -> MatchStatus | None:
    """Give a running match back to the queue (its worker died or was stopped), or mark it
    failed after ``MAX_ATTEMPTS`` leases; the new status, or None if the lease was stale."""
    status = MatchStatus.FAILED if error is not None and attempt >= MAX_ATTEMPTS else MatchStatus.QUEUED
    result = session.execute(
        update(Match)
        .where(Match.id == match_id, Match.status == MatchStatus.RUNNING, Match.attempt == attempt)
        .values(status=status, lease_owner=None, lease_until=None, error=error,
                finished_at=utcnow() if status is MatchStatus.FAILED else None)
    )
    return status if result.rowcount == 1 else None  # type: ignore[attr-defined]


def unlease(session: Session, match_id: int, attempt: int) -> bool:
    """Give back a lease whose match never started (its future was cancelled before a worker
    took it): queued again with that lease's attempt undone, so a Ctrl-C costs the match none of
    its ``MAX_ATTEMPTS``, and its next lease has the same number. Safe only because a job that
    never started can never report (``concurrent.futures`` never runs a cancelled future): no
    result of this lease can count for the next. False if the lease was stale."""
    result = session.execute(
        update(Match)
        .where(Match.id == match_id, Match.status == MatchStatus.RUNNING, Match.attempt == attempt)
        .values(status=MatchStatus.QUEUED, attempt=attempt - 1, lease_owner=None, lease_until=None)
    )
    return result.rowcount == 1  # type: ignore[attr-defined,no-any-return]


def requeue_abandoned(session: Session, owners: Sequence[str | None] | None = None) -> int:
    """Put running matches back in the queue: all of them (a coordinator starting on an SQLite
    store, where no other run can be alive), or those leased by ``owners``."""
    query = update(Match).where(Match.status == MatchStatus.RUNNING)
    if owners is not None:
        query = query.where(Match.lease_owner.in_([o for o in owners if o is not None]))
    result = session.execute(query.values(status=MatchStatus.QUEUED, lease_owner=None, lease_until=None))
    return int(result.rowcount)  # type: ignore[attr-defined]


def job_for(session: Session, match_id: int, attempt: int, settings: MatchSettings) -> MatchJob:
    """The match's job: each seat named by content hash (``ladder/store/archives.py``)."""
    match = session.get_one(Match, match_id)
    rows = {v.id: (v, name) for v, name in session.execute(
        select(BotVersion, Bot.name).join(Bot, Bot.id == BotVersion.bot_id).where(BotVersion.id.in_(match.seats)))}
    refs = {vid: archive_of(session, version) for vid, (version, _) in rows.items()}
    seats = tuple(SeatBot(vid, f"{rows[vid][1]}#{rows[vid][0].number}", refs[vid].content_hash,
                          refs[vid].archive_sha256) for vid in match.seats)
    assert len(seats) == 4
    return MatchJob(match_id=match.id, attempt=attempt, seed=match.seed, preset=match.preset,
                    match_format=match.match_format, seats=(seats[0], seats[1], seats[2], seats[3]),
                    runner=settings.runner, per_move=settings.per_move, bank=settings.bank,
                    release=settings.release, live_folder=settings.live_folder)
