"""Watching a local match live, in process: a real match played by the referee into the data
folder while the web face is asked for its list, live page and table fragment; then the same
pages once it has ended (the replay). And what a hostile live file cannot do."""

from __future__ import annotations

import asyncio
import json
import os
import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from arena.contract.faults import FaultPolicy
from arena.contract.time_control import TimeControl
from arena.engine.bidding_hand import BiddingHand
from arena.engine.bidding_rules import game_rules_for
from arena.engine.hand import HandState
from arena.engine.match import MatchFormat
from arena.engine.rules import rules_for
from arena.referee.in_process import InProcessSeat
from arena.referee.live_view import LiveBoard, live_path
from arena.referee.match_recorder import MatchRecorder
from arena.referee.table import Table
from arena.referee.table_values import TableConfig
from ladder.store.paths import ArenaData
from ladder.web.app import create_app
from sample_bots.random.bot import RandomBot
from tests.live_helpers import CARD, secret_cards

MATCH = "match-live-1"
HOSTILE = "<script>alert(1)</script>"
ASKED_AT = 20
"""The move after which the pages are asked for, mid-match."""


class Asking:
    """A live sink that, after move ``ASKED_AT`` of the first hand, asks the web face for its pages."""

    def __init__(self, board: LiveBoard, client: TestClient) -> None:
        self.board = board
        self.client = client
        self.answers: dict[str, Any] = {}

    def moved(self, room: int | None, hand: int, state: HandState | BiddingHand, points: tuple[float, float],
              moves: int) -> None:
        self.board.moved(room, hand, state, points, moves)
        if hand == 0 and moves == ASKED_AT:
            self.board.flush()  # what the board's timer writes once the table waits (in-process seats answer at once)
            for path in ("/local", f"/local/{MATCH}", f"/local/{MATCH}/live", f"/local/{MATCH}/live/table"):
                self.answers[path] = self.client.get(path, follow_redirects=False)


@pytest.fixture
def root(tmp_path: Path) -> Path:
    (tmp_path / "local-matches").mkdir()
    return tmp_path


@pytest.fixture
def client(root: Path) -> TestClient:
    return TestClient(create_app(ArenaData.locate(root)))


def play(root: Path, client: TestClient) -> Asking:
    folder = root / "local-matches"
    config = TableConfig(match_id=MATCH, rules=rules_for("dehla-pakad"), preset="dehla-pakad",
                         match_format=MatchFormat.parse("hands:1"), seed=3, time_control=TimeControl(),
                         policy=FaultPolicy.FORFEIT)
    bots = [RandomBot() for _ in range(4)]
    names = [HOSTILE, "random", "random", "random"]
    sink = Asking(LiveBoard(live_path(folder, MATCH), MATCH, names), client)
    seats = [InProcessSeat(bot, name) for bot, name in zip(bots, names, strict=True)]
    try:
        asyncio.run(Table(config, seats, MatchRecorder(folder / f"{MATCH}.jsonl"), live=sink).run())
    finally:
        sink.board.close()
    return sink


def test_a_running_match_is_listed_live_and_its_page_shows_the_public_table(root: Path, client: TestClient) -> None:
    answers = play(root, client).answers
    listing = answers["/local"].text
    assert f'<a class="live" href="/local/{MATCH}/live">live</a>' in listing
    assert f'href="/local/{MATCH}/live"' in answers[f"/local/{MATCH}"].text
    page = answers[f"/local/{MATCH}/live"]
    assert page.status_code == 200 and 'data-watch="live"' in page.text
    assert f'data-progress="{ASKED_AT}"' in page.text and 'hx-trigger="every 500ms"' in page.text
    assert HOSTILE not in page.text and "&lt;script&gt;alert(1)&lt;/script&gt;" in page.text
    table = answers[f"/local/{MATCH}/live/table"]
    assert table.text.lstrip().startswith("<div id=\"live-table\"") and "<html" not in table.text
    assert table.headers["cache-control"] == "no-store"


def test_a_match_that_has_ended_is_its_replay(root: Path, client: TestClient) -> None:
    play(root, client)
    assert not live_path(root / "local-matches", MATCH).exists()
    page = client.get(f"/local/{MATCH}/live", follow_redirects=False)
    assert page.status_code == 303 and page.headers["location"] == f"/local/{MATCH}/replay?hand=1"
    table = client.get(f"/local/{MATCH}/live/table")
    assert table.headers["hx-redirect"] == f"/local/{MATCH}/replay?hand=1"
    assert 'class="live"' not in client.get("/local").text


