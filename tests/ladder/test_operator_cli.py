"""``dehla operator disable / enable / void``, and what ``dehla ladder show`` and ``dehla ladder
matches`` then say; bad input is one line, exit 2, and changes nothing.

The commands run in this process (``tests.cli_helpers.run_dehla``): the subject is what they print
and store, which ``arena.cli.main`` gives here as under ``python -m arena`` (the same
``LazyGroup.main``, program name and environment, ``$DEHLA_DATABASE_URL`` included; a traceback
fails the test; the stores a command opened are closed after it, as a process's exit would).
The history is built once per module and copied for each test. One test runs real processes,
for the entry point of both groups."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ladder.rating.scheduler import Pairing
from tests.cli_helpers import run_dehla
from tests.database import contents, copy_database, database_env, database_url, snapshot
from tests.ladder_helpers import add_bots, open_store
from tests.operator_helpers import Played, play_history


def dehla(data: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return run_dehla(*args, "--data", str(data), env=database_env(data))


def dehla_process(data: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "arena", *args, "--data", str(data)], capture_output=True,
                          text=True, timeout=120, check=False, env=database_env(data))


def ok(out: subprocess.CompletedProcess[str]) -> str:
    assert out.returncode == 0, out.stderr
    return out.stdout


def one_line_error(out: subprocess.CompletedProcess[str], fragment: str) -> None:
    assert out.returncode == 2, (out.returncode, out.stdout, out.stderr)
    assert "Traceback" not in out.stderr and out.stderr.startswith("error: ") and out.stderr.count("\n") == 1
    assert fragment in out.stderr, out.stderr


def dump(data: Path) -> dict[str, list[tuple[object, ...]]]:
    return contents(database_url(data))


def win(a: int, b: int) -> Played:
    return Played(Pairing((a, a), (b, b)), "dehla-pakad", "duplicate:2", "done", 0, (1.0, 2.0), None, ())


@pytest.fixture(scope="module")
def history(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Three bots, three rated matches (ids 1-3) and one queued with s3 (id 4), built once."""
    root = tmp_path_factory.mktemp("history")
    store = open_store(root)
    add_bots(store, ["s1", "s2", "s3"], root / "src")
    play_history(store, [win(1, 2), win(2, 3), win(1, 3), win(3, 1)], skip=3)
    store.close()
    snapshot(root)
    return root


@pytest.fixture()
def data(history: Path, tmp_path: Path) -> Path:
    """A copy of the history's data folder and store, for a test that changes it."""
    root = tmp_path / "data"
    shutil.copytree(history, root)
    copy_database(history, root)
    return root


def test_disable_and_enable_a_bot(data: Path) -> None:
    said = ok(dehla_process(data, "operator", "disable", "s3"))
    assert said.startswith("disabled bot s3 (every version); 1 queued match(es) cancelled") and said.endswith(": 4\n")
    board = json.loads(ok(dehla(data, "ladder", "show", "--json")))
    assert {row["bot"]: row["disabled"] for row in board} == {"s1": False, "s2": False, "s3": True}
    assert "disabled" in ok(dehla_process(data, "ladder", "show"))
    shown = {row["match_id"]: row for row in json.loads(ok(dehla(data, "ladder", "matches", "--json")))}
    assert shown[4]["status"] == "void" and "s3 was disabled by an operator" in shown[4]["voided"]
    again = ok(dehla(data, "operator", "disable", "s3"))
    assert again == "bot s3 (every version) was already disabled: nothing changed\n"
    assert ok(dehla(data, "operator", "enable", "s3")) == "enabled bot s3 (every version)\n"
    assert ok(dehla(data, "operator", "disable", "s1@1")) == "disabled version s1@1\n"
    board = json.loads(ok(dehla(data, "ladder", "show", "--json")))
    assert {row["bot"]: row["disabled"] for row in board} == {"s1": True, "s2": False, "s3": False}


def test_void_a_match_and_void_it_again(data: Path) -> None:
    before = {row["bot"]: row for row in json.loads(ok(dehla(data, "ladder", "show", "--json")))}
    said = ok(dehla(data, "operator", "void", "2", "--reason", "s2 ran on a broken host"))
    assert said.startswith("voided match 2 (s2 ran on a broken host); its rating changes are undone: ")
    after = {row["bot"]: row for row in json.loads(ok(dehla(data, "ladder", "show", "--json")))}
    assert after["s2"]["matches"] == before["s2"]["matches"] - 1 and after["s2"]["mu"] != before["s2"]["mu"]
    shown = {row["match_id"]: row for row in json.loads(ok(dehla(data, "ladder", "matches", "--json")))}
    assert shown[2]["voided"] == "s2 ran on a broken host" and shown[2]["winner"] is None
    assert shown[1]["voided"] is None and shown[1]["winner"] == "A"
    table = ok(dehla(data, "ladder", "matches"))
    assert "voided" in table and "broken host" in table
    unchanged = dump(data)
    again = ok(dehla(data, "operator", "void", "2", "--reason", "again"))
    assert again.startswith("match 2 was already voided (") and again.endswith(
        ": s2 ran on a broken host): nothing changed\n")
    assert dump(data) == unchanged


@pytest.mark.parametrize(("args", "fragment"), [
    (("operator", "disable", "nobody"), "no bot 'nobody'"),
    (("operator", "enable", "s1@7"), "bot 's1' has no version 7"),
    (("operator", "disable", "s1@0"), "name a bot (BOT) or one of its versions"),
    (("operator", "void", "99", "--reason", "x"), "no match 99"),
    (("operator", "void", "4", "--reason", "x"), "match 4 cannot be voided: it is queued"),
    (("operator", "void", "1"), "Missing option '--reason'"),
    (("operator", "void", "1", "--reason", " "), "the reason is empty"),
    (("operator", "void", "1", "--reason", "red\x1b[31m"), "one line of printable text"),
    (("operator", "void", "0", "--reason", "x"), "MATCH_ID"),
    (("operator", "void", "99999999999999999999", "--reason", "x"), "MATCH_ID"),
])
def test_bad_input_is_one_line_exit_2_and_changes_nothing(data: Path, args: tuple[str, ...], fragment: str) -> None:
    before = dump(data)
    one_line_error(dehla(data, *args), fragment)
    assert dump(data) == before
