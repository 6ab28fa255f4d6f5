"""Fixtures of every test: the database the stores live in (tests/database.py), and the
version cache the workers fill (``ladder/versions/version_cache.py``), one per session. How the
tests run in parallel, and what is kept apart: ``tests/parallel_run.py`` (the longest files
first: ``tests/file_durations.py``); which tests have a store (the PostgreSQL pass runs those):
``tests/store_users.py``."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from tests import database

# tests.file_durations first: parallel_run imports it, and a plugin imported before it is registered is not rewritten
pytest_plugins = ("tests.file_durations", "tests.parallel_run", "tests.store_users")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "sqlite_only(reason): a test of SQLite itself, skipped on PostgreSQL")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not database.POSTGRES:
        return
    for item in items:
        marker = item.get_closest_marker("sqlite_only")
        if marker is not None:
            reason = marker.args[0] if marker.args else "a test of SQLite itself"
            item.add_marker(pytest.mark.skip(reason=f"SQLite only: {reason}"))


def pytest_sessionfinish(session: pytest.Session) -> None:
    """The controller of a parallel run on PostgreSQL drops what its workers kept for one
    another (the played ladder's snapshot: ``tests/web_helpers.run_ladder``)."""
    from tests.parallel_run import RUN_FOLDER_ENV, run_folder, worker_id  # noqa: PLC0415 - a plugin of its own

    if database.POSTGRES and worker_id() is None and RUN_FOLDER_ENV in os.environ:
        from tests.web_helpers import SHARED_LADDER  # noqa: PLC0415 - only a parallel PostgreSQL run needs it

        database.drop_kept(run_folder() / SHARED_LADDER / "ladder")
        database.drop_created()


@pytest.fixture(scope="session", autouse=True)
def test_databases() -> Iterator[None]:
    """On PostgreSQL, the databases this session made are dropped at its end."""
    yield
    if database.POSTGRES:
        database.drop_created()


@pytest.fixture(scope="session", autouse=True)
def fast_move_release() -> Iterator[None]:
    """``dehla ladder run`` in this session's subprocesses releases moves on reply, as fast as
    before issue 23: the tests of the slot-end release ask for it by name."""
    saved = os.environ.get("DEHLA_MOVE_RELEASE")
    os.environ["DEHLA_MOVE_RELEASE"] = "on-reply"
    yield
    if saved is None:
        os.environ.pop("DEHLA_MOVE_RELEASE", None)
    else:
        os.environ["DEHLA_MOVE_RELEASE"] = saved


@pytest.fixture(scope="session", autouse=True)
def version_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The session's workers (in process, spawned, or ``dehla`` subprocesses, which inherit the
    environment) share one cache folder of their own, not the user's ``~/.cache``."""
    saved = os.environ.get("DEHLA_CACHE")
    os.environ["DEHLA_CACHE"] = str(tmp_path_factory.mktemp("version-cache"))
    yield
    if saved is None:
        os.environ.pop("DEHLA_CACHE", None)
    else:
        os.environ["DEHLA_CACHE"] = saved
