"""Shared helpers of the tests that run ``dehla`` as users do (real processes): its environment,
its command, a ``dehla ladder run`` with a match certainly in play, and the processes around it.

The stalled run uses a bot (``staller``) whose first copy to play a card tells the test through a
FIFO and then never answers: from that moment a match is certainly in play, its worker and bots
alive."""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

from arena.console.data import DATA_ENV
from ladder.execution.runners import RUNNER_ENV
from ladder.rating.ratings import RatingEnv
from ladder.store.paths import DATABASE_URL_ENV
from ladder.submission.submit import submit
from tests.database import database_env
from tests.ladder_helpers import add_random_bots, no_validation, store_at

FAST = ("--deals", "1", "--per-move", "0.05", "--runner", "local")


def clean_env(data: Path) -> dict[str, str]:
    """This environment without the arena's own variables (the tests pass ``--data``, ``--runner``),
    but for the test database of ``data`` when it is not SQLite's file in the folder."""
    own = (DATA_ENV, DATABASE_URL_ENV, RUNNER_ENV)
    return database_env(data, {k: v for k, v in os.environ.items() if k not in own})


def dehla(*args: str, data: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "arena", *args, "--data", str(data)], capture_output=True,
                          text=True, timeout=120, check=False, env=clean_env(data))


def bot_processes_under(root: Path) -> list[int]:
    """Processes whose working directory is inside ``root`` (bots run in their stored folder)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                cwd = Path(os.readlink(entry / "cwd"))
            except OSError:
                continue
            if cwd == root or root in cwd.parents:
                found.append(int(entry.name))
    return found


STALLER = '''
import os
import threading

from sample_bots.random.bot import RandomBot
from sdk.server import run


class Staller(RandomBot):
    """The first copy of this bot to play a card says so (its pid, through the test's FIFO),
    then never answers."""

    def play(self, view):
        fifo = os.environ["DEHLA_TEST_STALL"]
        try:
            os.close(os.open(fifo + ".taken", os.O_WRONLY | os.O_CREAT | os.O_EXCL))
        except FileExistsError:
            return super().play(view)
        with open(fifo, "w") as out:
            out.write(f"{os.getpid()}\\n")
        threading.Event().wait()


run(Staller())
'''

SLOW_CLOCK = ("--deals", "1", "--per-move", "30", "--runner", "local")
"""The staller must not time out while the test looks at it."""


def add_staller(root: Path) -> None:
    folder = root.parent / "sources" / "staller"
    folder.mkdir(parents=True)
    (folder / "bot.toml").write_text('name = "staller"\nversion = "1"\nauthor = "t"\ncommand = ["python", "bot.py"]\n')
    (folder / "bot.py").write_text(STALLER)
    store = store_at(root)
    try:
        submit(store, RatingEnv(), folder, "local", no_validation)
    finally:
        store.close()


@contextmanager
def stalled_run(tmp_path: Path, *goal: str, executor: tuple[str, ...] = ("--workers", "2"),
                run_env: Mapping[str, str] | None = None) -> Iterator[tuple[subprocess.Popen[bytes], int, Path]]:
    """A ``dehla ladder run`` with a match certainly in play: (the run, the stalled bot's pid, data).
    ``tmp_path/arena`` may hold its bots already, and ``tmp_path/stall`` be made; ``run_env`` is
    added to the run's environment."""
    data = tmp_path / "arena"
    if not data.exists():
        add_random_bots(data, ["r1"])
        add_staller(data)
    fifo = tmp_path / "stall"
    if not fifo.exists():
        os.mkfifo(fifo)
    env = {**clean_env(data), "DEHLA_TEST_STALL": str(fifo), **(run_env or {})}
    log = (tmp_path / "run.log").open("wb")
    run = subprocess.Popen([sys.executable, "-m", "arena", "ladder", "run", *goal, *executor, "--seed", "3",
                            *SLOW_CLOCK, "--data", str(data)], stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                           env=env, start_new_session=True)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    run_fd = os.pidfd_open(run.pid)
    try:
        text = b""
        deadline = time.monotonic() + 120
        while not text.endswith(b"\n"):
            ready, _, _ = select.select([reader, run_fd], [], [], max(0.0, deadline - time.monotonic()))
            assert ready, "no match reached the staller's first card in time"
            assert reader in ready, f"the run ended first: {(tmp_path / 'run.log').read_text()[-2000:]}"
            text += os.read(reader, 64)
        yield run, int(text), data
    finally:
        os.close(reader)
        os.close(run_fd)
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
        run.wait()
        log.close()


def wait_all_exit(pids: list[int], timeout: float) -> list[int]:
    """Wait (on pidfds, no polling) until every one of ``pids`` has exited; those still alive."""
    fds = {}
    for pid in pids:
        try:
            fds[pid] = os.pidfd_open(pid)
        except ProcessLookupError:  # already gone
            continue
    deadline = time.monotonic() + timeout
    try:
        while fds and time.monotonic() < deadline:
            ready, _, _ = select.select(list(fds.values()), [], [], deadline - time.monotonic())
            for pid in [pid for pid, fd in fds.items() if fd in ready]:
                os.close(fds.pop(pid))
        return list(fds)
    finally:
        for fd in fds.values():
            os.close(fd)


def descendants(root: int) -> dict[int, str]:
    """Every process below ``root`` (by parent pid), with its command line."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    found: dict[int, str] = {}
    frontier = [root]
    while frontier:
        parent = frontier.pop()
        for pid, ppid in parents.items():
            if ppid == parent and pid not in found:
                try:
                    found[pid] = (Path("/proc") / str(pid) / "cmdline").read_bytes().replace(b"\0", b" ").decode()
                except OSError:
                    continue
                frontier.append(pid)
    return found
