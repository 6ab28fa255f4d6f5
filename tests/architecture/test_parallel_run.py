"""The parallel test run keeps apart what ``tests/parallel_run.py`` says it keeps apart: a real
``pytest -n 3`` over a small suite of its own, whose tests write when they ran."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]

RECORDING = '''
import json, os, time
from pathlib import Path
from typing import Any

import pytest


@pytest.fixture(autouse=True)
def record(request):
    start = time.monotonic()
    yield
    busy_until = time.monotonic() + float(os.environ["BUSY"])  # work, so that a test beside another overlaps it
    while time.monotonic() < busy_until:
        pass
    line = {"id": request.node.nodeid, "worker": os.environ.get("PYTEST_XDIST_WORKER"),
            "start": start, "end": time.monotonic()}
    with open(Path(os.environ["RECORDS"]), "a") as out:
        out.write(json.dumps(line) + "\\n")
'''

SUITE = {
    "conftest.py": 'pytest_plugins = ("tests.parallel_run", "tests.file_durations")\n' + RECORDING,
    "test_mixed.py": "import pytest\n\n"
                     + "".join(f"def test_plain_{n}():\n    pass\n\n\n" for n in range(6))
                     + '@pytest.mark.alone("host counters")\ndef test_measures():\n    pass\n',
    "test_all_alone.py": 'import pytest\n\npytestmark = pytest.mark.alone("timing")\n\n\n'
                         + "".join(f"def test_timed_{n}():\n    pass\n\n\n" for n in range(2)),
    "test_other.py": "".join(f"def test_other_{n}():\n    pass\n\n\n" for n in range(24)),
    "test_third.py": "".join(f"def test_third_{n}():\n    pass\n\n\n" for n in range(4)),
}


def run_suite(folder: Path, workers: int, **env_vars: str) -> list[dict[str, Any]]:
    """``SUITE`` run by a real ``pytest -n WORKERS`` in ``folder``: the tests in the order they ended."""
    for name, text in SUITE.items():
        (folder / name).write_text(text)
    records = folder / "records.jsonl"
    env = {**os.environ, "RECORDS": str(records), "PYTHONPATH": str(REPO), "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1",
           "BUSY": "0.05", **env_vars}
    env.pop("PYTEST_XDIST_WORKER", None)
    env.pop("DEHLA_TEST_RUN_FOLDER", None)
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "xdist", "-n", str(workers), "-p",
                          "no:cacheprovider", "--rootdir", str(folder), str(folder)],
                         check=False, cwd=folder, env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    return [json.loads(line) for line in records.read_text().splitlines()]


def test_alone_tests_run_last_on_one_worker_with_no_other_test_beside_them(tmp_path: Path) -> None:
    durations = tmp_path / "durations.json"
    ran = run_suite(tmp_path, 3, DEHLA_TEST_DURATIONS_WRITE=str(durations))
    assert len(ran) == 37
    alone = [test for test in ran if "measures" in test["id"] or "timed" in test["id"]]
    others = [test for test in ran if test not in alone]
    assert len({test["worker"] for test in alone}) == 1
    assert len({test["worker"] for test in others}) > 1  # the rest did run in parallel
    for solo in alone:
        beside = [test["id"] for test in others if test["start"] < solo["end"] and solo["start"] < test["end"]]
        assert beside == [], f"{solo['id']} ran beside {beside}"
    # the unit keeps the room from its first test to its last: the others drain once, not between
    # its tests (test_other.py, the longest file, is still running when the unit is handed out)
    first, last = min(test["start"] for test in alone), max(test["end"] for test in alone)
    between = [test["id"] for test in others if first < test["end"] and test["start"] < last]
    assert between == [], f"ran between the alone tests: {between}"
    # the unit is handed out once every other worker is on its last test: no worker's queued tests
    # wait behind it (before, test_other.py's last twenty ran after it)
    for worker in {test["worker"] for test in others}:
        after = [test["id"] for test in others if test["worker"] == worker and test["start"] >= last]
        assert len(after) <= 1, f"{worker} ran {after} after the alone unit"
    # the plain tests of test_mixed.py ran with their file, not held back with its alone test
    mixed = {test["worker"] for test in others if "test_mixed" in test["id"]}
    assert len(mixed) == 1
    # the controller wrote each file's seconds for the next run's order, the alone tests apart
    written = json.loads(durations.read_text())
    assert sorted(written) == ["test_mixed.py", "test_other.py", "test_third.py"]
    # (each test busy for 0.05 s at least; the seconds are rounded to a tenth)
    assert written["test_other.py"] >= 24 * 0.05 - 0.05 and written["test_third.py"] >= 4 * 0.05 - 0.05


def test_the_files_go_out_longest_first_by_their_recorded_seconds(tmp_path: Path) -> None:
    """One worker, so the order it runs the files in is the order they were handed out: by the
    seconds recorded (the fewest tests first here), not by number of tests (xdist's own order)."""
    recorded = tmp_path / "durations.json"
    recorded.write_text(json.dumps({"test_third.py": 100.0, "test_mixed.py": 50.0, "test_other.py": 1.0}))
    files: list[str] = []
    for test in run_suite(tmp_path, 1, DEHLA_TEST_DURATIONS=str(recorded), BUSY="0"):  # one worker: no overlap
        name = "alone" if "measures" in test["id"] or "timed" in test["id"] else test["id"].split("::")[0]
        if not files or files[-1] != name:
            files.append(name)
    assert files == ["test_third.py", "test_mixed.py", "test_other.py", "alone"]
