"""The live file shows no card still held: a real match played in process, every state written
read back and searched for every card in any seat's hand (or dealt later, or face down, or the
face-down trump) at that moment. A board that writes the full state is caught by the same check."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from arena.contract.faults import FaultPolicy
from arena.contract.time_control import TimeControl
from arena.engine.bidding_hand import BiddingHand
from arena.engine.bidding_records import bidding_hand_record
from arena.engine.bidding_rules import game_rules_for
from arena.engine.hand import HandState
from arena.engine.hand_records import hand_record
from arena.engine.match import MatchFormat
from arena.referee.in_process import InProcessSeat
from arena.referee.live_view import LiveBoard, LiveState, TableView, public_table
from arena.referee.table import Table
from arena.referee.table_values import TableConfig
from sample_bots.heuristic.bot import HeuristicBot
from sample_bots.random.bot import RandomBot
from tests.live_helpers import CARD, Written, leaks, secret_cards


class Capturing:
    """A ``LiveSink`` that passes every move to a real board and reads back what it wrote."""

    def __init__(self, board: LiveBoard) -> None:
        self.board = board
        self.written: list[Written] = []

    def moved(self, room: int | None, hand: int, state: HandState | BiddingHand, points: tuple[float, float],
              moves: int) -> None:
        self.board.moved(room, hand, state, points, moves)
        self.written.append(Written(text=self.board.path.read_text(), secret=secret_cards(state)))


def play(tmp_path: Path, preset: str, seed: int, view: TableView = public_table) -> Capturing:
    config = TableConfig(match_id="live-test", rules=game_rules_for(preset), preset=preset,
                         match_format=MatchFormat.parse("hands:2"), seed=seed, time_control=TimeControl(),
                         policy=FaultPolicy.FORFEIT)
    bots = [RandomBot(), HeuristicBot(), RandomBot(), HeuristicBot()]
    sink = Capturing(LiveBoard(tmp_path / "m.live.json", config.match_id, [b.name for b in bots], view,
                               min_interval=0))
    asyncio.run(Table(config, [InProcessSeat(b) for b in bots], live=sink).run())
    return sink


@pytest.mark.parametrize(("preset", "seed"), [("dehla-pakad", 1), ("dehla-pakad-hidden", 2),
                                              ("court-piece", 3), ("mendikot-closed", 4)])
def test_no_live_state_shows_a_card_still_held(tmp_path: Path, preset: str, seed: int) -> None:
    sink = play(tmp_path, preset, seed)
    assert len(sink.written) > 50  # every move of two hands
    assert leaks(sink.written) == []
    states = [LiveState.model_validate_json(w.text) for w in sink.written]
    assert any(s.tables[0].current_trick for s in states) and states[-1].tables[0].tricks
    last = states[-1].tables[0]
    assert sum(last.tricks_won) == len(last.tricks) and last.to_move is None
    shown = [w for w in sink.written if CARD.findall(w.text)]
    assert len(shown) > len(sink.written) * 3 // 4, "the cards played are public"


@pytest.mark.parametrize(("preset", "seed"), [("twenty-eight", 6), ("twenty-nine", 7)])
def test_a_bidding_games_live_state_shows_the_auction_and_play_but_no_card_held_nor_the_hidden_trump(
        tmp_path: Path, preset: str, seed: int) -> None:
    sink = play(tmp_path, preset, seed)
    assert len(sink.written) > 40
    assert leaks(sink.written) == []
    tables = [LiveState.model_validate_json(w.text).tables[0] for w in sink.written]
    assert all(t.game == "bidding" for t in tables)
    assert any(t.calls and t.contract is None for t in tables), "the auction is shown as it goes"
    assert any(t.contract is not None and t.current_trick for t in tables) and any(t.tricks for t in tables)
    assert any(t.card_points != (0, 0) for t in tables)
    down = [t for t in tables if t.trump_face_down]
    assert down and all(t.trump is None for t in down), "the face-down trump's suit stays hidden"


class FullState(BaseModel):
    record: dict[str, Any]


def full_state(room: int | None, hand: int, state: HandState | BiddingHand, points: tuple[float, float],
               moves: int) -> BaseModel:
    """What a careless board would write: the hand record, deal included."""
    record = bidding_hand_record(state) if isinstance(state, BiddingHand) else hand_record(state)
    return FullState(record=json.loads(json.dumps(record)))


@pytest.mark.parametrize("preset", ["dehla-pakad", "twenty-eight"])
def test_the_check_catches_a_board_that_writes_the_full_state(tmp_path: Path, preset: str) -> None:
    sink = play(tmp_path, preset, 1, full_state)
    held = [w for w in sink.written if w.secret]
    assert len(held) > 50 and len(leaks(sink.written)) == len(held)  # every state while a card is held


def test_the_file_is_replaced_whole_and_removed_at_the_end(tmp_path: Path) -> None:
    sink = play(tmp_path, "dehla-pakad", 5)
    assert [p.name for p in tmp_path.iterdir()] == ["m.live.json"]  # no temporary file left behind
    sink.board.close()
    assert not any(tmp_path.iterdir())
