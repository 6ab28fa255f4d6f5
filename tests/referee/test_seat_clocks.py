"""Per-seat clocks: a table may give one seat a clock of its own (a person's generous one beside
bots on the ladder's). The referee tells each bot its own in StartMatch, enforces each seat's,
and writes them to the record; records without them read as before.

In process, on a virtual clock (seconds pass only when a bot says so), so every time is exact.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.contract.faults import FaultKind, FaultPolicy
from arena.contract.messages import MatchStart, SeatEndpoint
from arena.contract.time_control import MoveRelease, TimeControl, TimeControlError
from arena.engine.errors import RecordError
from arena.referee.in_process import InProcessSeat
from arena.referee.match_record_lines import MatchStartLine, RecordedTimeControl, read_line
from arena.referee.match_recorder import MatchRecorder, match_start_line, read_match_record
from arena.referee.table import Table
from arena.referee.table_values import MatchOutcome, TableConfig
from arena.referee.timing_leak import timed_decisions
from sdk.bot import Bot, BotView
from tests.referee_helpers import table_config
from tests.timing_helpers import VirtualClock

SHORT = TimeControl(per_move=0.1, bank=0.3, startup=10.0)
"""The table's clock (a ladder-like one, scaled down): a decision may take 0.4 s."""
GENEROUS = replace(SHORT, per_move=2.0, bank=4.0)
"""Seat 0's own clock (a person's)."""
SLOW = 0.5
"""What the slow bot takes each decision: past the short allowance, well within the generous one."""


class Timed(Bot):
    """Plays its first legal card after ``seconds`` of ``clock``; notes the clock its StartMatch
    announced and the per-move limit each request did."""

    name = "timed"

    def __init__(self, seconds: float, clock: VirtualClock) -> None:
        self.seconds = seconds
        self.clock = clock
        self.told: TimeControl | None = None
        self.per_moves: list[float] = []

    def on_match_start(self, start: MatchStart) -> None:
        self.told = start.time_control

    def play(self, view: BotView) -> Any:
        self.clock.advance(self.seconds)
        self.per_moves.append(view.per_move)
        return view.legal_cards[0]


def seat_config(control: TimeControl = SHORT, person: TimeControl = GENEROUS) -> TableConfig:
    return replace(table_config("seat-clocks", policy=FaultPolicy.SUBSTITUTE, time_control=control),
                   seat_time_controls=(person, control, control, control))


def play(config: TableConfig, slow_seat: int | None, record: Path | None = None) -> tuple[MatchOutcome, list[Timed]]:
    clock = VirtualClock()
    bots = [Timed(SLOW if seat == slow_seat else 0.0, clock) for seat in range(4)]
    endpoints: list[SeatEndpoint] = [InProcessSeat(bot) for bot in bots]
    recorder = MatchRecorder(record) if record is not None else None
    return asyncio.run(Table(config, endpoints, recorder, clock=clock).run()), bots


def test_a_slow_bot_times_out_on_a_short_clock_and_not_at_the_seat_with_the_generous_one() -> None:
    at_generous, _ = play(seat_config(), slow_seat=0)
    assert at_generous.faults == []
    at_short, _ = play(seat_config(), slow_seat=1)
    assert {(f.seat, f.kind) for f in at_short.faults} == {(1, FaultKind.TIMEOUT)}


def test_each_bot_is_told_its_own_clock_at_the_start_and_in_every_request() -> None:
    config = seat_config()
    _, bots = play(config, slow_seat=None)
    assert [bot.told for bot in bots] == [GENEROUS, SHORT, SHORT, SHORT]
    assert {p for p in bots[0].per_moves} == {GENEROUS.per_move}
    assert {p for bot in bots[1:] for p in bot.per_moves} == {SHORT.per_move}


