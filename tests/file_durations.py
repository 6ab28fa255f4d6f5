"""How long each test file takes, so that the parallel run hands out the longest files first.

Under xdist a file given out last that runs for forty seconds leaves the other workers idle
until it ends; handing out the longest files first ends the workers close together (longest
processing time first). The seconds are a hint recorded by an earlier run
(``tests/file_durations.json``): a stale or missing entry changes the order in which files are
handed out, never which tests run or what they check.

- ``DEHLA_TEST_DURATIONS_WRITE=PATH``: a run that ends (passed or not; not one cut short)
  writes, per file, the seconds its tests took (set-up, call and teardown, summed; the ``alone``
  tests apart: they are one unit of their own, always last). Regenerate the hint with
  ``DEHLA_TEST_DURATIONS_WRITE=tests/file_durations.json .venv/bin/python -m pytest -q -n 4``.
- The PostgreSQL pass reads its own, ``tests/file_durations_postgresql.json``: its files take
  other times there, and the files whose tests skip on SQLite were recorded at 0 s and went out
  last (``test_ladder_coordinators.py``: 37 s of one worker at the pass's end). Regenerate it with
  ``.ci/run``'s PostgreSQL command, ``DEHLA_TEST_DURATIONS_WRITE=tests/file_durations_postgresql.json``
  before it.
"""

from __future__ import annotations

import json
import math
import os
from collections import defaultdict
from collections.abc import Mapping
from pathlib import Path

import pytest

from tests.database import TEST_DATABASE_ENV

DURATIONS_FILE = Path(__file__).with_name("file_durations.json")
POSTGRESQL_DURATIONS_FILE = Path(__file__).with_name("file_durations_postgresql.json")
READ_ENV = "DEHLA_TEST_DURATIONS"
"""Another file of recorded seconds to read instead (``tests/architecture/test_parallel_run.py``'s own suite)."""
WRITE_ENV = "DEHLA_TEST_DURATIONS_WRITE"


class DurationsFileError(ValueError):
    """The recorded durations are not a JSON object of file paths to seconds."""


def file_of(nodeid: str) -> str:
    return nodeid.split("::", 1)[0]


def durations_file(environ: Mapping[str, str]) -> Path:
    """The recorded seconds for a run in ``environ``: ``$DEHLA_TEST_DURATIONS``, else the
    PostgreSQL pass's or the SQLite run's."""
    if environ.get(READ_ENV):
        return Path(environ[READ_ENV])
    return POSTGRESQL_DURATIONS_FILE if environ.get(TEST_DATABASE_ENV) == "postgresql" else DURATIONS_FILE


def read_durations(path: Path | None = None) -> dict[str, float]:
    """The recorded seconds per test file (``path``, else ``durations_file``'s); none if nothing
    was recorded."""
    if path is None:
        path = durations_file(os.environ)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    try:
        loaded = json.loads(text)
    except json.JSONDecodeError as error:
        raise DurationsFileError(f"{path}: not JSON ({error.msg} at line {error.lineno})") from None
    if not isinstance(loaded, dict):
        raise DurationsFileError(f"{path}: expected an object of test files to seconds")
    for name, seconds in loaded.items():
        if isinstance(seconds, bool) or not isinstance(seconds, int | float) or not math.isfinite(seconds) \
                or seconds < 0:
            raise DurationsFileError(f"{path}: {name!r} has {seconds!r}, not a number of seconds")
    return {name: float(seconds) for name, seconds in loaded.items()}


def expected_seconds(test_count: int, recorded: float | None, seconds_per_test: float) -> float:
    """A unit's expected seconds: what its file took last time, or its tests at the mean rate."""
    return recorded if recorded is not None else test_count * seconds_per_test


def hand_out_order(units: Mapping[str, int], durations: Mapping[str, float], first: tuple[str, ...],
                   last: str) -> list[str]:
    """The units (name to number of tests) in the order to hand them out: ``first`` as given
    (the serial chains), then the longest expected first, ``last`` at the end."""
    known = [name for name in units if name in durations]
    known_tests = sum(units[name] for name in known)
    per_test = sum(durations[name] for name in known) / known_tests if known_tests else 1.0
    rest = [name for name in units if name not in first and name != last]
    rest.sort(key=lambda name: (-expected_seconds(units[name], durations.get(name), per_test), name))
    return [name for name in first if name in units] + rest + ([last] if last in units else [])


_seconds: defaultdict[str, float] = defaultdict(float)


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """(In the controller, or a run without workers) every phase of every test, as reported."""
    if os.environ.get(WRITE_ENV) and "PYTEST_XDIST_WORKER" not in os.environ \
            and "alone" not in report.keywords:
        _seconds[file_of(report.nodeid)] += report.duration


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    target = os.environ.get(WRITE_ENV)
    if not target or "PYTEST_XDIST_WORKER" in os.environ \
            or exitstatus not in (pytest.ExitCode.OK, pytest.ExitCode.TESTS_FAILED):
        return  # a run cut short knows only some of its files
    recorded = {name: round(seconds, 1) for name, seconds in sorted(_seconds.items())}
    Path(target).write_text(json.dumps(recorded, indent=1) + "\n", encoding="utf-8")
