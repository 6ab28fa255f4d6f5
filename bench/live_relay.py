"""What relaying a cluster match's live state costs the coordinator (issue 27 part 2).

A cluster worker sends each live state to the coordinator as a Dask event; the coordinator's
``ladder.execution.live_relay.LiveRelay.receive`` checks it (``LiveMessage``, ``LiveState``, the
match and attempt in play) and writes the file. The baseline, in the same run, is the write alone
(``AtomicLiveFile.publish`` of the same text: what a worker of the local pool pays per write);
the difference is the checking. A state is a duplicate match's two rooms late in a hand (12
tricks each, about 3.8 KB). Best of ``--repeat`` runs of ``--states`` each.

Run: ``python bench/live_relay.py [--states N] [--repeat R]``. The last line is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repository's `ladder`, not bench/ladder.py

from arena.referee.live_view import AtomicLiveFile, LivePlay, LiveStateText, LiveTable, LiveTrick, live_path
from ladder.execution.live_relay import LiveRelay

MATCH = "m000042"


def state_text() -> str:
    tricks = [LiveTrick(number=i, winner=i % 4, plays=[LivePlay(seat=s, card="10S") for s in range(4)])
              for i in range(12)]
    table = LiveTable(room=0, hand=3, moves=49, dealer=1, tricks=tricks, hand_sizes=[1, 1, 1, 0])
    rooms = [table.model_dump(mode="json"), table.model_copy(update={"room": 1}).model_dump(mode="json")]
    return LiveStateText(match_id=MATCH, seats=["a#1", "b#1", "c#1", "d#1"], updated=1.0, delay_moves=0,
                         tables=rooms).model_dump_json()


def best_ms(run: Callable[[], None], states: int, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(states):
            run()
        best = min(best, time.perf_counter() - start)
    return best / states * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--states", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    text = state_text()
    with tempfile.TemporaryDirectory() as folder:
        relay = LiveRelay(Path(folder) / "relay")
        relay.expect(MATCH, 1)
        event = (0.0, {"match": MATCH, "attempt": 1, "state": text, "worker": "tcp://10.0.0.2:40000"})
        file = AtomicLiveFile(live_path(Path(folder) / "plain", MATCH))
        write_ms = best_ms(lambda: file.publish(text), args.states, args.repeat)
        relay_ms = best_ms(lambda: relay.receive(event), args.states, args.repeat)
        assert relay.dropped == 0 and relay.written == args.states * args.repeat
    result = {"state_bytes": len(text), "write_ms": round(write_ms, 3), "relay_ms": round(relay_ms, 3),
              "check_ms": round(relay_ms - write_ms, 3), "states": args.states, "repeat": args.repeat}
    print(f"a {len(text)}-byte state: written {write_ms:.3f} ms, relayed (checked and written) {relay_ms:.3f} ms")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