def test_the_record_carries_each_seats_clock_and_a_table_without_them_writes_none(tmp_path: Path) -> None:
    play(seat_config(), None, tmp_path / "seats.jsonl")
    start = next(read_match_record(tmp_path / "seats.jsonl"))
    assert [c["per_move"] for c in start["seat_time_controls"]] == [2.0, 0.1, 0.1, 0.1]
    assert start["time_control"] == RecordedTimeControl.of(SHORT).model_dump(mode="json")
    line = read_line(start, "seats.jsonl:1")
    assert isinstance(line, MatchStartLine)
    assert line.time_control_of(0) == RecordedTimeControl.of(GENEROUS)
    assert line.time_control_of(3) == RecordedTimeControl.of(SHORT)

    play(replace(seat_config(), seat_time_controls=None), None, tmp_path / "plain.jsonl")
    assert "seat_time_controls" not in next(read_match_record(tmp_path / "plain.jsonl"))


def test_an_older_record_reads_every_seat_on_the_matchs_clock_and_a_bad_one_is_refused(tmp_path: Path) -> None:
    play(seat_config(), None, tmp_path / "seats.jsonl")
    start = next(read_match_record(tmp_path / "seats.jsonl"))
    older = {key: value for key, value in start.items() if key != "seat_time_controls"}
    line = read_line(older, "older.jsonl:1")
    assert isinstance(line, MatchStartLine)
    assert [line.time_control_of(seat) for seat in range(4)] == [RecordedTimeControl.of(SHORT)] * 4
    with pytest.raises(RecordError, match="seat_time_controls"):
        read_line({**start, "seat_time_controls": start["seat_time_controls"][:3]}, "short.jsonl:1")


def test_the_timing_detector_sees_each_seat_on_its_own_slot(tmp_path: Path) -> None:
    """Under slot-end release the other seats see a reply at its mover's slot's end: seat 0's
    own per-move limit, not the table's."""
    slot_end = replace(SHORT, release=MoveRelease.SLOT_END)
    play(seat_config(slot_end, replace(GENEROUS, release=MoveRelease.SLOT_END)), None, tmp_path / "m.jsonl")
    lines = [json.loads(text) for text in (tmp_path / "m.jsonl").read_text().splitlines()]
    seen = {seat: {d.ms for d in decisions} for seat, decisions in timed_decisions(lines).items()}
    assert seen == {0: {2000.0}, 1: {100.0}, 2: {100.0}, 3: {100.0}}


@pytest.mark.parametrize("field", ["grace", "startup", "release"])
def test_a_seat_may_differ_only_in_per_move_and_bank(field: str) -> None:
    other: dict[str, Any] = {"grace": 0.2, "startup": 3.0, "release": MoveRelease.SLOT_END}
    with pytest.raises(TimeControlError, match=f"seat 0's time control {field}"):
        seat_config(person=replace(GENEROUS, **{field: other[field]}))
    with pytest.raises(TimeControlError, match="one for each of the 4 seats"):
        replace(seat_config(), seat_time_controls=(SHORT,) * 3)  # type: ignore[arg-type]


SECONDS = st.floats(min_value=0.001, max_value=1e5, allow_nan=False)
CLOCKS = st.tuples(SECONDS, st.floats(min_value=0.0, max_value=1e5, allow_nan=False))


@settings(max_examples=50, deadline=None)
@given(st.none() | st.tuples(CLOCKS, CLOCKS, CLOCKS, CLOCKS))
def test_every_seats_clock_reads_back_from_the_record_as_the_referee_held_it(
        clocks: tuple[tuple[float, float], ...] | None) -> None:
    table = seat_config()
    own = [] if clocks is None else [replace(SHORT, per_move=p, bank=b) for p, b in clocks]
    config = replace(table, seat_time_controls=None if clocks is None else (own[0], own[1], own[2], own[3]))
    written = match_start_line(config, ["a", "b", "c", "d"])
    assert ("seat_time_controls" in written) is (clocks is not None)
    line = read_line(json.loads(json.dumps(written)), "start")
    assert isinstance(line, MatchStartLine)
    assert [line.time_control_of(s) for s in range(4)] == [
        RecordedTimeControl.of(config.time_control_of(s)) for s in range(4)]
