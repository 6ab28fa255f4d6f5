"""Watching a ladder match live, in process: the coordinator hands its job the live folder
(``MatchSettings.live_folder``), a play function publishes a real in-process table there (as
``play_match_job``'s referee does) and asks the web face for the match list and the live page
while the store says the match is running; once the report is recorded, the page is the replay."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from arena.contract.faults import FaultPolicy
from arena.contract.time_control import TimeControl
from arena.engine.bidding_hand import BiddingHand
from arena.engine.hand import HandState
from arena.engine.match import MatchFormat
from arena.engine.rules import rules_for
from arena.referee.in_process import InProcessSeat
from arena.referee.live_view import STALE_AFTER, LiveBoard, LiveState, live_path
from arena.referee.table import Table
from arena.referee.table_values import TableConfig
from ladder.coordinator.loop import LadderRun, StopRule
from ladder.coordinator.queue import MatchSettings
from ladder.execution.executors import InlineExecutor
from ladder.execution.jobs import MatchJob, MatchReport
from ladder.rating.ratings import RatingEnv
from ladder.rating.scheduler import Mode, Scheduler
from ladder.store.paths import LIVE_FOLDER
from sample_bots.random.bot import RandomBot
from tests.ladder_helpers import add_bots, fake_play, open_store
from tests.web.fake_ladder import client_of

ASKED_AT = 12


class Asking:
    def __init__(self, board: LiveBoard, client: TestClient, match_id: int) -> None:
        self.board = board
        self.client = client
        self.match_id = match_id
        self.answers: dict[str, Any] = {}

    def moved(self, room: int | None, hand: int, state: HandState | BiddingHand, points: tuple[float, float],
              moves: int) -> None:
        self.board.moved(room, hand, state, points, moves)
        if moves == ASKED_AT and not self.answers:
            self.board.flush()  # what the board's timer writes once the table waits (in-process seats answer at once)
            for path in ("/matches", f"/matches/{self.match_id}/live", f"/matches/{self.match_id}/live/table"):
                self.answers[path] = self.client.get(path, follow_redirects=False)


def watched_ladder_match(tmp_path: Path, asking: type[Asking]) -> tuple[Asking, TestClient]:
    """One ladder match of two bots, its job played by a real in-process table whose live file
    ``asking`` watches through the web face while the store says the match is running."""
    root = tmp_path / "data"
    store = open_store(root)
    add_bots(store, ["s1", "s2"], tmp_path / "src")
    client = client_of(root)
    seen: list[Asking] = []

    def play(job: MatchJob) -> MatchReport:
        assert job.live_folder == str(root / LIVE_FOLDER)
        config = TableConfig(match_id=job.key, rules=rules_for("dehla-pakad"), preset="dehla-pakad",
                             match_format=MatchFormat.parse("hands:1"), seed=job.seed, time_control=TimeControl(),
                             policy=FaultPolicy.FORFEIT)
        names = [seat.name for seat in job.seats]
        board = LiveBoard(live_path(Path(job.live_folder), job.key), job.key, names)
        sink = asking(board, client, job.match_id)
        seen.append(sink)
        try:
            seats = [InProcessSeat(RandomBot(), name) for name in names]
            asyncio.run(Table(config, seats, live=sink).run())
        finally:
            board.close()
        return fake_play(job)

    env = RatingEnv()
    settings = MatchSettings(runner="local", live_folder=str(root / LIVE_FOLDER))
    LadderRun(store, env, Scheduler(env, Mode.SELF, random.Random(1)), settings, InlineExecutor, workers=1,
              play=play, rng=random.Random(1)).run(StopRule(matches=1))
    [sink] = seen
    return sink, client


def test_a_running_ladder_match_is_watched_and_then_replayed(tmp_path: Path) -> None:
    sink, client = watched_ladder_match(tmp_path, Asking)
    match_id = sink.match_id
    listing = sink.answers["/matches"].text
    assert f'<a class="live" href="/matches/{match_id}/live">live</a>' in listing
    page = sink.answers[f"/matches/{match_id}/live"]
    assert page.status_code == 200 and 'data-watch="live"' in page.text
    assert f'data-progress="{ASKED_AT}"' in page.text and f'hx-get="/matches/{match_id}/live/table"' in page.text
    assert 'data-watch="live"' in sink.answers[f"/matches/{match_id}/live/table"].text

    ended = client.get(f"/matches/{match_id}/live", follow_redirects=False)
    assert ended.status_code == 303 and ended.headers["location"] == f"/matches/{match_id}/replay?hand=1"
    assert client.get(f"/matches/{match_id}/live/table").headers["hx-redirect"] == ended.headers["location"]
    assert 'class="live"' not in client.get("/matches").text
    assert client.get("/matches/999/live").status_code == 404
    assert client.get("/matches/0/live").status_code in (404, 422)


class AskingAged(Asking):
    """Asks once the live file is aged past ``STALE_AFTER``, as a killed coordinator's file would be."""

    def moved(self, room: int | None, hand: int, state: HandState | BiddingHand, points: tuple[float, float],
              moves: int) -> None:
        if moves == ASKED_AT and not self.answers and self.board.path is not None:
            self.board.moved(room, hand, state, points, moves)
            self.board.flush()
            left = LiveState.model_validate_json(self.board.path.read_text())
            self.board.path.write_text(left.model_copy(update={"updated": left.updated - STALE_AFTER - 1})
                                       .model_dump_json())
            for path in ("/matches", f"/matches/{self.match_id}/live/table", "/bots/s1"):
                self.answers[path] = self.client.get(path, follow_redirects=False)
            return
        super().moved(room, hand, state, points, moves)


def test_a_running_match_whose_live_file_stopped_beating_is_listed_as_abandoned(tmp_path: Path) -> None:
    sink, _ = watched_ladder_match(tmp_path, AskingAged)
    match_id = sink.match_id
    for listing in (sink.answers["/matches"].text, sink.answers["/bots/s1"].text):
        assert 'class="live"' not in listing and '<span class="abandoned"' in listing
    table = sink.answers[f"/matches/{match_id}/live/table"].text
    assert 'data-watch="abandoned"' in table and 'id="live-abandoned"' in table
