"""Author and bot text is never markup on any page, and a record is only ever read from the store (a store made
before moves in only the files inside its data folder)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import delete, select, update

from ladder.admin.authors import add_author
from ladder.store.database import Store
from ladder.store.paths import ArenaData
from ladder.store.schema import Bot, BotVersion, FaultRow, Match, MatchFile, Role
from ladder.web.app import create_app
from tests.web.identity_fixtures import CSRF_INPUT
from tests.web_helpers import as_legacy_files, copied_ladder, match_file, put_match_file

MARKUP = '"><img src=x onerror=alert(1)><script>alert(2)</script>{{ "zq" ~ "jx" }}'
"""Breaks out of an attribute, runs script two ways, and tries template injection."""


def hostile_copy(played: ArenaData, root: Path) -> ArenaData:
    """A copy of the played ladder with markup in every author- or bot-supplied field."""
    data = copied_ladder(played, root)
    store = Store.open(data)
    with store.transaction() as session:
        session.execute(update(Bot).where(Bot.name == "random").values(name="r" + MARKUP[:30], author=MARKUP))
        session.execute(update(BotVersion).values(label=MARKUP[:64]))
        session.add(FaultRow(match_id=1, version_id=1, seat=0, kind="crash", detail=MARKUP))
        name = session.scalars(select(Match.record_path).where(Match.id == 1)).one()
    store.close()
    lines = [json.loads(line) for line in match_file(data, 1, name).splitlines()]
    for line in lines:
        if line["type"] == "match_start":
            line["seats"] = [MARKUP + str(seat) for seat in range(4)]
        if line["type"] == "match_end":
            line["faults"] = [{"seat": 0, "kind": "crash", "detail": MARKUP, "evidence": MARKUP}]
    put_match_file(data, 1, name, "".join(json.dumps(line) + "\n" for line in lines).encode())
    return data


@pytest.fixture(scope="module")
def hostile(played: ArenaData, tmp_path_factory: pytest.TempPathFactory) -> TestClient:
    """Signed in (pages) and with a bearer token (API) as an operator, who sees fault evidence too."""
    data = hostile_copy(played, tmp_path_factory.mktemp("hostile") / "data")
    token = add_author(Store.open(data), "olga", role=Role.OPERATOR).token
    client = TestClient(create_app(data))
    csrf = CSRF_INPUT.search(client.get("/signin").text)
    assert csrf is not None
    assert client.post("/signin", data={"csrf_token": csrf.group(1), "token": token},
                       follow_redirects=False).status_code == 303
    client.headers["Authorization"] = f"Bearer {token}"
    return client


def pages(client: TestClient) -> list[str]:
    bots = [row["bot"] for row in client.get("/api/leaderboard").json()]
    return ["/", "/?all=1", "/partnerships", "/matches", "/matches/1", "/matches/2", "/fragments/leaderboard",
            "/fragments/matches", "/fragments/partnerships", *(f"/bots/{name}" for name in bots)]


def test_markup_in_every_author_and_bot_field_is_escaped_on_every_page(hostile: TestClient) -> None:
    seen = set()
    for url in pages(hostile):
        response = hostile.get(url)
        assert response.status_code == 200, url
        for raw in ("<img src=x", "<script>alert", "onerror=alert(1)>", "zqjx"):
            assert raw not in response.text.replace("<script src=", ""), (url, raw)
        seen |= {part for part in ("&lt;img src=x", "&#34;&gt;&lt;img", "{{ &#34;zq&#34;") if part in response.text}
    assert seen == {"&lt;img src=x", "&#34;&gt;&lt;img", "{{ &#34;zq&#34;"}
    match = hostile.get("/matches/1").text
    assert match.count("&lt;script&gt;alert(2)&lt;/script&gt;") >= 4 + 2  # four seat names, detail and evidence


def test_the_markup_really_reached_the_pages(hostile: TestClient) -> None:
    """The negative control: the fields carry the markup (so the test above would see it unescaped)."""
    detail = hostile.get("/api/matches/1").json()
    assert detail["move_times"][0]["bot"] == MARKUP + "0"
    assert detail["faults"][0]["evidence"] == MARKUP
    bot = next(row["bot"] for row in hostile.get("/api/leaderboard").json() if row["bot"].startswith("r\""))
    assert hostile.get(f"/api/bots/{bot}").json()["self_described"] == MARKUP


def test_a_record_linked_out_of_the_data_folder_is_neither_read_nor_served(
        played: ArenaData, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """A store made before: the upgrade that moves its files in (migration 0010) leaves a link out."""
    root = tmp_path / "data"
    data = copied_ladder(played, root)
    as_legacy_files(data)  # a match stored before: its files under the data folder
    secret = tmp_path / "secret.jsonl"
    secret.write_text('{"type": "secret"}\n')
    record = root / "matches" / "m000001.jsonl"
    record.unlink()
    record.symlink_to(secret)
    client = TestClient(create_app(data))
    assert "matches/m000001.jsonl is a link; left where it is" in caplog.text
    download = client.get("/matches/1/record")
    assert download.status_code == 404
    assert "secret" not in download.text
    assert "not in the store; not read" in download.text
    assert "not in the store; not read" in client.get("/matches/1").text


def test_a_record_under_a_folder_linked_out_of_the_data_folder_is_neither_read_nor_served(
        played: ArenaData, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """The file itself is no link here: its folder is. ``O_NOFOLLOW`` alone would follow it; the
    check of the opened file's real path refuses it."""
    root = tmp_path / "data"
    data = copied_ladder(played, root)
    as_legacy_files(data)  # a match stored before: its files under the data folder
    outside = tmp_path / "outside"
    shutil.move(root / "matches", outside)
    (outside / "m000001.jsonl").write_text('{"type": "secret"}\n')
    (root / "matches").symlink_to(outside, target_is_directory=True)
    client = TestClient(create_app(data))
    assert "matches/m000001.jsonl links outside the data folder; left where it is" in caplog.text
    download = client.get("/matches/1/record")
    assert download.status_code == 404
    assert "secret" not in download.text
    assert "not in the store; not read" in download.text
    assert "not in the store; not read" in client.get("/matches/1").text


def test_a_broken_record_is_a_page_that_says_which_and_why(played: ArenaData, tmp_path: Path) -> None:
    root = tmp_path / "data"
    data = copied_ladder(played, root)
    as_legacy_files(data)  # a match stored before: its files under the data folder, moved in as they are
    (root / "matches" / "m000002.jsonl").write_text('{"type": "match_start", "oops": 1}\nnot json\n')
    client = TestClient(create_app(data))
    stored = "m000002.jsonl"
    page = client.get("/matches/2")
    assert page.status_code == 200
    assert 'id="record-problem"' in page.text and f"record {stored}" in page.text
    assert client.get("/api/matches/2").json()["record_problem"].startswith(f"match 2: record {stored}:")
    store = Store.open(data)
    with store.transaction() as session:
        session.execute(delete(MatchFile).where(MatchFile.match_id == 2))
    store.close()
    assert client.get("/matches/2/record").status_code == 404
    assert "not in the store" in client.get("/matches/2/record").text
