"""Which tests have a store, so that the PostgreSQL pass of ``.ci/run`` runs only those.

A test reaches PostgreSQL only through ``tests/database.py`` (its URLs and the ``dehla``
subprocesses' environment); a test that never asks it for a store runs the same code on both
databases, and a second run on PostgreSQL adds nothing. So the SQLite pass records the tests that
did ask, in the test itself or in any fixture it uses (a module's served ladder is asked for once,
by its first test, and used by all), and the PostgreSQL pass runs those alone:

- ``DEHLA_TEST_STORE_USERS=FOLDER``: each process of the run writes the ids of the tests that asked
  for a store, and of the tests it skipped (a test skipped on SQLite may be one of PostgreSQL's
  own), to ``FOLDER/store-users-WORKER.txt``.
- ``DEHLA_TEST_STORE_USERS_FROM=FOLDER``: the run keeps the tests those files name and deselects
  the others, saying how many. A test id not in any file (a test added since) is not dropped:
  only the ids the recording run saw and found storeless are.
"""

from __future__ import annotations

import os
from collections.abc import Generator
from pathlib import Path

import pytest

from tests import database

RECORD_ENV = "DEHLA_TEST_STORE_USERS"
SELECT_ENV = "DEHLA_TEST_STORE_USERS_FROM"
SEEN_PREFIX = "store-seen-"
USERS_PREFIX = "store-users-"

_store_fixtures: set[int] = set()
"""The fixture definitions (by identity) whose set-up asked for a store in this process."""


def _worker() -> str:
    return os.environ.get("PYTEST_XDIST_WORKER", "main")


def _append(prefix: str, nodeid: str) -> None:
    folder = Path(os.environ[RECORD_ENV])
    with (folder / f"{prefix}{_worker()}.txt").open("a", encoding="utf-8") as lines:
        lines.write(nodeid + "\n")


@pytest.hookimpl(wrapper=True)
def pytest_fixture_setup(fixturedef: pytest.FixtureDef[object]) -> Generator[None, object, object]:
    before = database.requests()
    try:
        return (yield)
    finally:
        if database.requests() > before:
            _store_fixtures.add(id(fixturedef))


def _uses_a_store_fixture(item: pytest.Item) -> bool:
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return False
    return any(id(definitions[-1]) in _store_fixtures for definitions in info.name2fixturedefs.values() if definitions)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Generator[None, object, object]:
    if RECORD_ENV not in os.environ:
        return (yield)
    before = database.requests()
    try:
        return (yield)
    finally:
        _append(SEEN_PREFIX, item.nodeid)
        if database.requests() > before or _uses_a_store_fixture(item):
            _append(USERS_PREFIX, item.nodeid)


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if RECORD_ENV in os.environ and report.skipped:
        _append(USERS_PREFIX, report.nodeid)


def _read(folder: Path, prefix: str) -> set[str]:
    return {line for path in folder.glob(f"{prefix}*.txt") for line in path.read_text(encoding="utf-8").splitlines()}


def storeless(folder: Path) -> frozenset[str]:
    """The tests the recording run into ``folder`` ran and found never asking for a store."""
    return frozenset(_read(folder, SEEN_PREFIX) - _read(folder, USERS_PREFIX))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if SELECT_ENV not in os.environ:
        return
    folder = Path(os.environ[SELECT_ENV])
    if not any(folder.glob(f"{SEEN_PREFIX}*.txt")):
        raise pytest.UsageError(f"${SELECT_ENV}: {folder} holds no recording of a run (${RECORD_ENV})")
    skip = storeless(folder)
    kept = [item for item in items if item.nodeid not in skip]
    dropped = [item for item in items if item.nodeid in skip]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept
