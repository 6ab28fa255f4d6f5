"""A local match whose referee died mid-match (its live file left behind, its record without an
end) is shown as abandoned once the file is older than ``STALE_AFTER``: not ``live`` in the list,
the live page says so over its last state, the match page says so; a fresh file is live. The
referee is a real in-process table stopped mid-hand; the file's age is set (the process is not what
is tested here: ``tests/referee/test_live_heartbeat.py`` kills one)."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from arena.contract.faults import FaultPolicy
from arena.contract.time_control import TimeControl
from arena.engine.bidding_hand import BiddingHand
from arena.engine.hand import HandState
from arena.engine.match import MatchFormat
from arena.engine.rules import rules_for
from arena.referee.in_process import InProcessSeat
from arena.referee.live_view import STALE_AFTER, LiveBoard, LiveState, live_path
from arena.referee.match_recorder import MatchRecorder
from arena.referee.table import Table
from arena.referee.table_values import TableConfig
from ladder.store.paths import ArenaData
from ladder.web.app import create_app
from sample_bots.random.bot import RandomBot

MATCH = "match-killed-1"


class Killed(BaseException):  # not an Exception: the table records no end for it
    """The referee stops here, as a SIGKILL would stop it: its board is never closed."""


class Dying:
    def __init__(self, board: LiveBoard) -> None:
        self.board = board

    def moved(self, room: int | None, hand: int, state: HandState | BiddingHand, points: tuple[float, float],
              moves: int) -> None:
        self.board.moved(room, hand, state, points, moves)
        if moves == 9:
            self.board.flush()
            raise Killed


@pytest.fixture
def root(tmp_path: Path) -> Path:
    folder = tmp_path / "local-matches"
    folder.mkdir()
    config = TableConfig(match_id=MATCH, rules=rules_for("dehla-pakad"), preset="dehla-pakad",
                         match_format=MatchFormat.parse("hands:2"), seed=5, time_control=TimeControl(),
                         policy=FaultPolicy.FORFEIT)
    names = ["random"] * 4
    seats = [InProcessSeat(RandomBot(), name) for name in names]
    recorder = MatchRecorder(folder / f"{MATCH}.jsonl")
    with pytest.raises(Killed):
        asyncio.run(Table(config, seats, recorder, live=Dying(LiveBoard(live_path(folder, MATCH), MATCH, names))).run())
    return tmp_path


def aged(root: Path, seconds: float) -> None:
    """The live file as a referee that stopped ``seconds`` ago (from now) left it."""
    path = live_path(root / "local-matches", MATCH)
    state = LiveState.model_validate_json(path.read_text())
    path.write_text(state.model_copy(update={"updated": time.time() - seconds}).model_dump_json())


def test_a_fresh_file_is_live_and_one_past_the_allowed_time_is_abandoned(root: Path) -> None:
    client = TestClient(create_app(ArenaData.locate(root)))
    assert f'<a class="live" href="/local/{MATCH}/live">live</a>' in client.get("/local").text
    assert 'data-watch="live"' in client.get(f"/local/{MATCH}/live/table").text

    aged(root, STALE_AFTER + 1)
    listing = client.get("/local").text
    assert 'class="live"' not in listing and ">abandoned</td>" in listing
    table = client.get(f"/local/{MATCH}/live/table")
    assert table.status_code == 200 and 'data-watch="abandoned"' in table.text and 'id="live-abandoned"' in table.text
    assert 'data-moves="9"' in table.text, "its last state, shown as such"
    page = client.get(f"/local/{MATCH}/live", follow_redirects=False)
    assert page.status_code == 200 and 'id="live-abandoned"' in page.text
    assert 'id="abandoned"' in client.get(f"/local/{MATCH}").text and 'id="watch-live"' not in client.get(
        f"/local/{MATCH}").text


def test_a_file_inside_the_allowed_time_is_still_live(root: Path) -> None:
    """Half the allowed time old, aged again before each request: on a loaded machine a request
    took more than the 2 s of an earlier version's margin, and the file was then rightly stale."""
    client = TestClient(create_app(ArenaData.locate(root)))
    aged(root, STALE_AFTER / 2)
    assert 'data-watch="live"' in client.get(f"/local/{MATCH}/live/table").text
    aged(root, STALE_AFTER / 2)
    assert 'class="live"' in client.get("/local").text
