"""Shared helpers of the ladder tests: a store in tmp_path, bot folders, a fake match player, a
ladder run in process, and the store invariants every stop must leave."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable
from datetime import timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import select as query
from sqlalchemy import update

from arena.referee.launcher import BotCommand
from ladder.coordinator.leases import store_now
from ladder.coordinator.loop import LadderRun
from ladder.coordinator.queue import MatchSettings
from ladder.execution.executors import InlineExecutor
from ladder.execution.jobs import MatchJob, MatchReport, SeatFault
from ladder.rating.ratings import RatingEnv
from ladder.rating.scheduler import Mode, Scheduler
from ladder.store.database import Store
from ladder.store.paths import ArenaData
from ladder.store.schema import BotVersion, Match, MatchStatus, Partnership, RatingChange, Result
from ladder.submission.submit import Submission, submit
from tests.database import database_url


def open_store(root: Path) -> Store:
    return Store.open(ArenaData(root, database_url(root)))


def bot_folder(parent: Path, name: str, body: str = "") -> Path:
    folder = parent / name
    folder.mkdir(parents=True, exist_ok=True)
    manifest = f'name = "{name}"\nversion = "1.0"\nauthor = "t"\ncommand = ["python", "bot.py"]\n'
    (folder / "bot.toml").write_text(manifest)
    (folder / "bot.py").write_text(body or f"# {name}\n")
    return folder


def no_validation(command: BotCommand, records: Path, runner: str) -> None:
    return None


def add_bots(store: Store, names: list[str], parent: Path) -> list[Submission]:
    env = RatingEnv()
    return [submit(store, env, bot_folder(parent, name), "local", no_validation) for name in names]


def strength(name: str) -> float:
    """Bots named ``sN`` have strength N."""
    return float(name.split("#", maxsplit=1)[0].removeprefix("s"))


def fake_play(job: MatchJob) -> MatchReport:
    """A match without processes: the stronger partnership usually wins (seeded by the job)."""
    rng = random.Random(job.seed)
    a = strength(job.seats[0].name) + strength(job.seats[2].name)
    b = strength(job.seats[1].name) + strength(job.seats[3].name)
    diff = a - b + rng.gauss(0, 1.5)
    winner = None if abs(diff) < 0.2 else (0 if diff > 0 else 1)
    return MatchReport(job.match_id, job.attempt, "done", winner, (max(diff, 0), max(-diff, 0)), 16)


def forfeit_play(job: MatchJob) -> MatchReport:
    """Seat 1 (partnership B) crashes: B forfeits."""
    return MatchReport(job.match_id, job.attempt, "done", 0, (1.0, 0.0), 3, forfeit_team=1,
                       faults=(SeatFault(1, "crash", "boom"),))


def void_play(job: MatchJob) -> MatchReport:
    return MatchReport(job.match_id, job.attempt, "void", None, (0.0, 0.0), 0, void_reason="PlatformError: x")


def store_at(root: Path) -> Store:
    root = root.resolve()
    return Store.open(ArenaData(root, database_url(root)))


def add_random_bots(root: Path, names: list[str]) -> None:
    """Store a version of each named bot: the ``random`` sample bot under that name."""
    store = store_at(root)
    try:
        for name in names:
            folder = root.parent / "sources" / name
            folder.mkdir(parents=True)
            (folder / "bot.toml").write_text(f'name = "{name}"\nversion = "1"\nauthor = "t"\n'
                                             'command = ["python", "-m", "sample_bots.random"]\n')
            submit(store, RatingEnv(), folder, "local", no_validation)
    finally:
        store.close()


def check_store_is_consistent(root: Path) -> list[Match]:
    """No match half-counted: the invariants a Ctrl-C (or any stop) must leave. Returns the matches."""
    store = store_at(root)
    try:
        with store.reading() as session:
            matches = list(session.scalars(query(Match)))
            changes = list(session.scalars(query(RatingChange)))
            results = {r.match_id: r for r in session.scalars(query(Result))}
            versions = list(session.scalars(query(BotVersion)))
            units = list(session.scalars(query(Partnership)))
    finally:
        store.close()
    status = {m.id: m.status for m in matches}
    assert MatchStatus.RUNNING.value not in status.values(), status
    assert all(m.lease_owner is None for m in matches if m.status == MatchStatus.QUEUED.value)
    finished = {m.id for m in matches if m.status in (MatchStatus.DONE.value, MatchStatus.VOID.value)}
    assert set(results) == finished, (results, status)
    for match in matches:
        mine = [c for c in changes if c.match_id == match.id]
        if match.status != MatchStatus.DONE.value:
            assert mine == [], (match.id, match.status)
            continue
        # the self-partner rule: each version at the table once, and both partnerships
        assert sorted(c.version_id for c in mine if c.version_id is not None) == sorted(set(match.seats))
        assert sorted(c.partnership_id for c in mine if c.partnership_id is not None) == sorted(
            {match.team_a_id, match.team_b_id})
    assert all(status[c.match_id] == MatchStatus.DONE.value for c in changes)
    per_version = Counter(c.version_id for c in changes if c.version_id is not None)
    assert {v.id: v.matches for v in versions} == {v.id: per_version[v.id] for v in versions}
    per_unit = Counter(c.partnership_id for c in changes if c.partnership_id is not None)
    assert {p.id: p.matches for p in units} == {p.id: per_unit[p.id] for p in units}
    return matches


SETTINGS = MatchSettings(runner="local")


def make_run(store: Store, mode: Mode = Mode.SELF, seed: int = 1, play: Any = fake_play,
             factory: Any = InlineExecutor, workers: int = 1) -> LadderRun:
    env = RatingEnv()
    return LadderRun(store, env, Scheduler(env, mode, random.Random(seed)), SETTINGS, factory, workers=workers,
                     play=play, rng=random.Random(seed))


def running(data: Path) -> dict[int, Match]:
    store = store_at(data)
    try:
        with store.reading() as session:
            return {m.id: m for m in session.scalars(query(Match).where(Match.status == MatchStatus.RUNNING))}
    finally:
        store.close()


def run_out_leases(data: Path, ids: Iterable[int], owner: str | None) -> None:
    """The time a killed coordinator's leases had left runs out (it renews nothing any more),
    without waiting for the clock."""
    store = store_at(data)
    try:
        with store.transaction() as session:
            session.execute(update(Match).where(Match.id.in_(list(ids)), Match.lease_owner == owner)
                            .values(lease_until=store_now(session) - timedelta(seconds=1)))
    finally:
        store.close()
