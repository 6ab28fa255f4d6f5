"""Fixtures of every test: the database the stores live in (tests/database.py), and the
version cache the workers fill (``ladder/versions/version_cache.py``), one per session.

The tests run in parallel (pytest-xdist, ``-n``: the README's command); what two workers must not
do at once is said here (``SERIAL``, ``pytest_xdist_make_scheduler``),
each worker leases sandbox uids from a range of its own (``pytest_configure``), and a test marked
``alone`` runs while no other test does (``pytest_runtest_protocol``)."""

from __future__ import annotations

import fcntl
import os
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import Any

import pytest

from arena.sandbox.uids import DEFAULT_FIRST_UID, DEFAULT_UID_COUNT
from tests import database

SERIAL: dict[str, str] = {
    "tests/containers/": "podman: one worker builds the base image (a session fixture; two builds at once would "
                         "race on its tags), prunes images and leases the default uid range",
}
"""Folders whose tests run on one worker, one after another, and why."""


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "sqlite_only(reason): a test of SQLite itself, skipped on PostgreSQL")
    config.addinivalue_line("markers", "alone(reason): a test that measures the host (host-wide counters, "
                                       "sub-millisecond timing): no other test runs meanwhile under xdist")
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if worker is not None:
        # Each worker its own sandbox uids (the runner and the `dehla` subprocesses read
        # DEHLA_SANDBOX_UIDS): leases never collide anyway (a lock file each), but a test that
        # checks no process of its seat's uid is left must not see another worker's next bot
        # under the uid it has just released. Ranges above the default one (which the container
        # tests use, on one worker) and below the fixed uid of test_sandbox_runner's no-uid test.
        index = int(worker.removeprefix("gw"))
        os.environ["DEHLA_SANDBOX_UIDS"] = f"{DEFAULT_FIRST_UID + (index + 1) * DEFAULT_UID_COUNT}:{DEFAULT_UID_COUNT}"


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """(xdist, in the controller) Whole files to a worker, as ``--dist loadfile``: a module's
    fixtures are built once; and a ``SERIAL`` folder is one unit, its tests on one worker in
    order. (``--dist loadgroup`` cannot do it here: its marks change ``item._nodeid``, which
    pytest 9.2 no longer reads.)"""
    if config.getoption("dist") not in ("load", "loadfile", "loadgroup", "loadscope"):
        return None
    from xdist.scheduler import LoadScopeScheduling  # noqa: PLC0415 (xdist's, only where it runs)

    class ByFileAndSerialFolder(LoadScopeScheduling):  # type: ignore[misc]
        def _split_scope(self, nodeid: str) -> str:
            path = nodeid.split("::", 1)[0]
            return next((folder for folder in SERIAL if path.startswith(folder)), path)

    return ByFileAndSerialFolder(config, log)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if os.environ.get("PYTEST_XDIST_WORKER") is not None:
        # The `alone` tests last, in a serial folder too: the container tests' first test builds
        # the base image (minutes, after a change of the code), never while the others wait.
        items.sort(key=lambda item: item.get_closest_marker("alone") is not None)
    if not database.POSTGRES:
        return
    for item in items:
        marker = item.get_closest_marker("sqlite_only")
        if marker is not None:
            reason = marker.args[0] if marker.args else "a test of SQLite itself"
            item.add_marker(pytest.mark.skip(reason=f"SQLite only: {reason}"))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Generator[None, object, object]:
    """Under xdist every test holds the run's room lock shared, and a test marked ``alone`` holds it
    exclusive: from its fixtures' set-up (a module fixture may take the measurement) to their
    teardown, no other worker runs a test. A turnstile in front gives the ``alone`` test its turn:
    while it waits for the running tests to end, no new one starts."""
    if os.environ.get("PYTEST_XDIST_WORKER") is None:
        return (yield)
    alone = item.get_closest_marker("alone") is not None
    shared = Path(item.config.option.basetemp).parent  # the controller's folder: .../pytest-N/gwK
    turnstile = os.open(shared / "turnstile.lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    room = os.open(shared / "room.lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    try:
        fcntl.flock(turnstile, fcntl.LOCK_EX)
        fcntl.flock(room, fcntl.LOCK_EX if alone else fcntl.LOCK_SH)
        if not alone:
            fcntl.flock(turnstile, fcntl.LOCK_UN)
        return (yield)
    finally:
        os.close(room)  # closing lets go of the locks
        os.close(turnstile)


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
