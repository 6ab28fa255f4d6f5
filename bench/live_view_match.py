"""The live file's writes in a real ``dehla match`` over gRPC (on-reply, sample bots as local
processes): the same seeded match with a board writing every move (``min_interval=0``, as before
the writes were limited) and with the referee's own limit (``WRITE_INTERVAL``), each once, in one
run; the writes counted by wrapping the board's ``_write`` (the command builds its own board).
The time includes starting the bots, so it is noisy; the count of writes is the figure.

Run: ``python bench/live_view_match.py [--hands N] [--seed S]``. The last line is one JSON object.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import tempfile
import time
from pathlib import Path
from typing import Any

from arena.cli import main as dehla
from arena.referee import live_view


def play(interval: float, hands: int, seed: int) -> dict[str, float]:
    """One ``dehla match random random`` whose live board writes at most every ``interval`` s."""
    counted = {"writes": 0, "moves": 0}
    board = live_view.LiveBoard
    init, write, moved = board.__init__, board._write, board.moved

    def limited_init(self: live_view.LiveBoard, *args: Any, **options: Any) -> None:
        init(self, *args, **{**options, "min_interval": interval})

    def counted_write(self: live_view.LiveBoard) -> None:
        counted["writes"] += 1
        write(self)

    def counted_moved(self: live_view.LiveBoard, *args: Any) -> None:
        counted["moves"] += 1
        moved(self, *args)

    board.__init__, board._write, board.moved = limited_init, counted_write, counted_moved  # type: ignore[method-assign]
    try:
        with tempfile.TemporaryDirectory() as data:
            start = time.perf_counter()
            with contextlib.suppress(SystemExit):  # the command's exit status: the count is the figure
                dehla(["match", "random", "random", "--format", f"hands:{hands}", "--seed", str(seed),
                       "--runner", "local", "--data", str(Path(data))])
            return {**counted, "seconds": round(time.perf_counter() - start, 2)}
    finally:
        board.__init__, board._write, board.moved = init, write, moved  # type: ignore[method-assign]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    every = play(0.0, args.hands, args.seed)
    limited = play(live_view.WRITE_INTERVAL, args.hands, args.seed)
    print(json.dumps({"hands": args.hands, "moves": every["moves"], "every_move": every, "limited": limited,
                      "interval_s": live_view.WRITE_INTERVAL}))


if __name__ == "__main__":
    main()
