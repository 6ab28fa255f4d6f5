"""From ``dehla bot new --template policy`` to a rated bot: a seconds-long training writes the
weights, ``dehla submit`` accepts the folder (its two validation matches, the bot as processes
over gRPC), ``dehla match`` plays the submitted bot by name without a fault, and a ``dehla
ladder run`` plays and rates it against the random sample."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from ladder.versions.base_image import pinned_requirements
from sample_bots.heuristic.bot import HeuristicBot
from sdk.learn.train import PROVENANCE_FILE, main
from sdk.policy_bot import WEIGHTS_FILE
from sdk.policy_ensemble import PolicyEnsemble, load_policy
from sdk.policy_network import PolicyNetwork
from tests.cli_helpers import run_dehla
from tests.database import database_env


def test_train_export_submit_and_play(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "data"
    env = dict(database_env(data), DEHLA_DATA=str(data))
    made = run_dehla("bot", "new", "pupil", "--template", "policy", "--dir", str(tmp_path), env=env)
    assert made.returncode == 0, made.stderr
    folder = tmp_path / "pupil"
    untrained = PolicyNetwork.load(folder / WEIGHTS_FILE)
    assert main([str(folder), "--iterations", "1", "--tables", "16", "--hidden", "32", "--teacher-hands", "10",
                 "--imitation-epochs", "2", "--eval-pairs", "20"], teacher=HeuristicBot()) == 0
    trained = load_policy(folder / WEIGHTS_FILE)
    assert isinstance(trained, PolicyEnsemble) and len(trained.members) == 2, "two members by default"
    first, second = trained.members
    assert first.hidden == second.hidden == 32 and not np.array_equal(first.w1[:, :8], untrained.w1[:, :8])
    assert not np.array_equal(first.w2, second.w2), "each member from its own seed"
    provenance = json.loads((folder / PROVENANCE_FILE).read_text())
    assert provenance["against_random"]["pairs"] == 20 and provenance["teacher"] == "HeuristicBot"
    assert [member["seed"] for member in provenance["members"]] == [0, 1]
    assert all(member["train_cpu_seconds"] > 0 for member in provenance["members"])
    submitted = run_dehla("submit", str(folder), "--runner", "local", env=env)
    assert submitted.returncode == 0 and "accepted" in submitted.stdout, submitted.stdout + submitted.stderr
    played = run_dehla("match", "pupil", "random", "--deals", "2", "--records", str(tmp_path / "m"), "--json",
                       env=env)
    assert played.returncode == 0, played.stderr
    report = json.loads(played.stdout)
    assert report["faults"] == [] and report["hands"] == 4 and report["partnerships"] == ["pupil", "random"]
    assert run_dehla("submit", "--sample", "random", "--runner", "local", env=env).returncode == 0
    rated = run_dehla("ladder", "run", "--matches", "1", "--deals", "1", "--workers", "1", "--seed", "4",
                      "--runner", "local", env=env)
    assert rated.returncode == 0 and "1 matches counted" in rated.stderr, rated.stderr
    rows = json.loads(run_dehla("ladder", "show", "--json", env=env).stdout)
    assert {row["bot"]: row["matches"] for row in rows} == {"pupil": 1, "random": 1}


def test_training_refuses_a_folder_that_is_not_a_policy_bot(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(tmp_path), "--iterations", "1"]) == 2
    err = capsys.readouterr().err
    assert "not a policy bot's folder" in err and "--template policy" in err


def test_the_bot_base_image_installs_numpy_the_one_library_a_policy_bot_needs() -> None:
    """The container runner's bots run on the base image, which installs the arena's run-time
    libraries (not its extras): numpy is one of them, numba, PettingZoo and Gymnasium are not."""
    names = {requirement.split("==")[0] for requirement in pinned_requirements()}
    assert "numpy" in names
    assert not names & {"numba", "pettingzoo", "gymnasium"}
