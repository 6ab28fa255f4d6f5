"""``HandState.clone`` against the generic copy it replaced (a loop over ``__slots__``).

Every position of 20 random hands of the default preset, copied by each, alternating round by
round in one process; best of 9 rounds, µs per copy. Search copies a state for every node it
plays out, so this is on its hot path. Run: ``python bench/clone.py``; the last line is JSON.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from arena.engine.hand import HandState
from bench.positions import random_positions

LISTS = ("_hands", "_undealt", "_trick", "_tricks", "_trick_values", "_captured", "_captured_tricks", "_events")


def slot_loop_copy(state: HandState) -> HandState:
    """The previous ``clone``: every slot through getattr/setattr, then the lists copied."""
    other = HandState.__new__(HandState)
    for name in HandState.__slots__:
        setattr(other, name, getattr(state, name))
    for name in LISTS:
        setattr(other, name, getattr(state, name)[:])
    return other


def main() -> None:
    states = [state for state, _, _ in random_positions(20, 11)]
    best = {"slot_loop": 1e9, "clone": 1e9}
    for _ in range(9):
        for name, copy in (("slot_loop", slot_loop_copy), ("clone", HandState.clone)):
            start = time.perf_counter()
            for state in states:
                copy(state)
            best[name] = min(best[name], (time.perf_counter() - start) / len(states) * 1e6)
    print(json.dumps({"bench": "clone", "positions": len(states), "slot_loop_us": round(best["slot_loop"], 2),
                      "clone_us": round(best["clone"], 2), "ratio": round(best["clone"] / best["slot_loop"], 3)}))


if __name__ == "__main__":
    main()