class AskingEveryMove:
    """A live sink that asks for the table fragment after every move of the first hand (the
    board flushed, as its timer does while the table waits), with the cards nobody may see then."""

    def __init__(self, board: LiveBoard, client: TestClient) -> None:
        self.board = board
        self.client = client
        self.fragments: list[tuple[str, list[str], str | None]] = []
        """(fragment, cards held or face down, the trump suit while it lies face down)."""

    def moved(self, room: int | None, hand: int, state: HandState | BiddingHand, points: tuple[float, float],
              moves: int) -> None:
        self.board.moved(room, hand, state, points, moves)
        if hand == 0 and isinstance(state, BiddingHand):
            self.board.flush()
            hidden = str(state.trump) if state.trump is not None and state.hidden_card is not None else None
            text = self.client.get(f"/local/{MATCH}/live/table").text
            self.fragments.append((text, secret_cards(state), hidden))


def test_a_bidding_match_is_watched_with_its_auction_and_play_but_nothing_hidden(
        root: Path, client: TestClient) -> None:
    folder = root / "local-matches"
    config = TableConfig(match_id=MATCH, rules=game_rules_for("twenty-eight"), preset="twenty-eight",
                         match_format=MatchFormat.parse("hands:1"), seed=5, time_control=TimeControl(),
                         policy=FaultPolicy.FORFEIT)
    names = ["random"] * 4
    sink = AskingEveryMove(LiveBoard(live_path(folder, MATCH), MATCH, names), client)
    seats = [InProcessSeat(RandomBot(), name) for name in names]
    try:
        asyncio.run(Table(config, seats, MatchRecorder(folder / f"{MATCH}.jsonl"), live=sink).run())
    finally:
        sink.board.close()
    texts = [text for text, _, _ in sink.fragments]
    assert any('data-call="bid ' in t and "the auction is on" in t for t in texts)
    assert any('class="live-contract">seat ' in t and 'class="live-trick">' in t for t in texts)
    face_down = [(t, suit) for t, _, suit in sink.fragments if suit is not None]
    assert face_down and all('data-face-down="true"' in t for t, _ in face_down)
    for text, secret, suit in sink.fragments:
        trump = re.search(r'class="live-trump"[^>]*>([^<]*)<', text)
        assert trump is not None and (suit is None or trump.group(1).strip() != suit), trump.group(0) if trump else text
        assert set(CARD.findall(text)) & set(secret) == set(), text


def write_start(root: Path, match_id: str) -> None:
    line = {"type": "match_start", "match_id": match_id, "seed": 1, "preset": "dehla-pakad",
            "rules": rules_for("dehla-pakad").options(), "format": "hands:1",
            "time_control": {"per_move": 1.0, "bank": 0.0, "grace": 0.0, "startup": 1.0},
            "policy": "forfeit", "seats": ["a", "b", "c", "d"]}
    (root / "local-matches" / f"{match_id}.jsonl").write_text(json.dumps(line) + "\n")


@pytest.mark.parametrize("content", ['{"match_id": "m", "seats": [], "updated": 0, "tables": [], "hand": ["AS"]}',
                                     '{"match_id": "other", "seats": [], "updated": 0, "tables": []}',
                                     "not json", "x" * 70_000])
def test_a_live_file_that_is_not_a_live_state_is_not_shown(root: Path, client: TestClient, content: str) -> None:
    write_start(root, "m")
    (root / "local-matches" / "m.live.json").write_text(content)
    page = client.get("/local/m/live")
    assert page.status_code == 200 and 'data-watch="waiting"' in page.text and "AS" not in page.text


def test_a_live_file_that_is_a_link_is_not_followed(root: Path, client: TestClient, tmp_path: Path) -> None:
    write_start(root, "m")
    outside = tmp_path / "outside.json"
    outside.write_text(json.dumps({"match_id": "m", "seats": ["SECRET"], "updated": 0, "tables": []}))
    os.symlink(outside, root / "local-matches" / "m.live.json")
    page = client.get("/local/m/live")
    assert 'data-watch="waiting"' in page.text and "SECRET" not in page.text


@pytest.mark.parametrize("match_id", ["..", "a.b", "%2e%2e", "..%2Fsecret", "a%2Fb"])
def test_an_id_that_is_not_a_match_id_names_no_file(client: TestClient, match_id: str) -> None:
    assert client.get(f"/local/{match_id}/live").status_code in (404, 422)
    assert client.get(f"/local/{match_id}/live/table").status_code in (404, 422)
