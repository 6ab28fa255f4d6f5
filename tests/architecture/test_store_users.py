"""The PostgreSQL pass runs the tests that have a store and only those (``tests/store_users.py``):
a real recording run and a real selecting run over a small suite of its own."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

SUITE = {
    "conftest.py": '''
import pytest

from tests import database

pytest_plugins = ("tests.store_users",)


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """A module's store, asked for once: by the first test that uses it."""
    return database.database_url(tmp_path_factory.mktemp("data"))


@pytest.fixture
def client(served):
    return served
''',
    "test_suite.py": '''
import os

import pytest

from tests import database


def test_asks_itself(tmp_path):
    database.database_url(tmp_path)


def test_first_of_the_module_fixture(served):
    """Asks through the module's fixture, set up for it."""


def test_later_user_of_the_module_fixture(served):
    """Uses the module's fixture already set up: asks nothing itself."""


def test_through_a_fixture_of_the_fixture(client):
    """Uses a fixture that uses the store's."""


def test_a_subprocess_environment(tmp_path):
    database.database_env(tmp_path)


def test_never_asks():
    """Has no store."""


@pytest.mark.skipif(not database.POSTGRES, reason="PostgreSQL only")
def test_of_postgresql_only():
    """Skipped on SQLite."""
''',
}


def _pytest(suite: Path, env_extra: dict[str, str], *options: str) -> str:
    env = {**os.environ, **env_extra, "PYTHONPATH": str(REPO), "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
    for name in ("PYTEST_XDIST_WORKER", "DEHLA_TEST_RUN_FOLDER", "DEHLA_TEST_DATABASE",
                 "DEHLA_TEST_STORE_USERS", "DEHLA_TEST_STORE_USERS_FROM"):
        env.pop(name, None)
    env.update(env_extra)
    run = subprocess.run([sys.executable, "-m", "pytest", "-v", "-p", "no:cacheprovider", *options,
                          "--rootdir", str(suite), str(suite)],
                         check=False, cwd=suite, env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    return run.stdout


def test_the_recorded_store_users_are_the_tests_the_postgresql_pass_runs(tmp_path: Path) -> None:
    suite, recording = tmp_path / "suite", tmp_path / "recording"
    suite.mkdir()
    recording.mkdir()
    for name, text in SUITE.items():
        (suite / name).write_text(text)
    _pytest(suite, {"DEHLA_TEST_STORE_USERS": str(recording)}, "-p", "xdist", "-n", "2")
    assert len(list(recording.glob("store-seen-gw*.txt"))) == 2  # each worker wrote its own

    selected = _pytest(suite, {"DEHLA_TEST_STORE_USERS_FROM": str(recording)})
    ran = {line.split("::")[1].split(" ")[0] for line in selected.splitlines() if "::test_" in line}
    assert ran == {"test_asks_itself", "test_first_of_the_module_fixture", "test_later_user_of_the_module_fixture",
                   "test_through_a_fixture_of_the_fixture", "test_a_subprocess_environment",
                   "test_of_postgresql_only"}
    assert "1 deselected" in selected


def test_selecting_without_a_recording_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "conftest.py").write_text('pytest_plugins = ("tests.store_users",)\n')
    (tmp_path / "test_one.py").write_text("def test_one():\n    pass\n")
    env = {**os.environ, "PYTHONPATH": str(REPO), "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1",
           "DEHLA_TEST_STORE_USERS_FROM": str(tmp_path / "nothing")}
    env.pop("DEHLA_TEST_STORE_USERS", None)
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--rootdir", str(tmp_path),
                          str(tmp_path)], check=False, cwd=tmp_path, env=env, capture_output=True, text=True,
                         timeout=300)
    assert run.returncode != 0
    assert "holds no recording of a run" in run.stdout + run.stderr
