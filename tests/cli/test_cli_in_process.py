"""``tests.cli_helpers.run_dehla`` answers as a real ``python -m arena`` process does, so the tests
that use it test the command line users run: the same exit code, stdout and stderr for a success,
a usage error of the root and of a lazily loaded group, and a command's own refusal; a traceback
still fails the test, and a warning still reaches stderr; nothing of a call stays behind."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import warnings
from pathlib import Path

import click
import pytest

import arena.cli
from arena.engine.rules import rules_for
from tests.cli_helpers import run_dehla


def as_a_process(*args: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "arena", *args], capture_output=True, text=True, timeout=120,
                          check=False, cwd=cwd, env=env)


@pytest.mark.parametrize("args", [
    ("rules", "--json"),
    ("score",),  # a usage error of a built-in command
    ("ladder", "run", "--per-move", "nan"),  # a usage error in a lazily loaded group
    ("selfplay", "--preset", "bridge"),  # the command's own refusal (fail())
    ("bots", "--json"),  # DEHLA_DATA from the environment, relative to the working folder
])
def test_in_process_and_a_real_process_answer_alike(tmp_path: Path, args: tuple[str, ...]) -> None:
    env = {**os.environ, "DEHLA_DATA": "arena", "COLUMNS": "123"}
    env.pop("DEHLA_DATABASE_URL", None)
    real = as_a_process(*args, cwd=tmp_path, env=env)
    here = run_dehla(*args, cwd=tmp_path, env=env)
    assert (here.returncode, here.stdout, here.stderr) == (real.returncode, real.stdout, real.stderr)


def test_an_exception_in_a_command_fails_the_test_with_its_traceback(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(arena.cli, "rules_for", broken)
    with pytest.raises(RuntimeError, match="a bug"):
        run_dehla("rules")


def test_warnings_and_log_records_reach_stderr_as_in_a_fresh_interpreter(monkeypatch: pytest.MonkeyPatch) -> None:
    def noisy(*args: object) -> object:
        warnings.warn("careful", UserWarning, stacklevel=1)
        warnings.warn("old", DeprecationWarning, stacklevel=1)  # hidden outside __main__, as there
        logging.getLogger("ladder.somewhere").warning("logged")
        logging.getLogger("ladder.somewhere").info("quiet")
        return rules_for(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(arena.cli, "rules_for", noisy)
    out = run_dehla("rules", "--json")
    assert out.returncode == 0
    assert "UserWarning: careful" in out.stderr and "logged\n" in out.stderr
    assert "old" not in out.stderr and "quiet" not in out.stderr


def test_a_call_leaves_no_environment_folder_context_or_handler_behind(tmp_path: Path) -> None:
    before = (dict(os.environ), Path.cwd(), list(logging.getLogger().handlers), list(warnings.filters))
    env = {key: value for key, value in os.environ.items() if key != "HOME"} | {"DEHLA_DATA": str(tmp_path)}
    assert run_dehla("bots", "--json", cwd=tmp_path, env=env).stdout == "[]\n"
    assert run_dehla("score", cwd=tmp_path).returncode == 2
    after = (dict(os.environ), Path.cwd(), list(logging.getLogger().handlers), list(warnings.filters))
    assert after == before
    assert click.get_current_context(silent=True) is None
