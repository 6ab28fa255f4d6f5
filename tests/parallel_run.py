"""The tests in parallel (pytest-xdist, ``-n``: the README's command), and what two workers must
not do at once.

- Whole files go to a worker (a module's fixtures are built once), and a ``SERIAL`` folder is one
  unit, on one worker in order, handed out first (it is the longest chain); a folder of ``JOINS``
  runs in another's unit. The other files follow, the longest first (``tests/file_durations.py``).
- The tests marked ``alone`` measure the host (host-wide counters, sub-millisecond timing): they
  are one unit, handed out last, once every other worker is on its last test, and each holds the
  run's room lock exclusive while every other test holds it shared, so that no other test runs
  meanwhile; the unit keeps the lock from one of its tests to the next. One unit at the end, held
  throughout, means the other workers drain once, when they have nothing left to do, instead of
  once per such test.
- Each worker leases sandbox uids from a range of its own.

The controller and its workers share a folder of the run (``RUN_FOLDER_ENV``, made by the
controller before the workers start; they inherit it): the lock files, and the ``alone`` tests'
ids that each worker writes as it collects (the controller never collects, so it reads them
there to form the unit).
"""

from __future__ import annotations

import fcntl
import os
import shutil
import tempfile
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest

from arena.sandbox.uids import DEFAULT_FIRST_UID, DEFAULT_UID_COUNT
from tests.file_durations import DurationsFileError, hand_out_order, read_durations

SERIAL: dict[str, str] = {
    "tests/containers/": "podman: one worker builds the base image (a session fixture; two builds at once would "
                         "race on its tags), prunes images and leases the default uid range",
    "tests/batch/": "numba compiles the batched engine's kernels in the first process that calls them (about 50 "
                    "CPU-s cold, then cached beside the code): one worker compiles them instead of each",
}
"""Folders whose tests run on one worker, one after another, and why."""

JOINS: dict[str, str] = {
    "tests/learn/": "tests/batch/",
}
"""Folders whose tests run in another folder's serial unit, after its tests: the learning
environments step the batched engine's kernels and compile their own (the vector environment's
observations), so beside ``tests/batch/`` on another worker they compiled the same kernels twice
at once."""

ALONE_UNIT = "alone"
RUN_FOLDER_ENV = "DEHLA_TEST_RUN_FOLDER"


def worker_id() -> str | None:
    return os.environ.get("PYTEST_XDIST_WORKER")


def run_folder() -> Path:
    return Path(os.environ[RUN_FOLDER_ENV])


def is_alone(item: pytest.Item) -> bool:
    return item.get_closest_marker("alone") is not None


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "alone(reason): a test that measures the host (host-wide counters, "
                                       "sub-millisecond timing): no other test runs meanwhile under xdist")
    worker = worker_id()
    if worker is None:
        if getattr(config.option, "numprocesses", None) and RUN_FOLDER_ENV not in os.environ:
            folder = tempfile.mkdtemp(prefix="dehla-test-run-")
            os.environ[RUN_FOLDER_ENV] = folder
            config.add_cleanup(lambda: shutil.rmtree(folder, ignore_errors=True))
        return
    # Each worker its own sandbox uids (the runner and the `dehla` subprocesses read
    # DEHLA_SANDBOX_UIDS): leases never collide anyway (a lock file each), but a test that
    # checks no process of its seat's uid is left must not see another worker's next bot
    # under the uid it has just released. Ranges above the default one (which the container
    # tests use, on one worker) and below the fixed uid of test_sandbox_runner's no-uid test.
    index = int(worker.removeprefix("gw"))
    os.environ["DEHLA_SANDBOX_UIDS"] = f"{DEFAULT_FIRST_UID + (index + 1) * DEFAULT_UID_COUNT}:{DEFAULT_UID_COUNT}"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    worker = worker_id()
    if worker is None:
        return
    items.sort(key=is_alone)  # every worker the same order: xdist checks the collections agree
    written = run_folder() / f"alone-{worker}.txt"
    partial = written.with_suffix(".partial")
    partial.write_text("".join(f"{item.nodeid}\n" for item in items if is_alone(item)), encoding="utf-8")
    partial.replace(written)


