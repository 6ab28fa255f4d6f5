"""Every reader of a match's files reads the store, and a store made before (its files under the
data folder) still reads: the match page, its API, the record download, the replay, the seat
logs, and ``dehla replay --match``. The session's played ladder keeps its files in the store;
``as_legacy_files`` turns a copy into a store of before.

``dehla replay --match`` runs in this process (``tests.cli_helpers.run_dehla``: the same
``LazyGroup.main``, program name and environment as ``python -m arena``, ``$DEHLA_DATABASE_URL``
included; a traceback fails the test; a log warning reaches stderr as in a fresh interpreter):
the subject is what it reads and prints; the replay's real process runs in tests/cli."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text, update

from ladder.admin.authors import add_author
from ladder.store.database import Store
from ladder.store.paths import ArenaData
from ladder.store.schema import MatchFile, Role
from ladder.web.app import create_app
from ladder.web.bot_logs import ROOM_HEADINGS
from tests.cli_helpers import run_dehla
from tests.database import database_env
from tests.web.identity_fixtures import CSRF_INPUT
from tests.web_helpers import as_legacy_files, copied_ladder, match_file, put_match_file

RECORD = "m000001.jsonl"


def operator_client(data: ArenaData) -> TestClient:
    """An operator (who may read every seat's log) with a bearer token."""
    store = Store.open(data)
    token = add_author(store, "olga", role=Role.OPERATOR).token
    store.close()
    client = TestClient(create_app(data))
    csrf = CSRF_INPUT.search(client.get("/signin").text)
    assert csrf is not None
    client.post("/signin", data={"csrf_token": csrf.group(1), "token": token}, follow_redirects=False)
    client.headers["Authorization"] = f"Bearer {token}"
    return client


def readers(client: TestClient) -> dict[str, bytes]:
    """What each reader of match 1 gives: its record (as served), its hands, a seat's log."""
    detail = client.get("/api/matches/1").json()
    assert detail["record_problem"] is None, detail["record_problem"]
    replay = client.get("/api/matches/1/hands/1/replay?seat=all")
    assert replay.status_code == 200, replay.text
    log = client.get("/api/matches/1/logs/0")
    assert log.status_code == 200, log.text
    record = client.get("/matches/1/record")
    assert record.status_code == 200, record.text
    return {"record": record.content, "seats": str(replay.json()["seats"]).encode(),
            "log": log.json()["text"].encode(), "hands": str(len(detail["hand_links"])).encode()}


@pytest.fixture(scope="module")
def stored(played: ArenaData, tmp_path_factory: pytest.TempPathFactory) -> ArenaData:
    return copied_ladder(played, tmp_path_factory.mktemp("stored") / "data")


def test_the_played_ladder_keeps_every_matchs_files_in_the_store_and_none_on_disk(stored: ArenaData) -> None:
    assert not (stored.root / "matches").exists()
    assert match_file(stored, 1, RECORD).count(b'"type":"hand"') >= 1


def test_every_reader_gives_the_same_from_the_store_and_from_a_legacy_file(
        stored: ArenaData, played: ArenaData, tmp_path: Path) -> None:
    from_store = readers(operator_client(stored))
    assert from_store["record"] == match_file(stored, 1, RECORD)
    legacy = copied_ladder(played, tmp_path / "legacy")
    as_legacy_files(legacy)
    assert (legacy.root / "matches" / RECORD).exists()
    from_legacy = readers(operator_client(legacy))
    # A store from before the migration predates the rooms too: it moves in each seat's one log,
    # which the store now shows first, above the second room's.
    assert from_store["log"].startswith(ROOM_HEADINGS[0] + from_legacy["log"] + ROOM_HEADINGS[1])
    assert {**from_legacy, "log": b""} == {**from_store, "log": b""}


def test_the_stored_row_is_read_not_a_file_at_the_legacy_place(played: ArenaData, tmp_path: Path) -> None:
    data = copied_ladder(played, tmp_path / "data")
    (data.root / "matches").mkdir()
    (data.root / "matches" / RECORD).write_text('{"type": "decoy"}\n')
    (data.root / RECORD).write_text('{"type": "decoy"}\n')
    served = TestClient(create_app(data)).get("/matches/1/record")
    assert served.status_code == 200 and b"decoy" not in served.content


def test_a_stored_record_that_does_not_decompress_is_a_page_that_says_so(played: ArenaData, tmp_path: Path) -> None:
    data = copied_ladder(played, tmp_path / "data")
    store = Store.open(data)
    with store.transaction() as session:
        session.execute(update(MatchFile).where(MatchFile.match_id == 1).values(data=b"not zlib at all"))
    store.close()
    client = operator_client(data)
    page = client.get("/matches/1")
    assert page.status_code == 200 and "does not decompress" in page.text
    assert client.get("/matches/1/record").status_code == 404
    assert client.get("/api/matches/1/hands/1/replay").status_code == 422
    log = client.get("/api/matches/1/logs/0")
    assert log.status_code == 404 and "does not decompress" in log.text


def test_a_broken_stored_record_is_a_page_that_says_which_and_why(played: ArenaData, tmp_path: Path) -> None:
    data = copied_ladder(played, tmp_path / "data")
    put_match_file(data, 2, "m000002.jsonl", b'{"type": "match_start", "oops": 1}\nnot json\n')
    client = TestClient(create_app(data))
    page = client.get("/matches/2")
    assert page.status_code == 200 and 'id="record-problem"' in page.text and "record m000002.jsonl" in page.text
    assert client.get("/api/matches/2").json()["record_problem"].startswith("match 2: record m000002.jsonl:")


def replay_match(data: ArenaData, *args: str) -> subprocess.CompletedProcess[str]:
    return run_dehla("replay", *args, "--data", str(data.root), env=database_env(data.root))


def test_dehla_replay_reads_a_match_from_the_store_and_from_a_legacy_file(
        stored: ArenaData, played: ArenaData, tmp_path: Path) -> None:
    from_store = replay_match(stored, "--match", "1")
    assert from_store.returncode == 0 and "result: team" in from_store.stdout, from_store.stderr
    legacy = copied_ladder(played, tmp_path / "legacy")
    as_legacy_files(legacy)
    from_file = replay_match(legacy, "--match", "1")
    assert from_file.returncode == 0, from_file.stderr
    assert from_file.stdout == from_store.stdout


@pytest.mark.parametrize(("args", "message"), [
    (("--match", "99"), "error: no match 99 in the ladder\n"),
    (("--match", "1", "x.jsonl"), "error: give a RECORD file or --match ID (one of them)\n"),
    ((), "error: give a RECORD file or --match ID (one of them)\n"),
])
def test_dehla_replay_says_in_one_line_what_is_wrong(stored: ArenaData, args: tuple[str, ...], message: str) -> None:
    out = replay_match(stored, *args)
    assert out.returncode == 2 and out.stderr == message


def test_dehla_replay_of_a_legacy_path_outside_the_data_folder_is_refused(played: ArenaData, tmp_path: Path) -> None:
    """The upgrade that moves a store's files in (migration 0010) leaves such a file out, and says so."""
    legacy = copied_ladder(played, tmp_path / "legacy")
    as_legacy_files(legacy)
    plain = create_engine(legacy.database_url)  # the store as it is: not upgraded yet
    with plain.begin() as connection:
        connection.execute(text("UPDATE matches SET record_path = '../../../etc/passwd' WHERE id = 1"))
    plain.dispose()
    out = replay_match(legacy, "--match", "1")
    assert out.returncode == 2 and "not in the store; not read" in out.stderr and "root:" not in out.stdout
    assert "../../../etc/passwd is outside the data folder; left where it is" in out.stderr
