"""``dehla submit``, ``dehla bots`` and ``dehla ladder ...`` as users run them.

``submit`` and ``ladder run`` in the first test are real processes (the entry point, and a run
with its worker processes, as users start it); the reading commands after them and the refusals
run ``arena.cli.main`` in this process (``tests.cli_helpers.run_dehla``: the same
``LazyGroup.main``, program name and environment, ``$DEHLA_DATABASE_URL`` included; a traceback
fails the test): their subject is what they print, not the process. Bots still run as processes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from arena.sandbox import bwrap
from ladder.execution.runners import RunnerUnavailable, check_runner
from tests.cli_helpers import run_dehla
from tests.database import database_env


def dehla_process(*args: str, data: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "arena", *args, "--data", str(data)], capture_output=True,
                          text=True, timeout=240, check=False, env=database_env(data))


def dehla(*args: str, data: Path) -> subprocess.CompletedProcess[str]:
    return run_dehla(*args, "--data", str(data), env=database_env(data))


def test_submit_run_show_and_replay(tmp_path: Path) -> None:
    data = tmp_path / "arena"
    out = dehla_process("submit", "--sample", "random", "--sample", "heuristic", "--runner", "local", data=data)
    assert out.returncode == 0, out.stderr
    assert out.stdout.count("accepted") == 2
    again = dehla("submit", "--sample", "random", "--runner", "local", data=data)
    assert again.returncode == 0 and "unchanged: random #1" in again.stdout, again.stderr
    run = dehla_process("ladder", "run", "--matches", "2", "--deals", "1", "--workers", "2", "--seed", "3",
                "--runner", "local", data=data)
    assert run.returncode == 0, run.stderr
    matches = json.loads(dehla("ladder", "matches", "--bot", "heuristic", "--json", data=data).stdout)
    # A void match (a platform fault, such as every bot failing to start) is counted but rates
    # nobody (docs/ladder.md): said here with its reason, not as a miscount further down.
    assert "2 matches counted (0 void)" in run.stderr, (run.stderr, matches)
    assert "In a browser: `" in run.stderr and " serve` shows these rankings" in run.stderr, \
        "the run ends by saying how to see it in a browser"
    show = json.loads(dehla("ladder", "show", "--json", data=data).stdout)
    assert [row["rank"] for row in show] == [1, 2] and {row["bot"] for row in show} == {"random", "heuristic"}
    for row in show:
        assert row["matches"] == 2, (row, matches)
        assert row["rating"] == pytest.approx(row["mu"] - 3 * row["sigma"], abs=2e-3), row
    assert len(matches) == 2 and all(m["status"] == "done" for m in matches)
    assert not (data / "matches").exists(), "records are kept in the store, not in the data folder"
    replay = dehla("replay", "--match", str(matches[0]["match_id"]), data=data)
    assert replay.returncode == 0 and replay.stdout.count("result: team") == 2, replay.stderr
    history = json.loads(dehla("ladder", "history", "heuristic", "--json", data=data).stdout)
    assert sorted(h["match_id"] for h in history) == sorted(m["match_id"] for m in matches)
    pairs = json.loads(dehla("ladder", "partnerships", "--json", data=data).stdout)
    assert {p["partnership"] for p in pairs} == {"random#1+random#1", "heuristic#1+heuristic#1"}
    bots = json.loads(dehla("bots", "--json", data=data).stdout)
    assert [(b["bot"], b["version"]) for b in bots] == [("heuristic", 1), ("random", 1)]


def test_a_bot_that_does_not_start_is_rejected_with_its_stderr(tmp_path: Path) -> None:
    folder = tmp_path / "crasher"
    folder.mkdir()
    (folder / "bot.toml").write_text('name = "crasher"\nversion = "1"\nauthor = "t"\ncommand = ["python", "bot.py"]\n')
    (folder / "bot.py").write_text("import sys\nprint('cannot find my weights', file=sys.stderr)\nsys.exit(4)\n")
    out = dehla("submit", str(folder), "--runner", "local", data=tmp_path / "arena")
    assert out.returncode == 2
    assert "rejected" in out.stderr and "validation match 1 (four seats)" in out.stderr
    assert "failed_start" in out.stderr and "cannot find my weights" in out.stderr
    assert "Traceback" not in out.stderr
    bots = dehla("bots", "--json", data=tmp_path / "arena")
    assert json.loads(bots.stdout) == []


def test_bad_input_gets_one_line_and_exit_2(tmp_path: Path) -> None:
    data = tmp_path / "arena"
    empty = tmp_path / "empty"
    empty.mkdir()
    cases = [
        (["submit", str(tmp_path / "nope"), "--runner", "local"], "not a folder"),
        (["submit", str(empty), "--runner", "local"], "no bot.toml"),
        (["submit", "--sample", "chess", "--runner", "local"], "unknown sample bot 'chess'"),
        (["ladder", "run", "--runner", "local"], "needs at least two submitted bots"),
        (["ladder", "history", "nobody"], "unknown bot 'nobody'"),
    ]
    for args, message in cases:
        out = dehla(*args, data=data)
        assert out.returncode == 2, (args, out.stderr)
        assert message in out.stderr, (args, out.stderr)
        assert "Traceback" not in out.stderr and out.stderr.strip().count("\n") == 0, out.stderr


def test_without_the_sandbox_submitted_bots_run_only_by_explicit_choice(monkeypatch: pytest.MonkeyPatch,
                                                                          tmp_path: Path) -> None:
    monkeypatch.setattr(bwrap, "SYSTEM_PATH", str(tmp_path))  # a host without bubblewrap (nor util-linux)
    with pytest.raises(RunnerUnavailable, match=r"missing .*bwrap.*pass --runner local"):
        check_runner("sandbox")
    check_runner("local")
