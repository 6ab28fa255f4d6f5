"""The wire adapter against another version of itself: ``decision_to_pb`` and ``decision_from_pb``.

Every decision of 20 random hands of the default preset, encoded (and the encoded message
decoded) by the current ``protocol/convert.py`` and by another copy of that file given as a
path (for example an older commit's: ``git show REV:protocol/convert.py > /tmp/convert_old.py``),
alternating round by round in one process; best of 9 rounds, µs per decision.

Run: ``python bench/convert_ab.py /tmp/convert_old.py``; the last line is JSON.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
import time
from pathlib import Path
from types import ModuleType

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from arena.contract.messages import DecisionRequest
from arena.engine.match import MatchScore
from arena.engine.observation import observe
from bench.positions import random_positions
from protocol import convert


def load(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location("convert_other", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"{path}: not a Python file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def requests(hands: int, seed: int) -> list[DecisionRequest]:
    return [DecisionRequest("0123456789abcdef", 0, observe(state, seat, MatchScore(dealer=dealer)), 1.0, 30.0)
            for state, seat, dealer in random_positions(hands, seed)]


def per_decision_us(module: ModuleType, batch: list[DecisionRequest], messages: list[object]) -> tuple[float, float]:
    start = time.perf_counter()
    for request in batch:
        module.decision_to_pb(request, "m1")
    middle = time.perf_counter()
    for message in messages:
        module.decision_from_pb(message)
    end = time.perf_counter()
    return (middle - start) / len(batch) * 1e6, (end - middle) / len(batch) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("other", type=Path, help="another version of protocol/convert.py")
    parser.add_argument("--rounds", type=int, default=9)
    args = parser.parse_args()
    other = load(args.other)
    batch = requests(20, 7)
    messages: list[object] = [convert.decision_to_pb(r, "m1") for r in batch]
    best: dict[str, list[float]] = {"current": [1e9, 1e9], "other": [1e9, 1e9]}
    for _ in range(args.rounds):
        for name, module in (("other", other), ("current", convert)):
            encode, decode = per_decision_us(module, batch, messages)
            best[name] = [min(best[name][0], encode), min(best[name][1], decode)]
    print(json.dumps({
        "bench": "convert_ab", "decisions": len(batch),
        "mean_legal_actions": round(sum(len(r.observation.legal_actions) for r in batch) / len(batch), 2),
        "decision_to_pb_us": {"other": round(best["other"][0], 1), "current": round(best["current"][0], 1)},
        "decision_from_pb_us": {"other": round(best["other"][1], 1), "current": round(best["current"][1], 1)},
        "encode_ratio": round(best["current"][0] / best["other"][0], 3),
        "decode_ratio": round(best["current"][1] / best["other"][1], 3),
    }))


if __name__ == "__main__":
    main()
