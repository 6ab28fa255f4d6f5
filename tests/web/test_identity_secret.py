"""The session-signing secret: made once with mode 0600, read back, and refused (one line, exit 2,
never the secret) when others may read it, when it is a link, or when it is too short."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from ladder.web.security.web_secret import SECRET_ENV, SECRET_FILE, WebSecretError, web_secret
from tests.database import database_env


@pytest.fixture(autouse=True)
def no_secret_in_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(SECRET_ENV, raising=False)


def test_the_first_start_makes_a_private_secret_and_later_starts_read_it(tmp_path: Path) -> None:
    previous = os.umask(0)  # the most permissive umask: the file is 0600 all the same
    try:
        first = web_secret(tmp_path)
    finally:
        os.umask(previous)
    path = tmp_path / SECRET_FILE
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert len(first) >= 64
    assert web_secret(tmp_path) == first
    assert web_secret(tmp_path / "other") != first  # random, not derived from anything


def test_the_environment_wins_and_must_be_long(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(SECRET_ENV, "s" * 40)
    assert web_secret(tmp_path) == "s" * 40
    assert not (tmp_path / SECRET_FILE).exists()
    monkeypatch.setenv(SECRET_ENV, "short")
    with pytest.raises(WebSecretError, match="shorter than 32"):
        web_secret(tmp_path)


def test_a_secret_others_may_read_is_refused(tmp_path: Path) -> None:
    web_secret(tmp_path)
    (tmp_path / SECRET_FILE).chmod(0o644)
    with pytest.raises(WebSecretError, match="others may read it"):
        web_secret(tmp_path)


def test_a_link_is_not_followed(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.write_text("x" * 64)
    elsewhere.chmod(0o600)
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / SECRET_FILE).symlink_to(elsewhere)
    with pytest.raises(WebSecretError, match="a link is not followed"):
        web_secret(tmp_path / "data")


def test_dehla_serve_refuses_a_readable_secret_in_one_line_without_showing_it(tmp_path: Path) -> None:
    path = tmp_path / SECRET_FILE
    path.write_text("k" * 64)
    path.chmod(0o640)
    env = database_env(tmp_path, {key: value for key, value in os.environ.items() if key != SECRET_ENV})
    done = subprocess.run([sys.executable, "-m", "arena", "serve", "--port", "0", "--data", str(tmp_path)],
                          check=False, capture_output=True, text=True, timeout=60, env=env)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("error: ")
    assert "chmod 600" in done.stderr and "k" * 64 not in done.stderr + done.stdout
