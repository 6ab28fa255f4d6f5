"""Two coordinators at once on one PostgreSQL store, with no retry of a transaction PostgreSQL ends
as a deadlock: how many of their runs die of one.

    pg_virtualenv -t -- .venv/bin/python bench/coordinator_conflicts.py [--rounds 20] [--bots 6]
        [--matches 30] [--tree OTHER_CHECKOUT]

Each round: a fresh database on the server libpq's ``PG*`` variables name (what ``pg_virtualenv``
exports), ``--bots`` bots, and two coordinator processes, each a real ``LadderRun`` (mixed
partnerships, so new partnerships keep being made) playing ``--matches`` instant matches (a
seeded coin, no bots started) through a thread pool of 2, with ``CONFLICT_TRIES = 1``: a
deadlock ends that coordinator. ``--tree`` runs another checkout's ladder (say, a worktree of
the commit before a fix). The last line printed is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

TREE_ENV = "BENCH_TREE"
sys.path.insert(0, os.environ.get(TREE_ENV) or str(Path(__file__).resolve().parents[1]))

from sqlalchemy import create_engine, make_url, text  # noqa: E402
from sqlalchemy.pool import NullPool  # noqa: E402

import ladder.store  # noqa: E402
from arena.contract.status import OutcomeStatus  # noqa: E402
from ladder.coordinator.loop import LadderRun, StopRule  # noqa: E402
from ladder.coordinator.queue import MatchSettings  # noqa: E402
from ladder.execution.jobs import MatchJob, MatchReport  # noqa: E402
from ladder.rating.ratings import RatingEnv  # noqa: E402
from ladder.rating.scheduler import Mode, Scheduler  # noqa: E402
from ladder.store.database import Store  # noqa: E402
from ladder.store.paths import ArenaData  # noqa: E402
from ladder.submission.submit import submit  # noqa: E402

SERVER = make_url("postgresql+psycopg:///postgres")


def coin_play(job: MatchJob) -> MatchReport:
    """An instant match: a seeded coin names the winner."""
    winner = random.Random(job.seed).randrange(2)
    return MatchReport(job.match_id, job.attempt, OutcomeStatus.DONE, winner, (1.0 - winner, float(winner)), 16)


def no_validation(*_: object) -> None:
    return None


def fresh_store(root: Path, name: str, bots: int) -> str:
    admin = create_engine(SERVER.set(database="postgres"), isolation_level="AUTOCOMMIT", poolclass=NullPool)
    with admin.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    admin.dispose()
    url = SERVER.set(database=name).render_as_string(hide_password=False)
    store = Store.open(ArenaData(root, url))
    for number in range(1, bots + 1):
        folder = root.parent / "sources" / f"b{number}"
        folder.mkdir(parents=True)
        (folder / "bot.toml").write_text(f'name = "b{number}"\nversion = "1"\nauthor = "bench"\n'
                                         'command = ["python", "bot.py"]\n')
        (folder / "bot.py").write_text("# never started: the matches are coin flips\n")
        submit(store, RatingEnv(), folder, "local", no_validation)
    store.close()
    return url


def coordinator(root: str, url: str, seed: int, matches: int, verdicts: Any) -> None:
    ladder.store.database.CONFLICT_TRIES = 1  # the point: no second try
    store = Store.open(ArenaData(Path(root), url))
    env = RatingEnv()
    run = LadderRun(store, env, Scheduler(env, Mode.MIXED, random.Random(seed)), MatchSettings(runner="local"),
                    lambda: ThreadPoolExecutor(2), workers=2, play=coin_play, rng=random.Random(seed))
    try:
        run.run(StopRule(matches=matches))
        verdicts.put("ok")
    except Exception as exc:
        deadlock = "DeadlockDetected" in f"{type(exc).__name__} {exc}"
        verdicts.put("deadlock" if deadlock else f"{type(exc).__name__}: {str(exc)[:200]}")
    finally:
        store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--bots", type=int, default=6)
    parser.add_argument("--matches", type=int, default=30)
    parser.add_argument("--tree", type=Path, default=None)
    args = parser.parse_args()
    if args.tree is not None:
        os.environ[TREE_ENV] = str(args.tree.resolve())  # the coordinators (spawned) import from it
    context = multiprocessing.get_context("spawn")
    outcomes: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        for round_number in range(args.rounds):
            root = Path(tmp) / f"round{round_number}" / "arena"
            root.mkdir(parents=True)
            url = fresh_store(root, f"bench_conflicts_{os.getpid()}_{round_number}", args.bots)
            verdicts = context.Queue()
            processes = [context.Process(target=coordinator, args=(str(root), url, seed, args.matches, verdicts))
                         for seed in (1, 2)]
            for process in processes:
                process.start()
            for process in processes:
                process.join()
            outcomes += [verdicts.get() if process.exitcode == 0 else f"exit {process.exitcode}"
                         for process in processes]
            print(f"round {round_number}: {outcomes[-2:]}", flush=True)
    print(json.dumps({"bench": "coordinator_conflicts", "tree": os.environ.get(TREE_ENV, "this checkout"),
                      "coordinator_runs": len(outcomes), "ok": outcomes.count("ok"),
                      "deadlocks": outcomes.count("deadlock"),
                      "other_errors": [o for o in outcomes if o not in ("ok", "deadlock")]}))


if __name__ == "__main__":
    main()