def alone_ids() -> frozenset[str]:
    """The ``alone`` tests' ids, as the workers wrote them (all workers collect the same tests)."""
    return frozenset(line for path in run_folder().glob("alone-gw*.txt")
                     for line in path.read_text(encoding="utf-8").splitlines())


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """(xdist, in the controller) The units above, on xdist's scope scheduler. (``--dist
    loadgroup`` cannot do it here: its marks change ``item._nodeid``, which pytest 9.2 no longer
    reads.)"""
    if config.getoption("dist") not in ("load", "loadfile", "loadgroup", "loadscope"):
        return None
    from xdist.scheduler import LoadScopeScheduling  # noqa: PLC0415 (xdist's, only where it runs)

    try:
        durations = read_durations()
    except DurationsFileError as error:
        raise pytest.UsageError(f"{error} (DEHLA_TEST_DURATIONS_WRITE writes it anew: tests/file_durations.py)") \
            from None

    class ByFileSerialFolderAndAlone(LoadScopeScheduling):  # type: ignore[misc]
        alone: frozenset[str] | None = None
        ordered = False

        def _split_scope(self, nodeid: str) -> str:
            if self.alone is None:  # read once, when the workers' collections are all in
                self.alone = alone_ids()
            if nodeid in self.alone:
                return ALONE_UNIT
            path = nodeid.split("::", 1)[0]
            joined = next((JOINS[folder] for folder in JOINS if path.startswith(folder)), path)
            return next((folder for folder in SERIAL if joined.startswith(folder)), joined)

        def _assign_work_unit(self, node: Any) -> None:
            # xdist orders the units by their number of tests; here the serial folders come first,
            # then the files expected to take longest (tests/file_durations.py), the `alone` unit last.
            if not self.ordered:
                counts = {scope: len(unit) for scope, unit in self.workqueue.items()}
                for scope in hand_out_order(counts, durations, tuple(SERIAL), ALONE_UNIT):
                    self.workqueue.move_to_end(scope)
                self.ordered = True
            elif ALONE_UNIT in self.workqueue:  # a crashed worker's files come back behind it
                self.workqueue.move_to_end(ALONE_UNIT)
            super()._assign_work_unit(node)

        def _reschedule(self, node: Any) -> None:
            # The `alone` unit waits until every other worker is on its last test: handed out
            # sooner, its first test would hold the files queued on the others until it ended. (A
            # worker holds its last test until it is told the next one or to stop, so "on its
            # last" is one pending test, not none.)
            if list(self.workqueue) == [ALONE_UNIT] and any(
                    self._pending_of(self.assigned_work[other]) > 1 for other in self.nodes if other is not node):
                return
            super()._reschedule(node)
            if not self.workqueue:  # nothing left to hand out: the idle workers may stop
                for other in self.nodes:
                    if other is not node:
                        super()._reschedule(other)

    return ByFileSerialFolderAndAlone(config, log)


_kept_locks: list[int] = []
"""The turnstile and room locks an ``alone`` test keeps for the next one of its unit."""


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Generator[None, object, object]:
    """Under xdist every test holds the run's room lock shared, and a test marked ``alone`` holds it
    exclusive: from its fixtures' set-up (a module fixture may take the measurement) to their
    teardown, no other worker runs a test. A turnstile in front gives the ``alone`` test its turn:
    while it waits for the running tests to end, no new one starts. An ``alone`` test followed by
    another keeps both locks for it: the other workers drain once for the whole unit, not once
    per test (each drain waited for the longest test then running: 15 of them cost minutes)."""
    if worker_id() is None:
        return (yield)
    alone = is_alone(item)
    if _kept_locks:
        turnstile, room = _kept_locks
        _kept_locks.clear()
    else:
        turnstile = os.open(run_folder() / "turnstile.lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        room = os.open(run_folder() / "room.lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        fcntl.flock(turnstile, fcntl.LOCK_EX)
        fcntl.flock(room, fcntl.LOCK_EX if alone else fcntl.LOCK_SH)
        if not alone:
            fcntl.flock(turnstile, fcntl.LOCK_UN)
    keep = alone and nextitem is not None and is_alone(nextitem)
    try:
        return (yield)
    finally:
        if keep:
            _kept_locks.extend((turnstile, room))
        else:
            os.close(room)  # closing lets go of the locks
            os.close(turnstile)
