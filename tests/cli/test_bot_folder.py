"""Bot folders: the manifest's errors, ``dehla bot new``, and playing a folder with ``dehla match``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from arena.bots.manifest import ManifestError, load_manifest
from arena.bots.scaffold import scaffold_bot
from sdk.policy_bot import WEIGHTS_FILE
from sdk.policy_network import PolicyNetwork
from tests.cli_helpers import run_dehla

GOOD = 'name = "ace"\nversion = "1.2.0"\nauthor = "A"\ncommand = ["python", "bot.py"]\n'


def write(folder: Path, text: str) -> Path:
    folder.mkdir(exist_ok=True)
    (folder / "bot.toml").write_text(text)
    return folder


def test_a_good_manifest_loads_with_default_resources(tmp_path: Path) -> None:
    manifest = load_manifest(write(tmp_path / "ace", GOOD))
    assert manifest.name == "ace" and manifest.resources.memory_mb == 512
    assert manifest.argv()[0] == sys.executable


@pytest.mark.parametrize(("text", "message"), [
    (GOOD.replace('name = "ace"', 'name = "Ace Bot"'), "name: String should match pattern"),
    (GOOD.replace('version = "1.2.0"\n', ""), "version: missing"),
    (GOOD + "colour = 'red'\n", "colour: unknown field"),
    (GOOD + "[resources]\nmemory_mb = 99999\n", "resources.memory_mb: Input should be less than or equal to 4096"),
    (GOOD.replace('["python", "bot.py"]', "[]"), "command: Tuple should have at least 1 item"),
    ("name = ", "not valid TOML"),
])
def test_manifest_errors_name_the_field(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(ManifestError, match=message.replace(".", r"\.").replace("[", r"\[")):
        load_manifest(write(tmp_path / "bot", text))


def test_a_folder_without_manifest_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ManifestError, match=r"no bot\.toml"):
        load_manifest(tmp_path)


def test_new_bot_passes_its_own_test_and_plays_a_match(tmp_path: Path) -> None:
    folder = scaffold_bot("my-bot", tmp_path)
    assert load_manifest(folder).name == "my-bot"
    test = subprocess.run([sys.executable, "-m", "pytest", "-q", "test_bot.py"], cwd=folder,
                          capture_output=True, text=True, timeout=120, check=False)
    assert test.returncode == 0, test.stdout + test.stderr
    match = subprocess.run([sys.executable, "-m", "arena", "match", str(folder), "random", "--deals", "2",
                            "--records", str(tmp_path / "m"), "--json"],
                           capture_output=True, text=True, timeout=120, check=False)
    assert match.returncode == 0, match.stderr
    report = json.loads(match.stdout)
    assert report["faults"] == [] and report["hands"] == 4
    assert "def bid(self, view: BiddingView)" in (folder / "bot.py").read_text()
    match = subprocess.run([sys.executable, "-m", "arena", "match", str(folder), "random", "--deals", "1",
                            "--preset", "twenty-eight", "--records", str(tmp_path / "m"), "--json"],
                           capture_output=True, text=True, timeout=120, check=False)
    assert match.returncode == 0, match.stderr
    assert json.loads(match.stdout)["faults"] == []


def test_new_bot_refuses_to_overwrite_and_bad_names(tmp_path: Path) -> None:
    scaffold_bot("taken", tmp_path)
    with pytest.raises(ManifestError, match="already exists"):
        scaffold_bot("taken", tmp_path)
    with pytest.raises(ManifestError, match="lowercase"):
        scaffold_bot("Bad Name", tmp_path)


def test_a_new_policy_bot_plays_its_untrained_weights_in_its_own_test(tmp_path: Path) -> None:
    """``dehla bot new --template policy``: seeded untrained weights beside a bot that loads them;
    the folder's own test plays four presets in-process without a fault."""
    made = run_dehla("bot", "new", "my-policy", "--template", "policy", "--dir", str(tmp_path))
    assert made.returncode == 0, made.stderr
    assert "python examples/train_policy.py" in made.stdout
    folder = tmp_path / "my-policy"
    assert np.array_equal(PolicyNetwork.load(folder / WEIGHTS_FILE).w1, PolicyNetwork.initial().w1)
    test = subprocess.run([sys.executable, "-m", "pytest", "-q", "test_bot.py"], cwd=folder,
                          capture_output=True, text=True, timeout=120, check=False)
    assert test.returncode == 0, test.stdout + test.stderr
    assert "1 passed" in test.stdout


def test_an_unknown_template_is_refused_by_name(tmp_path: Path) -> None:
    out = run_dehla("bot", "new", "x-bot", "--template", "neural", "--dir", str(tmp_path))
    assert out.returncode == 2 and "'neural' is not one of 'plain', 'policy'" in out.stderr
    assert not (tmp_path / "x-bot").exists()
