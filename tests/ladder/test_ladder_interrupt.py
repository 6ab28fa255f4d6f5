"""``dehla ladder run`` as users run it (real processes): Ctrl-C mid-run, and ``--mode mixed``.

The bots are copies of the ``random`` sample bot under different names, stored directly (no
validation matches: they only slow the test down), played with the local runner, one duplicate
deal per match and a short clock.
"""

from __future__ import annotations

import json
import os
import pty
import re
import select
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest
from sqlalchemy import select as query

from arena.console.data import DATA_ENV
from ladder.paths import DATABASE_URL_ENV, ArenaData
from ladder.ratings import RatingEnv
from ladder.runners import RUNNER_ENV
from ladder.schema import BotVersion, Match, MatchStatus, Partnership, RatingChange, Result
from ladder.store import Store
from ladder.submit import submit
from tests.database import database_env, database_url
from tests.ladder_helpers import no_validation

FAST = ("--deals", "1", "--per-move", "0.05", "--runner", "local")
ANSI = re.compile(rb"\x1b\[[0-9;?]*[A-Za-z]")
COUNTED = re.compile(rb"\b([1-9]\d*)/(?:\?|\d+)")
"""The progress bar's ``counted/total`` column (``?`` for ``--forever``), once a match is counted."""


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


def clean_env(data: Path) -> dict[str, str]:
    """This environment without the arena's own variables (the tests pass ``--data``, ``--runner``),
    but for the test database of ``data`` when it is not SQLite's file in the folder."""
    own = (DATA_ENV, DATABASE_URL_ENV, RUNNER_ENV)
    return database_env(data, {k: v for k, v in os.environ.items() if k not in own})


def dehla(*args: str, data: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "arena", *args, "--data", str(data)], capture_output=True,
                          text=True, timeout=120, check=False, env=clean_env(data))


def read_until(fd: int, pattern: re.Pattern[bytes], times: int, deadline: float) -> bytes:
    """Read ``fd`` (a pty) until its text, without terminal escapes, matches ``pattern`` ``times`` times."""
    seen = b""
    while len(pattern.findall(ANSI.sub(b"", seen))) < times:
        remaining = deadline - time.monotonic()
        assert remaining > 0, f"timed out waiting for {pattern.pattern!r}; got {ANSI.sub(b'', seen)[-500:]!r}"
        ready, _, _ = select.select([fd], [], [], remaining)
        if ready:
            chunk = os.read(fd, 65536)
            assert chunk, f"the output ended before {pattern.pattern!r}: {ANSI.sub(b'', seen)[-500:]!r}"
            seen += chunk
    return seen


def read_to_end(fd: int, deadline: float) -> bytes:
    """Everything ``fd`` (a pty's controller side) still gives until the process closes it."""
    rest = b""
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], deadline - time.monotonic())
        if not ready:
            break
        try:
            chunk = os.read(fd, 65536)
        except OSError:  # EIO: every process holding the terminal side has exited
            break
        if not chunk:
            break
        rest += chunk
    return rest


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


@pytest.mark.parametrize("ctrl_c", ["terminal", "coordinator"])
def test_ctrl_c_stops_the_run_and_leaves_no_match_half_counted(tmp_path: Path, ctrl_c: str) -> None:
    """``terminal``: SIGINT to the run's process group, as Ctrl-C in a terminal sends it (the
    coordinator and its workers; bots run in their own sessions). ``coordinator``: to the
    coordinator alone (``kill -INT PID``), whose workers finish the match they are playing.

    Two workers (one may be idle when the signal comes), ``--forever`` for the terminal's
    Ctrl-C (exit 0: its normal end) and ``--matches 1000`` for the coordinator's (exit 130)."""
    data = tmp_path / "arena"
    add_random_bots(data, ["r1", "r2", "r3"])
    # stderr on a terminal, so the progress bar is live and shows the counted matches
    controller, terminal = pty.openpty()
    try:
        goal = ["--forever"] if ctrl_c == "terminal" else ["--matches", "1000"]
        run = subprocess.Popen([sys.executable, "-m", "arena", "ladder", "run", *goal, "--workers", "2",
                                "--seed", "7", *FAST, "--data", str(data)],
                               stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=terminal, env=clean_env(data),
                               start_new_session=True)
        os.close(terminal)
        try:
            # the bar is redrawn ten times a second: three frames showing a counted match, and the
            # coordinator has handed the next match to the worker and waits for it
            progress = read_until(controller, COUNTED, 3, time.monotonic() + 60)
            if ctrl_c == "terminal":
                os.killpg(run.pid, signal.SIGINT)
            else:
                run.send_signal(signal.SIGINT)
            progress += read_to_end(controller, time.monotonic() + 30)
            code = run.wait(timeout=30)
            ranking = run.stdout.read().decode() if run.stdout else ""
        finally:
            if run.poll() is None:
                os.killpg(run.pid, signal.SIGKILL)
                run.wait()
            if run.stdout:
                run.stdout.close()
    finally:
        os.close(controller)
    text = ANSI.sub(b"", progress).decode(errors="replace").replace("\r\n", "\n")
    # Ctrl-C is how --forever stops: a normal end; a run stopped short of --matches says so
    assert code == (0 if ctrl_c == "terminal" else 130), text
    summary = re.search(r"interrupted; (\d+) matches counted \((\d+) void\), (\d+) back in the queue, 0 failed",
                        text)
    assert summary, text
    assert "rank" in ranking and "r1" in ranking
    matches = check_store_is_consistent(data)
    finished = [m for m in matches if m.status in (MatchStatus.DONE.value, MatchStatus.VOID.value)]
    assert len(finished) == int(summary[1]) >= 1
    assert sum(m.status == MatchStatus.QUEUED.value for m in matches) == int(summary[3])
    if ctrl_c == "coordinator":  # its worker finished the match it had leased: none went back to the queue
        # (a match scheduled but not yet leased when the signal came is queued with no attempt: under
        # load the signal can come before the next hand-off)
        assert all(m.attempt == 0 for m in matches if m.status == MatchStatus.QUEUED.value), \
            [(m.id, m.attempt) for m in matches if m.status == MatchStatus.QUEUED.value]
    assert bot_processes_under(data.resolve()) == []
    assert "Traceback" not in text and "KeyboardInterrupt" not in text, text


def test_mixed_mode_counts_the_matches_and_pairs_different_versions(tmp_path: Path) -> None:
    data = tmp_path / "arena"
    add_random_bots(data, ["r1", "r2", "r3"])
    run = dehla("ladder", "run", "--mode", "mixed", "--matches", "3", "--workers", "2", "--seed", "11", *FAST,
                data=data)
    assert run.returncode == 0, run.stderr
    assert "3 matches counted (0 void), 0 back in the queue, 0 failed" in run.stderr
    matches = check_store_is_consistent(data)
    assert [m.status for m in matches] == [MatchStatus.DONE.value] * 3
    mixed = [m for m in matches if m.seat0_id != m.seat2_id or m.seat1_id != m.seat3_id]
    assert mixed, [m.seats for m in matches]  # the seed fixes the first pairings; one is mixed
    pairs = json.loads(dehla("ladder", "partnerships", "--json", data=data).stdout)
    assert sum(p["matches"] for p in pairs) == 2 * 3
    assert any(len(set(p["partnership"].split("+"))) == 2 for p in pairs), pairs
    show = dehla("ladder", "show", data=data)
    assert show.returncode == 0, show.stderr
    assert all(f" r{n} " in show.stdout for n in (1, 2, 3)), show.stdout
