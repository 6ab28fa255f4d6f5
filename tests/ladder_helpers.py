"""Shared helpers of the ladder tests: a store in tmp_path, bot folders, a fake match player."""

from __future__ import annotations

import random
from pathlib import Path

from arena.referee.launcher import BotCommand
from ladder.jobs import MatchJob, MatchReport, SeatFault
from ladder.paths import ArenaData
from ladder.ratings import RatingEnv
from ladder.store import Store
from ladder.submit import Submission, submit
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
