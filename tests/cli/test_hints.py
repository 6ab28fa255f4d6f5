"""A hint's command runs as printed: the README never puts ``.venv/bin`` on the PATH, so a hint
says ``.venv/bin/dehla`` (or the path this program ran from) unless ``dehla`` on the PATH is this
very program; the same for ``pytest``, and how to install it where it is missing."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from arena.console import commands

ROOT = Path(__file__).resolve().parents[2]
VENV_BIN = Path(sys.executable).parent
DEHLA = VENV_BIN / "dehla"
HINT = re.compile(r"`([^`]+) submit FOLDER`")


def as_new_user(*args: str, cwd: Path, path: str, data: Path) -> subprocess.CompletedProcess[str]:
    """The installed ``dehla`` script, started by its path as the README does, with ``path`` as
    the shell's PATH."""
    env = {**os.environ, "PATH": path, "DEHLA_DATA": str(data)}
    env.pop("DEHLA_DATABASE_URL", None)
    return subprocess.run([str(DEHLA), *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=120,
                          check=False)


def without_venv() -> str:
    return os.pathsep.join(p for p in os.environ.get("PATH", "").split(os.pathsep)
                           if p and Path(p).resolve() != VENV_BIN.resolve())


@pytest.mark.skipif(not DEHLA.exists(), reason="no installed dehla script beside this interpreter")
def test_a_hint_names_the_venv_command_when_dehla_is_not_on_the_path(tmp_path: Path) -> None:
    data = tmp_path / "arena"
    out = as_new_user("bots", cwd=ROOT, path=without_venv(), data=data)
    assert out.returncode == 0, out.stderr
    found = HINT.search(out.stdout)
    assert found is not None, out.stdout
    assert found[1] == ".venv/bin/dehla" if DEHLA.parent.parent.parent == ROOT else Path(found[1]).is_absolute()
    again = subprocess.run(f"{found[1]} bots --json", shell=True, cwd=ROOT, capture_output=True, text=True,
                           timeout=120, env={**os.environ, "PATH": without_venv(), "DEHLA_DATA": str(data)},
                           check=False)
    assert (again.returncode, again.stdout) == (0, "[]\n"), again.stderr


@pytest.mark.skipif(not DEHLA.exists(), reason="no installed dehla script beside this interpreter")
def test_a_hint_says_dehla_when_the_path_finds_this_program(tmp_path: Path) -> None:
    out = as_new_user("bots", cwd=tmp_path, path=f"{VENV_BIN}{os.pathsep}{without_venv()}", data=tmp_path / "a")
    found = HINT.search(out.stdout)
    assert found is not None and found[1] == "dehla", out.stdout


@pytest.mark.skipif(not DEHLA.exists(), reason="no installed dehla script beside this interpreter")
def test_bot_new_prints_commands_that_run_as_printed(tmp_path: Path) -> None:
    out = as_new_user("bot", "new", "hinted", "--dir", str(tmp_path), cwd=ROOT, path=without_venv(),
                      data=tmp_path / "a")
    assert out.returncode == 0, out.stderr
    found = re.search(r"then `([^`]+)` and `([^`]+)`", out.stdout)
    assert found is not None, out.stdout
    test, match = shlex.split(found[1]), shlex.split(found[2])
    assert test[0] != "pytest" and (ROOT / test[0]).exists() and test[1] == str(tmp_path / "hinted" / "test_bot.py")
    assert match[0] != "dehla" and (ROOT / match[0]).exists() and match[1:] == ["match", str(tmp_path / "hinted"),
                                                                                 "random"]


def test_without_pytest_the_hint_installs_it_first(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(commands, "_tool", lambda name: tmp_path / "bin" / name)
    monkeypatch.chdir(tmp_path)
    assert commands.pytest() == "bin/pip install pytest && bin/pytest"
    assert commands.dehla().endswith(" -m arena")
