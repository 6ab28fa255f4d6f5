"""Cost of the wire adapter per decision: building the view, encoding it, decoding it.

A mid-hand position (trick 8, seven finished tricks in the view) of the default preset:
``observe`` (engine), ``decision_to_pb`` (referee side) and ``decision_from_pb`` (bot side),
each timed in a hot loop, best of 5. Run: ``python bench/convert.py``; the last line is JSON.
"""

from __future__ import annotations

import json
import random
import timeit

from arena.contract.messages import DecisionRequest
from arena.engine.deal import Deal
from arena.engine.hand import HandState
from arena.engine.observation import observe
from arena.engine.rules import rules_for
from protocol import convert


def main() -> None:
    rules = rules_for()
    rng = random.Random(3)
    state = HandState(rules, Deal.from_seed(rules, 2), 0)
    while state.trick_number < 8:
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
    seat = state.to_move
    assert seat is not None
    request = DecisionRequest("abc", 0, observe(state, seat), 1.0, 30.0)
    message = convert.decision_to_pb(request, "m")
    n = 3000

    def best_us(call: object) -> float:
        return round(min(timeit.repeat(call, number=n, repeat=5)) / n * 1e6, 1)  # type: ignore[arg-type]

    figures = {
        "bench": "convert",
        "observe_us": best_us(lambda: observe(state, seat)),
        "decision_to_pb_us": best_us(lambda: convert.decision_to_pb(request, "m")),
        "decision_from_pb_us": best_us(lambda: convert.decision_from_pb(message)),
        "request_bytes": len(message.SerializeToString()),
    }
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
