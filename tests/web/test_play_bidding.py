"""A person's seat at the bidding games (Twenty-eight, Twenty-nine), in-process (FastAPI's
TestClient, the bots real sample-bot processes): a hand played from the pages with the auction's
calls, the face-down trump and the reveal offered only when legal, every response scanned for a
card seat 0 may not see (the engine's ``observe_bidding``, the record replayed), a leaking variant
caught by the same scan, and moves outside the legal ones refused with one line."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from ladder.store.paths import ArenaData
from ladder.submission.intake import IntakeSettings
from ladder.web.app import create_app
from ladder.web.seats.tables import SeatSettings
from tests.web.seat_helpers import await_turn, csrf, leak_the_partners_cards, leaks, open_table, play_through, table_of

SEED = 30
TABLE_PATH = re.compile(r"^/play/([0-9a-f]{24})$")


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(ArenaData.locate(tmp_path / "data"), IntakeSettings(concurrency=0), seats=SeatSettings(seed=SEED))
    with TestClient(app) as client:
        yield client


def opened(client: TestClient, preset: str) -> str:
    answer = open_table(client, preset=preset, length="hands:1", bots=("heuristic", "random", "heuristic"))
    assert answer.status_code == 303, answer.text[:500]
    found = TABLE_PATH.match(answer.headers["location"])
    assert found is not None
    return found.group(1)


def legal_moves(state: dict[str, Any]) -> list[str]:
    return [c["action"] for c in state["hand"] if c["legal"]] + [c["action"] for c in state["choices"]]


def chooser(style: str, offered: set[str]) -> Callable[[dict[str, Any]], str]:
    """The person's moves: ``declare`` bids the most it may (so it wins the auction and sets the
    trump face down), ``defend`` passes where it may and calls for the trump whenever it may;
    otherwise any legal move (seeded). Every move offered is noted by its verb."""
    rng = random.Random(style)

    def choose(state: dict[str, Any]) -> str:
        legal = legal_moves(state)
        assert legal, json.dumps(state)  # a seat asked to move is always offered its moves
        offered.update(move.split()[0] for move in legal)
        bids = [m for m in legal if m.startswith("bid ")]
        if style == "declare" and bids:
            return max(bids, key=lambda m: int(m.split()[1]))
        if style == "defend" and ("pass" in legal or "reveal" in legal):
            return "pass" if "pass" in legal else "reveal"
        return rng.choice(legal)

    return choose


@pytest.mark.parametrize(("preset", "style", "moves"), [
    ("twenty-eight", "declare", {"bid", "hide", "play"}),
    ("twenty-nine", "defend", {"bid", "pass", "play", "reveal"}),
])
def test_a_bidding_hand_played_from_the_pages_offers_its_calls_and_shows_no_other_card(
        client: TestClient, preset: str, style: str, moves: set[str]) -> None:
    offered: set[str] = set()
    table_id = opened(client, preset)
    seen = play_through(client, table_id, chooser(style, offered))
    table = table_of(client, table_id)
    assert table.outcome is not None and not table.outcome.faults, table.failure
    assert offered >= moves, offered
    record = table.records / f"{table.match_id}.jsonl"
    assert leaks(seen, record, csrf(client, f"/play/{table_id}")) == []
    pages = [s.text for s in seen if s.phase == "your-turn" and 'id="board"' in s.text]
    assert any('id="auction"' in page and 'data-call="bid ' in page for page in pages)
    assert any('id="contract"' in page for page in pages)
    final = client.get(f"/play/{table_id}").text
    assert 'id="last-result"' in final and "Game points" in final


def test_the_same_scan_catches_a_bidding_view_that_shows_the_partners_hand(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """The negative control: the page built as the real one, plus the partner's cards of the deal
    (its second packet included, which nobody holds during the auction)."""
    leak_the_partners_cards(monkeypatch)
    table_id = opened(client, "twenty-eight")
    seen = play_through(client, table_id, chooser("declare", set()))
    table = table_of(client, table_id)
    found = leaks(seen, table.records / f"{table.match_id}.jsonl", csrf(client, f"/play/{table_id}"))
    assert found and {url.rsplit("/", 1)[-1] for url, _, _ in found} >= {"board", table_id}


def test_a_call_that_is_not_legal_now_is_refused_with_one_line(client: TestClient) -> None:
    table_id = opened(client, "twenty-eight")
    table = table_of(client, table_id)
    assert await_turn(table)
    state = client.get(f"/api/play/{table_id}").json()
    assert state["game"] == "bidding" and state["decision"] == "bid"
    legal = set(legal_moves(state))
    assert legal and all(m == "pass" or m.startswith("bid ") for m in legal)
    token = csrf(client, f"/play/{table_id}")
    low = min(int(m.split()[1]) for m in legal if m.startswith("bid "))
    attempts = [f"bid {low - 1}", "bid 99", "reveal", "call S", "decline"]
    attempts += ["pass"] if "pass" not in legal else []
    for action in attempts:
        answer = client.post(f"/play/{table_id}/move", headers={"HX-Request": "true"},
                             data={"csrf_token": token, "turn": state["turn"], "action": action})
        assert answer.status_code == 409, (action, answer.status_code)
        problem = re.search(r'<p id="move-problem"[^>]*>([^<]*)</p>', answer.text)
        assert problem is not None and "\n" not in problem.group(1), action
    assert table.person.moment.waiting and table.person.moment.turn == state["turn"]
