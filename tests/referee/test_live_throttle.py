"""The live file's writes, limited to one every ``min_interval``: a state shown within the interval
is held, then written by the next move after it or, while the table waits for a seat, by the
board's timer on the table's event loop; closing the board drops what is held and cancels the
timer, so the file once removed is never written again. A real ``LiveBoard`` on a real loop."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from arena.referee.live_view import LiveBoard, LiveState, LiveTable

INTERVAL = 0.05


class Signalled(LiveBoard):
    """A board that says when its timer has fired (the test waits for that, not for a time)."""

    def __init__(self, path: Path) -> None:
        super().__init__(path, "m", ["a", "b", "c", "d"], min_interval=INTERVAL)
        self.fired = asyncio.Event()

    def _on_timer(self) -> None:
        super()._on_timer()
        self.fired.set()

    @property
    def timer(self) -> asyncio.TimerHandle | None:
        """The timer armed for the state held back, if any."""
        return self._timer


def table(moves: int) -> LiveTable:
    return LiveTable(hand=0, moves=moves, dealer=0)


def shown(board: LiveBoard) -> int:
    return LiveState.model_validate_json(board.path.read_text()).tables[0].moves


def test_a_state_held_back_is_written_by_the_timer_while_the_table_waits(tmp_path: Path) -> None:
    async def main() -> None:
        board = Signalled(tmp_path / "m.live.json")
        board.show(None, table(1))
        started = time.monotonic()
        board.show(None, table(2))
        board.show(None, table(3))
        assert (shown(board), board.writes) == (1, 1), "within the interval the file keeps the first state"
        await asyncio.wait_for(board.fired.wait(), 5)
        assert (shown(board), board.writes) == (3, 2), "the newest state, in one write"
        assert time.monotonic() - started >= INTERVAL * 0.9
        board.close()

    asyncio.run(main())


def test_closing_drops_the_state_held_and_nothing_writes_the_file_again(tmp_path: Path) -> None:
    async def main() -> None:
        board = Signalled(tmp_path / "m.live.json")
        board.show(None, table(1))
        board.show(None, table(2))
        timer = board.timer
        assert timer is not None, "the state held back armed the timer"
        board.close()
        assert not board.path.exists()
        assert timer.cancelled() and board.timer is None  # asyncio never runs a cancelled handle
        board.show(None, table(3))
        board.flush()
        assert not board.fired.is_set() and not board.path.exists() and board.writes == 1

    asyncio.run(main())


def test_without_an_event_loop_the_next_move_after_the_interval_or_a_flush_writes(tmp_path: Path) -> None:
    now = [0.0]
    board = LiveBoard(tmp_path / "m.live.json", "m", ["a", "b", "c", "d"], min_interval=1.0, clock=lambda: now[0])
    board.show(None, table(1))
    now[0] = 0.5
    board.show(None, table(2))
    assert shown(board) == 1
    now[0] = 1.0
    board.show(None, table(3))
    assert (shown(board), board.writes) == (3, 2)
    now[0] = 1.2
    board.show(None, table(4))
    board.flush()
    assert (shown(board), board.writes) == (4, 3)
    board.flush()
    assert board.writes == 3, "nothing new: no write"
