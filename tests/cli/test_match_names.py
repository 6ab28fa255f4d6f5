"""``dehla match . random`` names the folder's bot by its manifest, never ``.``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from arena.bots.scaffold import scaffold_bot
from arena.referee.launcher import partnership_name, resolve_partnership


def test_a_folder_is_named_by_its_manifest(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = scaffold_bot("dotbot", tmp_path, "you")
    monkeypatch.chdir(folder)
    for spec, name in ((".", "dotbot"), ("./", "dotbot"), (str(folder), "dotbot"), ("random", "random"),
                       (".+random", "dotbot+random"), ("random+.", "random+dotbot")):
        assert partnership_name(spec, resolve_partnership(spec)) == name, spec
    monkeypatch.chdir(tmp_path)
    assert partnership_name("dotbot", resolve_partnership("dotbot")) == "dotbot"


def test_dehla_match_dot_reports_the_manifest_name(tmp_path: Path) -> None:
    folder = scaffold_bot("dotbot", tmp_path, "you")
    done = subprocess.run([sys.executable, "-m", "arena", "match", ".", "random", "--deals", "1", "--json",
                           "--records", str(tmp_path / "records")], cwd=folder, capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["partnerships"] == ["dotbot", "random"]
