"""Local matches (``dehla match`` records in ``DATA/local-matches/``) in the web face, in process:
the list, a match's page, its replay data, and what an untrusted file in the folder cannot do."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from arena.referee.in_process import play_in_process
from arena.replay.bidding_frames import replay_bidding_hand
from arena.replay.frames import parse_perspective, replay_hand
from ladder.admin.authors import add_author
from ladder.store.database import Store
from ladder.store.paths import ArenaData
from ladder.store.schema import Role
from ladder.web.app import create_app
from ladder.web.local_matches import read_local
from sample_bots.random.bot import RandomBot
from tests.web.identity_fixtures import CSRF_INPUT

RECORD = Path(__file__).resolve().parents[1] / "records" / "match-before-schema-version.jsonl"
"""A real duplicate match of one deal (two hands) that ``dehla match`` wrote."""
GOOD = "match-20261201-094611-1"
HOSTILE = '<script>alert(1)</script><img src=x onerror=alert(2)>'
SECRET = "THE-SECRET-LINE"


def record_lines() -> list[dict[str, object]]:
    return [json.loads(line) for line in RECORD.read_text().splitlines()]


def write_record(folder: Path, name: str, lines: list[dict[str, object]]) -> Path:
    path = folder / f"{name}.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


@pytest.fixture
def data(tmp_path: Path) -> ArenaData:
    root = tmp_path / "data"
    folder = root / "local-matches"
    folder.mkdir(parents=True)
    shutil.copy(RECORD, folder / f"{GOOD}.jsonl")
    os.utime(folder / f"{GOOD}.jsonl", (1_800_000_000, 1_800_000_000))
    (folder / f"{GOOD}.seat0.log").write_text("a bot's log, not a record\n")
    return ArenaData.locate(root)


@pytest.fixture
def client(data: ArenaData) -> TestClient:
    return TestClient(create_app(data))


def rows(html: str) -> int:
    return html.count("<tr data-match-id=")


def test_the_list_shows_each_local_match_with_its_partnerships_format_and_result(client: TestClient) -> None:
    listing = client.get("/api/local-matches").json()
    assert listing["total"] == 1
    [row] = listing["matches"]
    assert row | {"modified": None} == {
        "match_id": GOOD, "page": f"/local/{GOOD}", "modified": None, "preset": "dehla-pakad",
        "match_format": "duplicate:1", "team_a": "random", "team_b": "random", "status": "done",
        "score": [1.0, 2.0], "winner": "B", "hands": 2, "faults": 0, "problem": None,
        "live": None}
    assert row["modified"] == "2027-01-15 08:00"  # the file's time (UTC): when the match ended
    page = client.get("/local")
    assert page.status_code == 200 and rows(page.text) == 1 and f'href="/local/{GOOD}"' in page.text
    assert 'id="nav-local"' in client.get("/").text  # the tab beside the ladder's pages


def test_a_match_page_links_each_hand_to_the_ladders_viewer(client: TestClient) -> None:
    detail = client.get(f"/api/local-matches/{GOOD}").json()
    assert detail["record_problem"] is None and detail["seats"] == ["random"] * 4
    assert [link["replay"] for link in detail["hand_links"]] == [f"/local/{GOOD}/replay?hand=1",
                                                                 f"/local/{GOOD}/replay?hand=2"]
    assert detail["deal_scores"] == [-1.0] and len(detail["move_times"]) == 4
    page = client.get(f"/local/{GOOD}").text
    assert 'id="hands"' in page and 'id="deal-scores"' in page and 'id="move-times"' in page
    viewer = client.get(f"/local/{GOOD}/replay?hand=1&duplicate=1")
    assert viewer.status_code == 200
    assert f'data-api="/api/local-matches/{GOOD}/hands/"' in viewer.text and 'id="table-b"' in viewer.text
    assert f'href="/local/{GOOD}" id="match-page"' in viewer.text


@pytest.mark.parametrize("seat", ["all", "none", "0", "3"])
def test_the_replay_data_is_the_frames_of_the_checked_record(client: TestClient, data: ArenaData,
                                                             seat: str) -> None:
    body = client.get(f"/api/local-matches/{GOOD}/hands/1/replay", params={"seat": seat}).json()
    record = read_local(data.root, GOOD)
    assert body["match_id"] == GOOD and body["hands"] == 2
    assert body["replay"] == replay_hand(record.hands[0].record, parse_perspective(seat)).model_dump(mode="json")
    assert body["pair"]["other_hand"] == 2  # the duplicate twin, as for a ladder match
    assert body["tens"] is None  # only a tens:N match has a tens tally
    missing = client.get(f"/api/local-matches/{GOOD}/hands/3/replay")
    assert missing.status_code == 404 and missing.json()["detail"] == f"local match {GOOD} has no hand 3 (it has 2)"


def test_a_bad_file_says_why_on_its_row_and_its_page_and_never_breaks_the_list(
        client: TestClient, data: ArenaData) -> None:
    folder = data.root / "local-matches"
    (folder / "not-json.jsonl").write_text("{oops\n")
    lines = record_lines()
    lines[1]["record"]["actions"][3]["action"] = "play 2Z"  # type: ignore[index]
    write_record(folder, "bad-hand", lines)
    (folder / "binary.jsonl").write_bytes(b"\xff\xfe\n")
    listing = {row["match_id"]: row for row in client.get("/api/local-matches").json()["matches"]}
    assert listing[GOOD]["problem"] is None
    assert listing["not-json"]["problem"] == "line 1 is not JSON"
    assert listing["binary"]["problem"] == "not UTF-8 text (byte 0)"
    # The list reads first and last lines only; the page checks every hand and names the line.
    assert listing["bad-hand"]["problem"] is None
    page = client.get("/local/bad-hand")
    assert page.status_code == 200 and 'id="record-problem"' in page.text
    problem = client.get("/api/local-matches/bad-hand").json()["record_problem"]
    assert problem.startswith("local match bad-hand: bad-hand.jsonl:2: hand 1: ") and "2Z" in problem
    assert client.get("/local/bad-hand/replay?hand=1").status_code == 200  # the error page, with why
    assert "cannot be read" in client.get("/local/bad-hand/replay?hand=1").text
    assert client.get("/api/local-matches/bad-hand/hands/1/replay").status_code == 422
    html = client.get("/local")
    assert html.status_code == 200 and rows(html.text) == 4 and html.text.count('data-problem="true"') == 2


def test_names_from_a_record_are_escaped_everywhere(client: TestClient, data: ArenaData) -> None:
    lines = record_lines()
    lines[0]["seats"] = [HOSTILE] * 4
    lines[0]["preset"] = HOSTILE
    write_record(data.root / "local-matches", "hostile", lines)
    for url in ["/local", "/local/hostile", "/local/hostile/replay?hand=1"]:
        page = client.get(url)
        assert page.status_code == 200, url
        assert HOSTILE not in page.text and "&lt;script&gt;" in page.text, url


ATTEMPTS = ["..%2Fsecret", "..%2f..%2fsecret", "%2e%2e%2fsecret", "a.b", "x%00y", "..", "%2E%2E",
            "local-matches%2F..%2Fsecret", "-", "a" * 121]


def test_an_id_that_is_not_a_record_name_is_refused_before_a_file_is_named(
        client: TestClient, data: ArenaData) -> None:
    write_record(data.root, "secret", [*record_lines()[:1], {"type": "note", "text": SECRET}])
    # Without the id check, the name joined to the folder reaches the file outside it:
    assert SECRET in (data.root / "local-matches" / "../secret.jsonl").read_text()
    for attempt in ATTEMPTS:
        for url in [f"/local/{attempt}", f"/local/{attempt}/record", f"/api/local-matches/{attempt}",
                    f"/api/local-matches/{attempt}/hands/1/replay", f"/local/{attempt}/replay"]:
            response = client.get(url)
            assert SECRET not in response.text, url
            # Refused (404, 422), or the client itself resolved ``..`` to another page (``/local/..`` is ``/``).
            assert response.status_code in (404, 422) or 'data-local="true"' not in response.text, url


def test_a_link_in_the_folder_is_not_followed(client: TestClient, data: ArenaData) -> None:
    outside = write_record(data.root, "outside", [*record_lines()[:1], {"type": "note", "text": SECRET}])
    (data.root / "local-matches" / "linked.jsonl").symlink_to(outside)
    assert SECRET in (data.root / "local-matches" / "linked.jsonl").read_text()  # what following it would give
    assert "linked" not in client.get("/api/local-matches").text
    for url in ["/local/linked", "/local/linked/record", "/api/local-matches/linked/hands/1/replay"]:
        response = client.get(url)
        assert response.status_code == 404 and SECRET not in response.text, url


def test_fault_evidence_is_withheld_from_the_public(client: TestClient, data: ArenaData) -> None:
    lines = record_lines()
    lines[-1]["faults"] = [{"seat": 1, "kind": "crash", "detail": "it crashed", "evidence": SECRET}]
    path = write_record(data.root / "local-matches", "faulty", lines)
    assert SECRET in path.read_text()
    detail = client.get("/api/local-matches/faulty").json()
    assert detail["faults"][0]["detail"] == "it crashed" and detail["faults"][0]["evidence"] is None
    assert detail["faults"][0]["evidence_withheld"] is True
    assert SECRET not in client.get("/local/faulty").text
    download = client.get("/local/faulty/record")
    assert download.status_code == 200 and SECRET not in download.text and "it crashed" in download.text

    store = Store.open(data)
    try:
        token = add_author(store, "omar", role=Role.OPERATOR).token
    finally:
        store.close()
    operator = {"Authorization": f"Bearer {token}"}
    assert client.get("/api/local-matches/faulty", headers=operator).json()["faults"][0]["evidence"] == SECRET
    assert client.get("/api/local-matches/faulty", headers={"Authorization": "Bearer dehla_1_nonsense"}
                      ).status_code == 401  # a bad token is refused, never read as the public
    signin = client.get("/signin").text
    csrf = CSRF_INPUT.search(signin)
    assert csrf is not None
    assert client.post("/signin", data={"csrf_token": csrf.group(1), "token": token},
                       follow_redirects=False).status_code == 303
    assert SECRET in client.get("/local/faulty").text and SECRET in client.get("/local/faulty/record").text


def test_an_unfinished_match_and_an_empty_folder(tmp_path: Path) -> None:
    root = tmp_path / "data"
    client = TestClient(create_app(ArenaData.locate(root)))
    assert 'id="empty-local"' in client.get("/local").text
    assert client.get("/api/local-matches?page=2").status_code == 404
    (root / "local-matches").mkdir()
    write_record(root / "local-matches", "running", record_lines()[:2])
    [row] = client.get("/api/local-matches").json()["matches"]
    assert row["status"] == "unfinished" and row["hands"] == 1 and row["score"] is None
    assert "No result yet" in client.get("/local/running").text


def test_a_twenty_eight_match_is_listed_and_its_hands_replay_in_the_viewer(data: ArenaData) -> None:
    """A bidding game's local match: the list, its page and the viewer's page work, each hand's
    data is the bidding frames of the checked record for every perspective, and the names of its
    bots (untrusted) are escaped on every page."""
    name = "match-20261203-070000-5"
    path = data.root / "local-matches" / f"{name}.jsonl"
    play_in_process([RandomBot(s) for s in range(4)], deals=1, seed=5, preset="twenty-eight", record=path)
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    lines[0]["seats"] = [HOSTILE, "b", "c", "d"]
    write_record(data.root / "local-matches", name, lines)
    client = TestClient(create_app(data))
    rows_by_id = {row["match_id"]: row for row in client.get("/api/local-matches").json()["matches"]}
    assert rows_by_id[name]["preset"] == "twenty-eight" and rows_by_id[name]["problem"] is None
    record = read_local(data.root, name)
    for seat in ("all", "none", "1"):
        body = client.get(f"/api/local-matches/{name}/hands/1/replay", params={"seat": seat}).json()
        assert body["replay"] == replay_bidding_hand(record.hands[0].record,
                                                     parse_perspective(seat)).model_dump(mode="json")
        assert body["replay"]["game"] == "bidding" and body["pair"]["other_hand"] == 2
    for url in [f"/local/{name}", f"/local/{name}/replay?hand=1", f"/local/{name}/replay?hand=2&duplicate=1"]:
        page = client.get(url)
        assert page.status_code == 200 and "cannot be read" not in page.text, url
        assert HOSTILE not in page.text and "&lt;script&gt;" in page.text, url
    viewer = client.get(f"/local/{name}/replay?hand=1").text
    assert 'id="auction"' in viewer and 'id="contract"' in viewer and 'id="points-0"' in viewer
