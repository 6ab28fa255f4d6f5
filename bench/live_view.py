"""What publishing a running match's public table costs the referee (issue 27 part 2).

The same seeded in-process match (random bots, ``hands:N``) is played without a live file (the
baseline, in the same run), with ``arena.referee.live_view.LiveBoard`` writing one after every
move (``min_interval=0``: before the writes were limited; a secretless view, a JSON dump, a
temporary file and ``os.replace``), and with the board as the referee uses it (at most one write
every ``WRITE_INTERVAL`` s); best of ``--repeat`` each. The cost per write is the difference over
the number of writes; the cost per move, over the number of moves.

Run: ``python bench/live_view.py [--hands N] [--repeat R]``. The last line is one JSON object.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
import time
from pathlib import Path

from arena.contract.faults import FaultPolicy
from arena.contract.time_control import TimeControl
from arena.engine.bidding_hand import BiddingHand
from arena.engine.hand import HandState
from arena.engine.match import MatchFormat
from arena.engine.rules import rules_for
from arena.referee.in_process import InProcessSeat
from arena.referee.live_view import WRITE_INTERVAL, LiveBoard
from arena.referee.table import Table
from arena.referee.table_values import TableConfig
from sample_bots.random.bot import RandomBot


class Counting:
    """A live sink that counts the moves and passes them to a board, if any."""

    def __init__(self, board: LiveBoard | None) -> None:
        self.board = board
        self.writes = 0

    def moved(self, room: int | None, hand: int, state: HandState | BiddingHand, points: tuple[float, float],
              moves: int) -> None:
        self.writes += 1
        if self.board is not None:
            self.board.moved(room, hand, state, points, moves)


def play(hands: int, interval: float | None) -> tuple[float, int, int]:
    """Seconds, moves and files written: without a board (``interval`` None) or with one writing
    at most every ``interval`` seconds."""
    config = TableConfig("bench", rules_for("dehla-pakad"), "dehla-pakad", MatchFormat.parse(f"hands:{hands}"), 1,
                         TimeControl(), FaultPolicy.FORFEIT)
    with tempfile.TemporaryDirectory() as folder:
        board = None if interval is None else LiveBoard(Path(folder) / "bench.live.json", "bench", ["random"] * 4,
                                                         min_interval=interval)
        sink = Counting(board)
        start = time.perf_counter()
        asyncio.run(Table(config, [InProcessSeat(RandomBot()) for _ in range(4)], live=sink).run())
        return time.perf_counter() - start, sink.writes, 0 if board is None else board.writes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    without = min(play(args.hands, None)[0] for _ in range(args.repeat))
    every = [play(args.hands, 0.0) for _ in range(args.repeat)]
    limited = [play(args.hands, WRITE_INTERVAL) for _ in range(args.repeat)]
    every_s, moves, every_writes = min(every)
    limited_s, _, limited_writes = min(limited)
    print(json.dumps({"hands": args.hands, "moves": moves, "without_s": round(without, 4),
                      "every_move_s": round(every_s, 4), "every_move_writes": every_writes,
                      "per_write_ms": round((every_s - without) / every_writes * 1000, 3),
                      "limited_s": round(limited_s, 4), "limited_writes": limited_writes,
                      "interval_s": WRITE_INTERVAL,
                      "per_move_us_every": round((every_s - without) / moves * 1e6, 1),
                      "per_move_us_limited": round((limited_s - without) / moves * 1e6, 1)}))


if __name__ == "__main__":
    main()
