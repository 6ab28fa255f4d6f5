"""Shared helpers of the web tests: a store filled by a real short ladder among sample bots, and
the service as ``dehla serve`` runs it (or as it ran before, under uvicorn alone)."""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import sys
import textwrap
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import uvicorn
from sqlalchemy import delete, select, text, update

from ladder.cli.serve_command import bound_socket
from ladder.store.database import Store
from ladder.store.match_files import read_stored, store_files
from ladder.store.paths import ArenaData
from ladder.store.report_files import ReportFile
from ladder.store.schema import Match, MatchFile
from ladder.submission.intake import IntakeSettings
from ladder.web.app import create_app
from ladder.web.seats.tables import SeatSettings
from tests.database import copy_database, database_env, database_url, keep_for_the_run, snapshot
from tests.parallel_run import RUN_FOLDER_ENV, run_folder

LADDER_MATCHES = 2
"""Two duplicate matches of one deal pair each: every page has rows, records and replays."""


def dehla(root: Path, *args: str) -> None:
    subprocess.run([sys.executable, "-m", "arena", *args], check=True, capture_output=True, timeout=600,
                   env=database_env(root))


def played_ladder(root: Path, preset: str = "dehla-pakad") -> ArenaData:
    """``root`` as the data folder of a real ladder: the random and heuristic sample bots
    submitted (validated by real matches) and ``LADDER_MATCHES`` rated matches played."""
    data = ["--data", str(root), "--runner", "local"]
    dehla(root, "submit", "--sample", "random", "--sample", "heuristic", *data)
    dehla(root, "ladder", "run", "--matches", str(LADDER_MATCHES), "--deals", "1", "--per-move", "0.5",
          "--preset", preset, *data)
    snapshot(root)
    return ArenaData(root, database_url(root))


SHARED_LADDER = "played-ladder"
"""The run's one played ladder, in the run's folder (``tests/parallel_run.py``) under xdist."""


def run_ladder(root: Path) -> ArenaData:
    """The played ladder at ``root``: under xdist, a copy of the one the run's first worker to
    ask for it built (about 10 CPU-s each, once per worker before); alone, built here. A copy,
    not the shared folder itself: ``dehla serve`` writes its address file into its folder."""
    if RUN_FOLDER_ENV not in os.environ:
        return played_ladder(root)
    shared = run_folder() / SHARED_LADDER
    with (run_folder() / f"{SHARED_LADDER}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (shared / "ready").exists():
            played_ladder(shared / "ladder")
            keep_for_the_run(shared / "ladder")
            (shared / "ready").touch()
    copy = copied_ladder(ArenaData(shared / "ladder", ""), root)
    snapshot(root)
    return copy


@contextmanager
def serving(root: Path, *options: str) -> Iterator[str]:
    """A real ``dehla serve`` process on a free loopback port over the data folder ``root`` (with
    more of its ``options``): its URL."""
    server = subprocess.Popen([sys.executable, "-m", "arena", "serve", "--port", "0", "--data", str(root), *options],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=database_env(root))
    assert server.stdout is not None
    try:
        line = server.stdout.readline()
        if not line.startswith("Dehla Arena is at "):
            server.kill()
            pytest.fail(f"dehla serve did not start: {line!r} {server.communicate(timeout=10)[1]}")
        yield line.split()[4]
    finally:
        server.terminate()
        server.wait(timeout=10)


@contextmanager
def serving_in_process(data: ArenaData, check_csrf: bool = True, seats: SeatSettings | None = None) -> Iterator[str]:
    """The application ``dehla serve`` runs (its uploads' queue off), in uvicorn on a thread of
    this process: real HTTP for a test whose subject is not the command (a ``dehla serve``
    process costs 1.2-1.4 CPU-s to start). The socket listens before the thread starts, so a
    request made at once waits in the backlog (no polling for readiness); its URL. ``seats``: the
    tables with a person (a seeded deal, say)."""
    listening = bound_socket("127.0.0.1", 0)
    app = create_app(data, IntakeSettings(concurrency=0), check_csrf=check_csrf, seats=seats)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listening]}, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{listening.getsockname()[1]}/"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        listening.close()


def copied_ladder(played: ArenaData, root: Path) -> ArenaData:
    """A copy of the played ladder's data folder at ``root``, for a test that changes it (the
    session's own stays as it is)."""
    shutil.copytree(played.root, root)
    return ArenaData(root, copy_database(played.root, root))


def match_file(data: ArenaData, match_id: int, name: str) -> bytes:
    """A stored file of a match (its record ``m000001.jsonl``, a seat's log)."""
    store = Store.open(data)
    try:
        with store.reading() as session:
            found = read_stored(session, match_id, name, 1 << 26)
    finally:
        store.close()
    assert found is not None, f"match {match_id} has no stored {name}"
    return found.content


def put_match_file(data: ArenaData, match_id: int, name: str, content: bytes) -> None:
    """Replace (or add) a stored file of a match, as someone with the store's credentials could."""
    store = Store.open(data)
    try:
        with store.transaction() as session:
            session.execute(delete(MatchFile).where(MatchFile.match_id == match_id, MatchFile.name == name))
            store_files(session, match_id, [ReportFile(name, content)])
    finally:
        store.close()


LEGACY_REVISION = "0009"
"""The last migration before a store's files were moved into it (0010)."""


def as_legacy_files(data: ArenaData) -> None:
    """The store as one made before matches' files were stored: each file under
    ``DATA/matches/``, ``record_path`` naming it there, no ``match_files`` rows, the store at the
    migration before 0010, which the next ``Store.open`` runs (moving the files in)."""
    store = Store.open(data)
    folder = data.root / "matches"
    folder.mkdir(exist_ok=True)
    try:
        with store.transaction() as session:
            for row in session.scalars(select(MatchFile)):
                found = read_stored(session, row.match_id, row.name, 1 << 26)
                assert found is not None
                (folder / row.name).write_bytes(found.content)
            session.execute(update(Match).where(Match.record_path.is_not(None))
                            .values(record_path="matches/" + Match.record_path))
            session.execute(delete(MatchFile))
            session.execute(text("UPDATE alembic_version SET version_num = :old"), {"old": LEGACY_REVISION})
    finally:
        store.close()


@contextmanager
def unguarded(root: Path) -> Iterator[str]:
    """The same application under uvicorn's own h11 protocol (how ``dehla serve`` ran before)."""
    script = textwrap.dedent("""
        import socket, sys, uvicorn
        from ladder.web.app import create_app
        from ladder.store.paths import ArenaData
        listening = socket.socket(); listening.bind(("127.0.0.1", 0)); listening.listen(128)
        print(f"http://127.0.0.1:{listening.getsockname()[1]}/", flush=True)
        app = create_app(ArenaData.locate(None))
        uvicorn.Server(uvicorn.Config(app, http="h11", log_level="warning")).run(sockets=[listening])
    """)
    server = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True,
                              env={**database_env(root), "DEHLA_DATA": str(root)})
    assert server.stdout is not None
    try:
        yield server.stdout.readline().strip()
    finally:
        server.terminate()
        server.wait(timeout=10)
