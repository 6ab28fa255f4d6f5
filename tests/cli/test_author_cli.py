"""``dehla author add / token / list``: a token is printed once, alone on stdout, and never again
(not by ``list``, not in the store); bad input is one line, exit 2.

The commands run in this process (``tests.cli_helpers.run_dehla``): the subject is what they
print and store, which ``arena.cli.main`` gives here as under ``python -m arena`` (the same
``LazyGroup.main``, program name and environment; a traceback fails the test); each command
opens and closes its own store, as a process would. One test runs real processes, for the entry
point and the token on a real process's stdout."""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from ladder.admin.authors import authenticate
from ladder.store.database import Store
from ladder.store.paths import ArenaData
from tests.cli_helpers import run_dehla


def dehla(data: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return run_dehla(*args, "--data", str(data))


def dehla_process(data: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "arena", *args, "--data", str(data)], capture_output=True,
                          text=True, timeout=120, check=False)


def assert_one_line_error(out: subprocess.CompletedProcess[str], *fragments: str) -> None:
    assert out.returncode == 2, (out.returncode, out.stderr)
    assert "Traceback" not in out.stderr and out.stdout == ""
    assert out.stderr.startswith("error: ") and out.stderr.count("\n") == 1, out.stderr
    for fragment in fragments:
        assert fragment in out.stderr, out.stderr


def store(data: Path) -> Store:
    return Store.open(ArenaData(data, f"sqlite:///{data / 'ladder.db'}"))


def everything_stored(data: Path) -> str:
    """Every value in the store's database, as text (to look for a token in)."""
    with sqlite3.connect(data / "ladder.db") as connection:
        return "\n".join(str(row) for row in connection.iterdump())


def test_a_token_is_printed_once_and_works_until_rotated_or_revoked(tmp_path: Path) -> None:
    data = tmp_path / "data"
    added = dehla(data, "author", "add", "asha", "--email", "asha@example.org")
    assert added.returncode == 0, added.stderr
    token = added.stdout.strip()
    assert added.stdout == token + "\n" and token.startswith("dehla_")
    assert "shown only this once" in added.stderr and token not in added.stderr
    assert authenticate(store(data), token) is not None

    listed = dehla(data, "author", "list", "--json")
    assert json.loads(listed.stdout) == [{"name": "asha", "email": "asha@example.org", "role": "author",
                                          "token": "active"}]
    table = dehla(data, "author", "list")
    secret = token.split("_", 2)[2]
    for shown in (listed, table):
        assert secret not in shown.stdout + shown.stderr
    assert secret not in everything_stored(data)  # only its hash

    rotated = dehla(data, "author", "token", "asha", "--rotate")
    assert rotated.returncode == 0, rotated.stderr
    new = rotated.stdout.strip()
    assert new != token and authenticate(store(data), token) is None and authenticate(store(data), new) is not None

    revoked = dehla(data, "author", "token", "asha", "--revoke")
    assert revoked.returncode == 0 and new not in revoked.stdout
    assert authenticate(store(data), new) is None
    assert json.loads(dehla(data, "author", "list", "--json").stdout)[0]["token"] == "revoked"


def test_an_operator_is_added_with_the_operator_role(tmp_path: Path) -> None:
    data = tmp_path / "data"
    token = dehla(data, "author", "add", "olga", "--operator").stdout.strip()
    found = authenticate(store(data), token)
    assert found is not None and found.is_operator
    assert json.loads(dehla(data, "author", "list", "--json").stdout)[0]["role"] == "operator"


@pytest.fixture(scope="module")
def asha(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data folder whose store has the author asha, copied by each test that changes it (the
    store's migrations and the first ``author add`` run once)."""
    data = tmp_path_factory.mktemp("asha") / "data"
    assert dehla(data, "author", "add", "asha").returncode == 0
    return data


@pytest.mark.parametrize(("args", "fragments"), [
    (("author", "add", "Bad Name"), ("author name 'Bad Name'",)),
    (("author", "add", "asha", "--email", "nope"), ("e-mail 'nope'",)),
    (("author", "add", "asha\x1b[2J"), ("\\x1b",)),
    (("author", "token", "nobody", "--rotate"), ("no author 'nobody'",)),
    (("author", "token", "nobody", "--revoke"), ("no author 'nobody'",)),
    (("author", "token", "asha"), ("one of --rotate and --revoke",)),
    (("author", "token", "asha", "--rotate", "--revoke"), ("one of --rotate and --revoke",)),
])
def test_bad_input_is_one_line_and_exit_2(asha: Path, tmp_path: Path, args: tuple[str, ...],
                                          fragments: tuple[str, ...]) -> None:
    data = tmp_path / "data"
    shutil.copytree(asha, data)
    before = everything_stored(data)
    assert_one_line_error(dehla(data, *args), *fragments)
    assert everything_stored(data) == before


def test_adding_an_author_twice_is_refused_and_keeps_the_first_token(tmp_path: Path) -> None:
    data = tmp_path / "data"
    token = dehla_process(data, "author", "add", "asha").stdout.strip()
    assert_one_line_error(dehla_process(data, "author", "add", "asha"), "author 'asha' exists already", "--rotate")
    assert authenticate(store(data), token) is not None
