"""``dehla match`` plays submitted bots by name (newest version) and by ``NAME#VERSION``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from arena.bots.scaffold import scaffold_bot
from tests.database import database_env


def dehla(*args: str, data: Path) -> subprocess.CompletedProcess[str]:
    env = dict(database_env(data), DEHLA_DATA=str(data))
    return subprocess.run([sys.executable, "-m", "arena", *args], capture_output=True, text=True,
                          timeout=240, check=False, env=env)


def test_submitted_bots_play_by_name_and_version(tmp_path: Path) -> None:
    data = tmp_path / "data"
    folder = scaffold_bot("low-card", tmp_path)
    submitted = dehla("submit", str(folder), "--runner", "local", data=data)
    assert submitted.returncode == 0, submitted.stdout + submitted.stderr
    for spec in ("low-card", "low-card#1"):
        out = dehla("match", spec, "random", "--deals", "1", "--records", str(tmp_path / "m"), "--json", data=data)
        assert out.returncode == 0, out.stderr
        report = json.loads(out.stdout)
        assert report["faults"] == [] and report["hands"] == 2
        first = json.loads(Path(report["record"]).read_text().splitlines()[0])
        assert first["seats"][0] == "low-card"
    missing = dehla("match", "low-card#9", "random", "--deals", "1", "--records", str(tmp_path / "m"), data=data)
    assert missing.returncode == 2
    assert "unknown bot 'low-card#9'" in missing.stderr
