"""Engine speed: random legal self-play of the default preset, hands per second on one core.

The engine is driven only through its public API (``HandState``, ``legal_mask``, ``play``,
``apply``), one full hand per deal generated from a seed. For a noise-proof figure the same
loop also drives ``PlainBitmaskHand``, the reference "plain bitmask class with a legal-mask
method and a validating play method" that the target was set against (about 5,900 hands/s on
this machine); runs alternate in one process and the best of each is compared.

``--against TREE`` also loads another checkout's engine into this process (a worktree of an
older commit, say) and plays it in the same rounds: before and after in one run, on the same
deals and random choices, so that a change's cost is seen through the machine's noise.

Run: ``python bench/engine.py [--hands N] [--rounds R] [--cpu] [--against TREE]``. The last line is one JSON
object. ``--cpu`` times with the process's CPU time instead of the wall clock: steadier on a
shared machine, where waiting for a core would otherwise count.
"""

from __future__ import annotations

import argparse
import importlib
import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from arena.engine.actions import CALL
from arena.engine.cards import SUIT_MASKS, TENS
from arena.engine.deal import Deal
from arena.engine.hand import HandState
from arena.engine.rules import Rules, rules_for


class PlainBitmaskHand:
    """The baseline: default Dehla Pakad rules only, in the plainest bitmask style."""

    def __init__(self, deal: Deal, dealer: int) -> None:
        self.hands = [0, 0, 0, 0]
        for seat, hand in enumerate(deal.hands):
            for card in hand:
                self.hands[seat] |= 1 << card
        self.to_move = (dealer + 1) % 4
        self.trump = -1
        self.trick: list[tuple[int, int]] = []
        self.tricks_done = 0
        self.pile = 0
        self.last_winner = -1
        self.captured = [0, 0]

    def call(self, suit: int) -> None:
        self.trump = suit

    def legal_mask(self) -> int:
        if self.tricks_done == 13:
            return 0
        hand = self.hands[self.to_move]
        if self.trick:
            follow = hand & SUIT_MASKS[self.trick[0][1] // 13]
            if follow:
                return follow
        return hand

    def play(self, card: int) -> None:
        if not self.legal_mask() >> card & 1:
            raise ValueError(f"illegal card {card}")
        self.hands[self.to_move] ^= 1 << card
        self.trick.append((self.to_move, card))
        if len(self.trick) < 4:
            self.to_move = (self.to_move + 1) % 4
            return
        led = self.trick[0][1] // 13
        best_seat, best_key = -1, -1
        for seat, c in self.trick:
            key = c % 13 + 16 if c // 13 == self.trump else c % 13 if c // 13 == led else -1
            if key > best_key:
                best_seat, best_key = seat, key
            self.pile |= 1 << c
        self.trick = []
        self.tricks_done += 1
        if best_seat == self.last_winner or self.tricks_done == 13:
            self.captured[best_seat % 2] |= self.pile
            self.pile = 0
            self.last_winner = -1
        else:
            self.last_winner = best_seat
        self.to_move = best_seat

    def tens(self) -> tuple[int, int]:
        return ((self.captured[0] & TENS).bit_count(), (self.captured[1] & TENS).bit_count())


def play_engine_hands(rules: Rules, count: int, seed: int, engine: Any = None) -> int:
    """Play ``count`` random hands through the engine (``engine``: another checkout's, from
    ``load_engine``); returns a checksum of the results."""
    state_cls, deal_cls, call = (HandState, Deal, CALL) if engine is None else engine[1:]
    rules = rules if engine is None else engine[0]
    rnd = random.Random(seed).random
    checksum = 0
    for i in range(count):
        hand = state_cls(rules, deal_cls.from_seed(rules, seed + i), i % 4)
        hand.apply(call[int(rnd() * 4)])
        legal, play = hand.legal_mask, hand.play
        while mask := legal():
            k = int(rnd() * mask.bit_count())
            while k:
                mask &= mask - 1
                k -= 1
            play((mask & -mask).bit_length() - 1)
        result = hand.result
        assert result is not None
        checksum += result.tens[0]
    return checksum


def play_baseline_hands(rules: Rules, count: int, seed: int) -> int:
    rnd = random.Random(seed).random
    checksum = 0
    for i in range(count):
        hand = PlainBitmaskHand(Deal.from_seed(rules, seed + i), i % 4)
        hand.call(int(rnd() * 4))
        legal, play = hand.legal_mask, hand.play
        while mask := legal():
            k = int(rnd() * mask.bit_count())
            while k:
                mask &= mask - 1
                k -= 1
            play((mask & -mask).bit_length() - 1)
        checksum += hand.tens()[0]
    return checksum


def load_engine(tree: Path, preset: str) -> tuple[Any, Any, Any, Any]:
    """``(rules, HandState, Deal, CALL)`` of the engine in ``tree``, imported beside this one:
    its ``arena`` modules are put out of the way again, so each copy keeps its own."""
    ours = {n: m for n, m in sys.modules.items() if n == "arena" or n.startswith("arena.")}
    finders = sys.meta_path[:]
    for name in ours:
        del sys.modules[name]
    sys.meta_path[:] = [f for f in finders if "__editable__" not in type(f).__module__]
    sys.path.insert(0, str(tree))
    try:
        package = "arena.engine" if (tree / "arena" / "engine").is_dir() else "arena"  # before the layers
        hand = importlib.import_module(f"{package}.hand")
        deal = importlib.import_module(f"{package}.deal")
        actions = importlib.import_module(f"{package}.actions")
        rules = importlib.import_module(f"{package}.rules")
        if not hand.__file__.startswith(str(tree)):
            raise SystemExit(f"--against {tree}: loaded {hand.__file__} instead")
        return rules.rules_for(preset), hand.HandState, deal.Deal, actions.CALL
    finally:
        sys.path.remove(str(tree))
        sys.meta_path[:] = finders
        for name in [n for n in sys.modules if n == "arena" or n.startswith("arena.")]:
            del sys.modules[name]
        sys.modules.update(ours)


def best_rate(run: Callable[[], int], count: int, times: list[float], clock: Callable[[], float]) -> None:
    start = clock()
    run()
    times.append(count / (clock() - start))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=800, help="hands per timed run")
    parser.add_argument("--rounds", type=int, default=15, help="alternating runs of each")
    parser.add_argument("--cpu", action="store_true", help="time with CPU time, not the wall clock")
    parser.add_argument("--against", type=Path, help="another checkout whose engine also runs")
    args = parser.parse_args()
    clock = time.process_time if args.cpu else time.perf_counter
    rules = rules_for("dehla-pakad")
    # Same deals and same random choices: both must reach the same results.
    if play_engine_hands(rules, 200, 7) != play_baseline_hands(rules, 200, 7):
        raise SystemExit("engine and baseline disagree on the same random games")
    other = None if args.against is None else load_engine(args.against.resolve(), "dehla-pakad")
    if other is not None and play_engine_hands(rules, 200, 7) != play_engine_hands(rules, 200, 7, other):
        raise SystemExit(f"this engine and the one in {args.against} disagree on the same random games")
    engine: list[float] = []
    baseline: list[float] = []
    against: list[float] = []
    for _ in range(args.rounds):
        best_rate(lambda: play_engine_hands(rules, args.hands, 1), args.hands, engine, clock)
        best_rate(lambda: play_baseline_hands(rules, args.hands, 1), args.hands, baseline, clock)
        if other is not None:
            best_rate(lambda: play_engine_hands(rules, args.hands, 1, other), args.hands, against, clock)
    figures = {
        "bench": "engine",
        "preset": "dehla-pakad",
        "hands_per_run": args.hands,
        "rounds": args.rounds,
        "clock": "cpu" if args.cpu else "wall",
        "engine_hands_per_s": round(max(engine)),
        "baseline_hands_per_s": round(max(baseline)),
        "engine_over_baseline": round(max(engine) / max(baseline), 3),
        "target_hands_per_s": 8000,
        "target_ratio_vs_5900_baseline": round(8000 / 5900, 3),
    }
    if other is not None:
        figures["against"] = str(args.against)
        figures["against_hands_per_s"] = round(max(against))
        figures["engine_over_against"] = round(max(engine) / max(against), 3)
        figures["engine_over_against_per_round"] = [round(e / a, 3) for e, a in zip(engine, against, strict=True)]
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
