"""The match job: plain, picklable data in, plain data out, run by any ``Executor``.

``play_match_job`` is a top-level function so a process pool or a cluster backend (Dask) can
ship it to a worker. A job needs nothing from the coordinator's disk and carries no secret: it
names each seat's version by content hash (``ladder/versions/version_cache.py`` resolves it on the
worker). The worker starts the four bots with the chosen runner, plays the match through the
referee into a private temporary folder, and reports what happened with the match's files as
bytes (``ladder/store/report_files.py``); it never touches the store.
"""

from __future__ import annotations

import asyncio
import os
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from arena.bots.manifest import load_manifest
from arena.console.data import DATA_ENV, env_path
from arena.contract.faults import FaultKind, FaultPolicy
from arena.contract.status import OutcomeStatus
from arena.contract.time_control import MoveRelease, TimeControl
from arena.engine.bidding_rules import game_rules_for
from arena.engine.match import MatchFormat
from arena.referee.launcher import BotCommand
from arena.referee.live_view import LiveOutlet
from arena.referee.scratch import ScratchKind, scratch_prefix
from arena.referee.table_values import MatchOutcome, TableConfig
from arena.sandbox.runner import RunnerKind
from ladder.execution.runners import DEFAULT_RUNNER, check_job_runner, ladder_runner, make_runner
from ladder.store.paths import DATABASE_URL_ENV
from ladder.store.report_files import ReportFile, collect, match_key
from ladder.versions.version_cache import ArchiveRef, Fetch, VersionCache, blob_folder, blob_source


@dataclass(frozen=True, slots=True)
class SeatBot:
    """A bot version as a worker needs it: its identity (content hash, and the sha256 of its
    archive, both checked before it runs) and a display name."""

    version: int
    name: str
    content_hash: str
    archive_sha256: str

    @property
    def ref(self) -> ArchiveRef:
        return ArchiveRef(self.content_hash, self.archive_sha256)


@dataclass(frozen=True, slots=True)
class MatchJob:
    match_id: int
    attempt: int
    seed: int
    preset: str
    match_format: MatchFormat
    seats: tuple[SeatBot, SeatBot, SeatBot, SeatBot]
    """Seat order: 0 and 2 are partnership A, 1 and 3 partnership B."""
    runner: RunnerKind = DEFAULT_RUNNER
    per_move: float = 1.0
    bank: float = 30.0
    release: MoveRelease = MoveRelease.SLOT_END
    """Rated play releases moves at the end of the mover's slot, so partners cannot pass cards
    through their reply times (issue 23, ``docs/ladder.md``)."""
    live_folder: str | None = None
    """A folder of the worker's machine for the match's live file (``arena.referee.live_view``):
    set only when the worker runs beside the coordinator and ``dehla serve`` (the local pool)."""

    def __post_init__(self) -> None:  # a job may come as plain data
        object.__setattr__(self, "match_format", MatchFormat.of(self.match_format))
        object.__setattr__(self, "runner", ladder_runner(self.runner))
        object.__setattr__(self, "release", MoveRelease(self.release))

    @property
    def key(self) -> str:
        return match_key(self.match_id)


@dataclass(frozen=True, slots=True)
class SeatFault:
    seat: int
    kind: FaultKind
    detail: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", FaultKind(self.kind))  # a report may come from a plain-data worker


@dataclass(frozen=True, slots=True)
class MatchReport:
    """What a worker reports: enough to rate the match, and its files (record, seat logs)."""

    match_id: int
    attempt: int
    status: OutcomeStatus
    winner_team: int | None
    score: tuple[float, float]
    hands: int
    forfeit_team: int | None = None
    faults: tuple[SeatFault, ...] = ()
    void_reason: str | None = None
    seconds: float = 0.0
    deal_scores: tuple[float, ...] = field(default=())
    files: tuple[ReportFile, ...] = ()
    """The match's record and seat logs as the referee wrote them (``ladder/store/report_files.py``)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "status", OutcomeStatus(self.status))  # a report may come from a plain-data worker


def report_from_outcome(job: MatchJob, outcome: MatchOutcome, seconds: float,
                        files: tuple[ReportFile, ...] = ()) -> MatchReport:
    return MatchReport(
        match_id=job.match_id, attempt=job.attempt, status=outcome.status, winner_team=outcome.winner_team,
        score=(outcome.score[0], outcome.score[1]), hands=len(outcome.hands), forfeit_team=outcome.forfeit_team,
        faults=tuple(SeatFault(f.seat, f.kind, f.detail) for f in outcome.faults),
        void_reason=outcome.void_reason, seconds=seconds,
        deal_scores=tuple(outcome.deal_scores), files=files,
    )


def table_config(job: MatchJob) -> TableConfig:
    return TableConfig(job.key, game_rules_for(job.preset), job.preset, job.match_format, job.seed,
                       TimeControl(per_move=job.per_move, bank=job.bank, release=job.release),
                       FaultPolicy.FORFEIT)


def seat_command(bot: SeatBot, folder: Path) -> BotCommand:
    manifest = load_manifest(folder)
    return BotCommand(bot.name, manifest.argv(), cwd=str(folder), resources=manifest.resources)


def environment_sources() -> list[Fetch]:
    """The sources this worker's environment configures, the blob folder first."""
    sources: list[Fetch] = []
    blobs = blob_folder()
    if blobs is not None:
        sources.append(blob_source(blobs))
    if os.environ.get(DATABASE_URL_ENV) or env_path(DATA_ENV) is not None:
        from ladder.store.archives import store_source  # noqa: PLC0415 - SQLAlchemy only when it is needed

        sources.append(store_source())
    return sources


def resolve_seats(job: MatchJob, cache: VersionCache | None = None) -> list[Path]:
    """Each seat's version folder, from this worker's cache (filled from its own sources):
    a version that fails a check raises ``VersionUnavailableError`` before any bot starts."""
    cache = cache or VersionCache()
    sources = environment_sources()
    return [cache.resolve(bot.ref, sources) for bot in job.seats]


def play_match_job(job: MatchJob, live_outlet: Callable[[str, int], LiveOutlet] | None = None) -> MatchReport:
    """Play one ladder match with real bot processes (top-level and picklable for executors).
    ``live_outlet``: makes, from the match's key and attempt, where its live states go instead of
    ``job.live_folder`` (a cluster worker's channel to the coordinator: ``ClusterExecutor`` passes it)."""
    from arena.referee.local import play_local_match  # noqa: PLC0415 - gRPC only in workers

    start = time.perf_counter()
    config = table_config(job)
    check_job_runner(job.runner)  # before any version is fetched or any bot starts
    commands = [seat_command(bot, folder) for bot, folder in zip(job.seats, resolve_seats(job), strict=True)]
    runner = make_runner(job.runner)
    a = (commands[0], commands[2])
    b = (commands[1], commands[3])
    with tempfile.TemporaryDirectory(prefix=scratch_prefix(ScratchKind.JOB, f"{job.key}.a{job.attempt}-")) as private:
        played = Path(private)
        live = Path(job.live_folder) if job.live_folder is not None else None
        outlet = live_outlet(job.key, job.attempt) if live_outlet is not None else None
        outcome = asyncio.run(play_local_match(a, b, config, played, runner=runner, live_folder=live,
                                               live_outlet=outlet))
        files = collect(played, job.match_id)
    return report_from_outcome(job, outcome, time.perf_counter() - start, files)
