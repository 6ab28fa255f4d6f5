"""What publishing a running match's public table costs the referee (issue 27 part 2).

The same seeded in-process match (random bots, ``hands:N``) is played without a live file (the
baseline, in the same run) and with ``arena.referee.live_view.LiveBoard`` writing one after every
move (a secretless view, a JSON dump, a temporary file and ``os.replace``); best of ``--repeat``
each. The cost per write is the difference over the number of writes. A rated move is allowed a
second (slot-end), so a write costs a few ten-thousandths of it.

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
from arena.referee.live_view import LiveBoard
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


def play(hands: int, live: bool) -> tuple[float, int]:
    config = TableConfig("bench", rules_for("dehla-pakad"), "dehla-pakad", MatchFormat.parse(f"hands:{hands}"), 1,
                         TimeControl(), FaultPolicy.FORFEIT)
    with tempfile.TemporaryDirectory() as folder:
        board = LiveBoard(Path(folder) / "bench.live.json", "bench", ["random"] * 4) if live else None
        sink = Counting(board)
        start = time.perf_counter()
        asyncio.run(Table(config, [InProcessSeat(RandomBot()) for _ in range(4)], live=sink).run())
        return time.perf_counter() - start, sink.writes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    without = min(play(args.hands, False)[0] for _ in range(args.repeat))
    runs = [play(args.hands, True) for _ in range(args.repeat)]
    with_live = min(seconds for seconds, _ in runs)
    writes = runs[0][1]
    print(json.dumps({"hands": args.hands, "writes": writes, "without_s": round(without, 4),
                      "with_s": round(with_live, 4), "per_write_ms": round((with_live - without) / writes * 1000, 3)}))


if __name__ == "__main__":
    main()
