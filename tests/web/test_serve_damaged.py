"""A store that cannot be opened stops ``dehla serve`` at start-up: exit 2, one line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest


@pytest.mark.sqlite_only("a damaged SQLite file")
def test_a_damaged_store_is_one_line_and_exit_2(tmp_path: Path) -> None:
    (tmp_path / "ladder.db").write_bytes(b"SQLite format 3\x00" + b"\xff" * 4000)
    done = subprocess.run([sys.executable, "-m", "arena", "serve", "--port", "0", "--data", str(tmp_path)],
                          check=False, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), done.stderr
    assert done.stdout == ""
