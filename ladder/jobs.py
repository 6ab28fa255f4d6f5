"""The match job: plain, picklable data in, plain data out, run by any ``Executor``.

``play_match_job`` is a top-level function so a process pool (today) or a cluster backend
(later: Dask) can ship it to a worker. It starts the four bots with the chosen runner, plays
the match through the referee into a folder of its own attempt, and reports what happened; it
never touches the store nor the counted records (``ladder/records.py``).
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from pathlib import Path

from arena.bots.manifest import load_manifest
from arena.contract.faults import FaultKind, FaultPolicy
from arena.contract.status import OutcomeStatus
from arena.contract.time_control import TimeControl
from arena.engine.match import MatchFormat
from arena.engine.rules import rules_for
from arena.referee.launcher import BotCommand
from arena.referee.table import MatchOutcome, TableConfig
from ladder.records import attempt_folder
from ladder.runners import make_runner


@dataclass(frozen=True, slots=True)
class SeatBot:
    """A bot version as a worker needs it: its stored folder (with ``bot.toml``) and a display name."""

    version: int
    name: str
    folder: str


@dataclass(frozen=True, slots=True)
class MatchJob:
    match_id: int
    attempt: int
    seed: int
    preset: str
    match_format: str
    seats: tuple[SeatBot, SeatBot, SeatBot, SeatBot]
    """Seat order: 0 and 2 are partnership A, 1 and 3 partnership B."""
    records: str
    runner: str = "local"
    per_move: float = 1.0
    bank: float = 30.0

    @property
    def key(self) -> str:
        return f"m{self.match_id:06d}"


@dataclass(frozen=True, slots=True)
class SeatFault:
    seat: int
    kind: FaultKind
    detail: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", FaultKind(self.kind))  # a report may come from a plain-data worker


@dataclass(frozen=True, slots=True)
class MatchReport:
    """What a worker reports: enough to rate the match and to find its record."""

    match_id: int
    attempt: int
    status: OutcomeStatus
    winner_team: int | None
    score: tuple[float, float]
    hands: int
    forfeit_team: int | None = None
    faults: tuple[SeatFault, ...] = ()
    void_reason: str | None = None
    record: str | None = None
    """Where the record is once this attempt is counted (``matches/m000042.jsonl``)."""
    seconds: float = 0.0
    deal_scores: tuple[float, ...] = field(default=())
    staged: str | None = None
    """This attempt's own folder holding the record and logs until then (``ladder/records.py``)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "status", OutcomeStatus(self.status))  # a report may come from a plain-data worker


def report_from_outcome(job: MatchJob, outcome: MatchOutcome, record: str | None, seconds: float,
                        staged: str | None = None) -> MatchReport:
    return MatchReport(
        match_id=job.match_id, attempt=job.attempt, status=outcome.status, winner_team=outcome.winner_team,
        score=(outcome.score[0], outcome.score[1]), hands=len(outcome.hands), forfeit_team=outcome.forfeit_team,
        faults=tuple(SeatFault(f.seat, f.kind, f.detail) for f in outcome.faults),
        void_reason=outcome.void_reason, record=record, seconds=seconds,
        deal_scores=tuple(outcome.deal_scores), staged=staged,
    )


def table_config(job: MatchJob) -> TableConfig:
    return TableConfig(job.key, rules_for(job.preset), job.preset, MatchFormat.parse(job.match_format), job.seed,
                       TimeControl(per_move=job.per_move, bank=job.bank), FaultPolicy.FORFEIT)


def seat_command(bot: SeatBot) -> BotCommand:
    manifest = load_manifest(Path(bot.folder))
    return BotCommand(bot.name, manifest.argv(), cwd=bot.folder, resources=manifest.resources)


def play_match_job(job: MatchJob) -> MatchReport:
    """Play one ladder match with real bot processes (top-level and picklable for executors)."""
    from arena.referee.local import play_local_match  # noqa: PLC0415 - gRPC only in workers

    start = time.perf_counter()
    config = table_config(job)
    records = Path(job.records)
    staged = attempt_folder(records, job.key, job.attempt)
    commands = [seat_command(bot) for bot in job.seats]
    runner = make_runner(job.runner)
    a = (commands[0], commands[2])
    b = (commands[1], commands[3])
    if runner is None:
        outcome = asyncio.run(play_local_match(a, b, config, staged))
    else:
        outcome = asyncio.run(play_local_match(a, b, config, staged, None, runner))  # type: ignore[call-arg,unused-ignore]
    record = str(records / f"{job.key}.jsonl")
    return report_from_outcome(job, outcome, record, time.perf_counter() - start, str(staged))
