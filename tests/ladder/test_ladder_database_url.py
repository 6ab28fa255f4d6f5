"""A store URL the arena cannot use (a driver not installed, a server not there) is one line that
says what to do, exit 2, without the URL's password; no traceback, nothing written."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from ladder.store.paths import DATABASE_URL_ENV

PASSWORD = "hunter2-not-shown"


def bots_with(url: str, data: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, DATABASE_URL_ENV: url}
    return subprocess.run([sys.executable, "-m", "arena", "bots", "--data", str(data)], capture_output=True,
                          text=True, timeout=60, check=False, env=env)


def assert_one_line(out: subprocess.CompletedProcess[str], *fragments: str) -> None:
    assert out.returncode == 2, (out.returncode, out.stderr)
    assert out.stderr.startswith("error: ") and out.stderr.count("\n") == 1 and "Traceback" not in out.stderr
    assert PASSWORD not in out.stderr and "***" in out.stderr, out.stderr
    for fragment in fragments:
        assert fragment in out.stderr, out.stderr


def test_a_driver_that_is_not_installed_names_the_extra(tmp_path: Path) -> None:
    pytest.importorskip("sqlalchemy.dialects.postgresql.pg8000")
    with pytest.raises(ImportError):  # the premise: this driver is not there
        __import__("pg8000")
    out = bots_with(f"postgresql+pg8000://dehla:{PASSWORD}@/dehla?unix_sock={tmp_path}/none", tmp_path / "data")
    assert_one_line(out, "its database driver is not installed", "pip install 'dehla-arena[postgres]'")


def test_no_server_at_the_url_says_to_check_the_server_not_a_backup(tmp_path: Path) -> None:
    out = bots_with(f"postgresql+psycopg://dehla:{PASSWORD}@/dehla?host={tmp_path}", tmp_path / "data")
    assert_one_line(out, "cannot use it (OperationalError: ", "check that its server runs, the database exists")
    assert "backup" not in out.stderr
