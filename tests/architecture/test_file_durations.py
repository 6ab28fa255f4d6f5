"""The order in which the parallel run hands out its units (``tests/file_durations.py``): the
serial chains first, then the longest files, the ``alone`` unit last; and the recorded seconds
it reads, refused with the file and the entry named when they are not seconds."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.file_durations import (
    DURATIONS_FILE,
    POSTGRESQL_DURATIONS_FILE,
    DurationsFileError,
    durations_file,
    hand_out_order,
    read_durations,
)

UNITS = {"tests/a.py": 10, "tests/serial/": 40, "alone": 5, "tests/b.py": 2, "tests/c.py": 30, "tests/d.py": 3}


def test_serial_chains_first_then_the_longest_recorded_files_and_alone_last() -> None:
    durations = {"tests/a.py": 5.0, "tests/b.py": 40.0, "tests/c.py": 12.0, "tests/d.py": 12.0}
    order = hand_out_order(UNITS, durations, ("tests/serial/",), "alone")
    # b has few tests but took longest; c and d took as long: by name
    assert order == ["tests/serial/", "tests/b.py", "tests/c.py", "tests/d.py", "tests/a.py", "alone"]


def test_a_file_not_recorded_is_expected_at_the_recorded_rate_per_test() -> None:
    # recorded: 20 s over the 12 tests of a and b; c's 30 tests are expected at 50 s, d's 3 at 5 s
    order = hand_out_order(UNITS, {"tests/a.py": 16.0, "tests/b.py": 4.0}, ("tests/serial/",), "alone")
    assert order == ["tests/serial/", "tests/c.py", "tests/a.py", "tests/d.py", "tests/b.py", "alone"]


def test_nothing_recorded_orders_by_number_of_tests() -> None:
    order = hand_out_order(UNITS, {}, ("tests/serial/",), "alone")
    assert order == ["tests/serial/", "tests/c.py", "tests/a.py", "tests/d.py", "tests/b.py", "alone"]


def test_entries_of_files_that_are_gone_are_ignored_and_a_missing_unit_is_not_invented() -> None:
    order = hand_out_order({"tests/a.py": 1}, {"tests/gone.py": 99.0}, ("tests/serial/",), "alone")
    assert order == ["tests/a.py"]


def test_a_missing_file_is_no_durations(tmp_path: Path) -> None:
    assert read_durations(tmp_path / "none.json") == {}


@pytest.mark.parametrize("path", [DURATIONS_FILE, POSTGRESQL_DURATIONS_FILE], ids=lambda p: p.name)
def test_the_repositorys_durations_are_valid_and_name_test_files(path: Path) -> None:
    durations = read_durations(path)
    assert durations, f"{path} is missing or empty"
    assert all(name.startswith("tests/") and name.endswith(".py") for name in durations)


def test_each_database_reads_the_seconds_of_its_own_pass() -> None:
    """A file whose tests skip on SQLite is recorded there at 0 s and would go out last in the
    PostgreSQL pass; that pass reads the seconds it took there."""
    assert durations_file({}) == DURATIONS_FILE
    assert durations_file({"DEHLA_TEST_DATABASE": "postgresql"}) == POSTGRESQL_DURATIONS_FILE
    assert durations_file({"DEHLA_TEST_DATABASE": "postgresql", "DEHLA_TEST_DURATIONS": "x.json"}) == Path("x.json")
    sqlite, postgresql = read_durations(DURATIONS_FILE), read_durations(POSTGRESQL_DURATIONS_FILE)
    skipped_on_sqlite = "tests/ladder/test_ladder_coordinators.py"
    assert sqlite.get(skipped_on_sqlite, 0.0) == 0.0 < postgresql[skipped_on_sqlite]
    assert all(name.startswith(("tests/ladder/", "tests/web/", "tests/cluster/")) for name in postgresql)


@pytest.mark.parametrize(("text", "says"), [
    ("{", "not JSON"),
    ("[1, 2]", "expected an object"),
    ('{"tests/a.py": -1}', "'tests/a.py' has -1"),
    ('{"tests/a.py": "5"}', "'tests/a.py' has '5'"),
    ('{"tests/a.py": true}', "'tests/a.py' has True"),
    ('{"tests/a.py": NaN}', "'tests/a.py' has nan"),
])
def test_bad_durations_are_refused_naming_the_file_and_the_entry(tmp_path: Path, text: str, says: str) -> None:
    path = tmp_path / "durations.json"
    path.write_text(text)
    with pytest.raises(DurationsFileError, match=str(path)) as refused:
        read_durations(path)
    assert says in str(refused.value)
