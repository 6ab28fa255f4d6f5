"""The replay page and its data over HTTP, on a real ladder's store and on crafted bad records."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from ladder.store.database import Store
from ladder.store.match_files import stored_size
from ladder.store.paths import ArenaData
from ladder.web.app import create_app
from ladder.web.routers.replay import UNREADABLE_STATUS, ReplayResponse
from tests.web_helpers import copied_ladder, match_file, put_match_file

MARKUP = '<script>alert("x")</script><b>'


@pytest.fixture(scope="module")
def client(played: ArenaData) -> TestClient:
    return TestClient(create_app(played))


def record_lines(data: ArenaData, match_id: int) -> list[dict[str, Any]]:
    return [json.loads(line) for line in match_file(data, match_id, f"m{match_id:06d}.jsonl").splitlines()]


def has_record(data: ArenaData, match_id: int) -> bool:
    with Store.open(data).reading() as session:
        return stored_size(session, match_id, f"m{match_id:06d}.jsonl") is not None


def crafted(played: ArenaData, tmp_path: Path, edit: Any) -> TestClient:
    """A copy of the played data folder whose match 1 record has been rewritten by ``edit(lines)``."""
    root = tmp_path / "data"
    data = copied_ladder(played, root)
    lines = record_lines(data, 1)
    edit(lines)
    put_match_file(data, 1, "m000001.jsonl", "".join(json.dumps(line) + "\n" for line in lines).encode())
    return TestClient(create_app(data))


def test_a_hands_data_is_its_record_step_by_step_with_names_and_its_duplicate_twin(
        client: TestClient, played: ArenaData) -> None:
    for match_id in sorted({match_id for match_id, _ in played_hands(played)}):
        lines = record_lines(played, match_id)
        hands = [line for line in lines if line["type"] == "hand"]
        end = next(line for line in lines if line["type"] == "match_end")
        for number, line in enumerate(hands, start=1):
            response = client.get(f"/api/matches/{match_id}/hands/{number}/replay")
            assert response.status_code == 200, response.text
            body = ReplayResponse.model_validate(response.json())
            assert body.seats == lines[0]["seats"] and body.hands == len(hands) and body.hand == number
            assert len(body.replay.steps) == len(line["record"]["actions"]) + 1
            assert body.replay.perspective == "all"
            if len(hands) == 2:  # a match cut short by a fault under load has no twin
                assert body.pair is not None and body.pair.other_hand == 3 - number
                assert body.pair.margin == end["deal_scores"][0], end


def played_hands(data: ArenaData) -> list[tuple[int, int]]:
    """(match, hand) of every hand the ladder's records hold: a match cut short by a fault under
    load holds fewer, so tests take the hands the records name rather than assuming them."""
    found = []
    for match_id in (1, 2):
        if not has_record(data, match_id):
            continue
        hands = [line for line in record_lines(data, match_id) if line["type"] == "hand"]
        found += [(match_id, number) for number in range(1, len(hands) + 1)]
    assert found, "the ladder recorded no hand at all"
    return found


@pytest.mark.parametrize("seat", ["0", "1", "2", "3"])
def test_a_seats_data_shows_no_other_hand(client: TestClient, played: ArenaData, seat: str) -> None:
    for match_id, number in played_hands(played):
        response = client.get(f"/api/matches/{match_id}/hands/{number}/replay?seat={seat}")
        assert response.status_code == 200, response.text
        body = response.json()
        assert body["replay"]["perspective"] == seat
        for step in body["replay"]["steps"]:
            assert [hand["cards"] is not None for hand in step["seats"]] == [str(s) == seat for s in range(4)]


@pytest.mark.parametrize("seat", ["4", "-1", "north", "ALL", "", "0 "])
def test_a_bad_seat_is_422(client: TestClient, seat: str) -> None:
    assert client.get(f"/api/matches/1/hands/1/replay?seat={seat}").status_code == 422
    assert client.get(f"/matches/1/replay?seat={seat}").status_code == 422


def test_unknown_matches_and_hands_are_404(client: TestClient) -> None:
    assert client.get("/api/matches/999/hands/1/replay").status_code == 404
    missing = client.get("/api/matches/1/hands/3/replay")
    assert missing.status_code == 404 and missing.json()["detail"] == "match 1 has no hand 3 (it has 2)"
    assert client.get("/api/matches/1/hands/0/replay").status_code == 404
    page = client.get("/matches/999/replay")
    assert page.status_code == 404 and "no match 999" in page.text
    assert client.get("/matches/1/replay?hand=3").status_code == 404


def test_the_page_restores_hand_step_and_perspective_from_its_link(client: TestClient) -> None:
    page = client.get("/matches/2/replay?hand=2&step=17&seat=3")
    assert page.status_code == 200
    for attribute in ('data-match="2"', 'data-hand="2"', 'data-step="17"', 'data-seat="3"', 'data-duplicate=""'):
        assert attribute in page.text
    assert 'src="http://testserver/static/replay/replay.js"' in page.text
    assert 'data-perspective="3" aria-current="true"' in page.text
    assert client.get("/static/replay/replay.js").status_code == 200
    assert client.get("/static/replay/replay.css").status_code == 200
    assert client.get("/matches/2/replay").text.count('data-seat="all"') == 1


def test_duplicate_side_by_side_shows_both_tables_of_the_deal(client: TestClient) -> None:
    page = client.get("/matches/1/replay?hand=2&seat=1&duplicate=1").text
    assert 'data-duplicate="1"' in page and 'data-other-hand="1"' in page
    assert 'id="table-b"' in page and 'id="pile-b"' in page and 'id="divergence"' in page
    single = client.get("/matches/1/replay?hand=2").text
    assert 'id="table-b"' not in single and "duplicate side by side" in single


def test_markup_in_seat_names_is_escaped_in_the_page_and_plain_in_the_data(played: ArenaData, tmp_path: Path) -> None:
    def rename(lines: list[dict[str, Any]]) -> None:
        lines[0]["seats"] = [MARKUP + str(seat) for seat in range(4)]
        lines[0]["preset"] = MARKUP
        lines[0]["format"] = "duplicate:1" + MARKUP

    client = crafted(played, tmp_path, rename)
    page = client.get("/matches/1/replay?hand=1&duplicate=1")
    assert page.status_code == 200
    assert "<script>alert" not in page.text and "<b>" not in page.text
    assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;&lt;b&gt;0" in page.text
    data = client.get("/api/matches/1/hands/1/replay").json()
    assert data["seats"][2] == MARKUP + "2" and data["pair"] is None  # the format is no longer duplicate:1


@pytest.mark.parametrize(("edit", "reason"), [
    (lambda lines: lines[1]["record"]["actions"].__setitem__(3, {"seat": 0, "action": "play <i>ZZ</i>"}),
     "hand 1: actions[3]"),
    (lambda lines: lines[2]["record"]["deal"].__setitem__("hands", []), "hand 2: deal.hands"),
    (lambda lines: lines.pop(0), "expected one match_start line, found 0"),
])
def test_a_broken_record_is_a_page_naming_the_record_and_why(played: ArenaData, tmp_path: Path, edit: Any,
                                                            reason: str) -> None:
    client = crafted(played, tmp_path, edit)
    page = client.get("/matches/1/replay")
    assert page.status_code == 200
    assert "cannot be read" in page.text and "record m000001.jsonl" in page.text and reason in page.text
    assert "Traceback" not in page.text and "<i>" not in page.text
    data = client.get("/api/matches/1/hands/1/replay")
    assert data.status_code == UNREADABLE_STATUS and reason in data.json()["detail"]
    assert client.get("/api/matches/2/hands/1/replay").status_code == 200


def test_a_replay_is_computed_once_and_again_when_its_record_is_rewritten(played: ArenaData, tmp_path: Path) -> None:
    """A stored record is written once, when the match is counted; one edited in place (by someone
    with the store's credentials) is told apart by its size."""
    data = copied_ladder(played, tmp_path / "data")
    client = TestClient(create_app(data))
    first = client.get("/api/matches/1/hands/1/replay?seat=0").json()
    assert client.get("/api/matches/1/hands/1/replay?seat=0").json() == first
    cache = client.app.state.replay_cache  # type: ignore[attr-defined]
    assert len(cache) == 1
    lines = record_lines(data, 1)
    lines[0]["seats"] = ["renamed", "b", "c", "d"]
    put_match_file(data, 1, "m000001.jsonl", "".join(json.dumps(line) + "\n" for line in lines).encode())
    assert client.get("/api/matches/1/hands/1/replay?seat=0").json()["seats"][0] == "renamed"
    put_match_file(data, 1, "m000001.jsonl", b"not json\n")
    assert client.get("/api/matches/1/hands/1/replay?seat=0").status_code == UNREADABLE_STATUS


def test_the_cache_keeps_only_the_most_recently_used(tmp_path: Path) -> None:
    from ladder.web.replay_cache import ReplayCache  # noqa: PLC0415

    record = ("match_files:1:m000001.jsonl", 1, 0)
    cache: ReplayCache[int] = ReplayCache(capacity=2)
    computed: list[int] = []

    def value(number: int) -> int:
        computed.append(number)
        return number

    for hand in (1, 2, 1, 3, 1, 2):
        assert cache.get(record, hand, "all", lambda hand=hand: value(hand)) == hand
    assert computed == [1, 2, 3, 2] and len(cache) == 2


def test_the_viewer_script_writes_text_only_never_markup() -> None:
    """Record text reaches the page through ``textContent``; no API that parses markup is used."""
    from ladder.web.templating import STATIC  # noqa: PLC0415

    script = (STATIC / "replay" / "replay.js").read_text()
    assert "textContent" in script
    for parser in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "DOMParser", "eval("):
        assert parser not in script, parser
