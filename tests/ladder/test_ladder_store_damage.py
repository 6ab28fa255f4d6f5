"""A damaged, empty or foreign ``ladder.db``: every store command exits 2 with one line and the
file is left exactly as it was. On the old code a damaged page gave a SQLAlchemy traceback and a
0-byte file was silently taken for a new store (checked: these tests fail there).

The commands run in this process (``tests.cli_helpers.run_dehla``): the subject is the refusal
line, the exit code and the bytes of the file, which ``arena.cli.main`` gives here as under
``python -m arena`` (the same ``LazyGroup.main``, program name and environment; a traceback fails
the test; a store a command opened is closed after it, as a process's exit would). The two-bot
store is built once and copied. One test runs a real process, for the entry point."""

from __future__ import annotations

import hashlib
import shutil
import sqlite3
import subprocess
from pathlib import Path

import pytest

from tests.cli_helpers import run_dehla
from tests.coordinator_helpers import clean_env
from tests.coordinator_helpers import dehla as dehla_process
from tests.ladder_helpers import add_bots, open_store

COMMANDS = [
    ("ladder", "run", "--matches", "1", "--runner", "local"),
    ("ladder", "show"),
    ("ladder", "matches"),
    ("ladder", "partnerships"),
    ("ladder", "history", "s1"),
    ("bots",),
    ("submit", "--sample", "random", "--runner", "local"),
]

pytestmark = pytest.mark.sqlite_only("the store file itself: damaged pages, foreign files, the SQLite header")


def dehla(*args: str, data: Path) -> subprocess.CompletedProcess[str]:
    return run_dehla(*args, "--data", str(data), env=clean_env(data))


@pytest.fixture(scope="module")
def two_bots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store with two bots, its WAL folded into ``ladder.db`` (so the file holds every page),
    built once; ``a_store`` copies it."""
    root = tmp_path_factory.mktemp("two-bots") / "arena"
    store = open_store(root)
    add_bots(store, ["s1", "s2"], root.parent / "src")
    store.close()
    with sqlite3.connect(root / "ladder.db") as connection:
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return root


def a_store(two_bots: Path, root: Path) -> Path:
    """A copy of the two-bot store's data folder at ``root``: its ``ladder.db``."""
    shutil.copytree(two_bots, root)
    return root / "ladder.db"


def damage(database: Path, how: str) -> None:
    """Damage the first page of the ``bot_versions`` table: ``garbage`` (SQLite says the image is
    malformed) or ``no cells`` (a page header that says the page is empty: the rows read as none)."""
    with sqlite3.connect(database) as connection:
        page_size = connection.execute("PRAGMA page_size").fetchone()[0]
        root = connection.execute("SELECT rootpage FROM sqlite_master WHERE name = 'bot_versions'").fetchone()[0]
    with database.open("r+b") as file:
        if how == "garbage":
            file.seek((root - 1) * page_size)
            file.write(b"\xa5" * page_size)
        else:
            file.seek((root - 1) * page_size + 3)  # the page header's cell count
            file.write(b"\0\0")


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def assert_refused(out: subprocess.CompletedProcess[str], message: str) -> None:
    assert out.returncode == 2, (out.returncode, out.stderr)
    assert "Traceback" not in out.stderr and out.stderr.count("\n") == 1, out.stderr
    assert out.stderr.startswith("error: ") and message in out.stderr, out.stderr
    assert out.stdout == ""


@pytest.mark.parametrize("how", ["garbage", "no cells"])
def test_a_damaged_page_is_one_line_and_exit_2_for_every_store_command(two_bots: Path, tmp_path: Path,
                                                                       how: str) -> None:
    data = tmp_path / "arena"
    database = a_store(two_bots, data)
    damage(database, how)
    before = digest(database)
    for command in COMMANDS:
        out = dehla(*command, data=data)
        assert_refused(out, f"store {database} is damaged (")
        assert digest(database) == before, command


@pytest.mark.parametrize(("content", "message"), [
    (b"", "is empty (0 bytes): not a ladder store, left untouched"),
    (b"name,mu\nace,25\n", "is not an SQLite database: not a ladder store, left untouched"),
])
def test_a_file_that_is_not_a_store_is_never_overwritten(tmp_path: Path, content: bytes, message: str) -> None:
    data = tmp_path / "arena"
    data.mkdir()
    (data / "ladder.db").write_bytes(content)
    for command in COMMANDS:
        assert_refused(dehla(*command, data=data), f"store {data / 'ladder.db'} {message}")
        assert (data / "ladder.db").read_bytes() == content
    assert sorted(p.name for p in data.iterdir()) == ["ladder.db"]  # not even a WAL file


def test_another_programs_sqlite_database_is_never_migrated(tmp_path: Path) -> None:
    data = tmp_path / "arena"
    data.mkdir()
    with sqlite3.connect(data / "ladder.db") as connection:
        connection.execute("CREATE TABLE notes (body TEXT)")
    before = digest(data / "ladder.db")
    assert_refused(dehla_process("bots", data=data), "a database with tables but not a ladder store")
    assert digest(data / "ladder.db") == before


def test_no_file_yet_is_a_new_empty_store(tmp_path: Path) -> None:
    out = dehla("bots", "--json", data=tmp_path / "arena")
    assert out.returncode == 0 and out.stdout.strip() == "[]", out.stderr
    assert (tmp_path / "arena" / "ladder.db").stat().st_size > 0


def test_a_limit_beyond_sqlite_integers_is_refused(two_bots: Path, tmp_path: Path) -> None:
    data = tmp_path / "arena"
    a_store(two_bots, data)
    out = dehla("ladder", "matches", "--limit", "99999999999999999999", data=data)
    assert out.returncode == 2 and "Traceback" not in out.stderr, out.stderr
    assert "'--limit'" in out.stderr and "1<=x<=100000" in out.stderr, out.stderr
    assert dehla("ladder", "matches", "--limit", "100000", data=data).returncode == 0
