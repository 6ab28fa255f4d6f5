"""Engine speed: random legal self-play of the default preset, hands per second on one core.

The engine is driven only through its public API (``HandState``, ``legal_mask``, ``play``,
``apply``), one full hand per deal generated from a seed. For a noise-proof figure the same
loop also drives ``PlainBitmaskHand``, the reference "plain bitmask class with a legal-mask
method and a validating play method" that the target was set against (about 5,900 hands/s on
this machine); runs alternate in one process and the best of each is compared.

``--against TREE`` also loads another checkout's engine into this process (a worktree of an
older commit, say) and plays it in the same rounds: before and after in one run, on the same
deals and random choices, so that a change's cost is seen through the machine's noise.

``--instructions`` counts instead of timing: each engine's loop runs once under valgrind
(cachegrind, no cache simulation, ``PYTHONHASHSEED=0``) in a fresh process, and the count of
the same process playing no hand is subtracted. The count does not move with the machine's
load (runs agree to within about a hundred instructions per hand), so it shows a change of a
fraction of a per cent that the timings on a shared machine cannot.

``--preset`` plays another preset (its first decision, a call or a hide, taken at random
among the legal actions; then random cards, never a reveal or a face-down discard); the plain
baseline knows only the default's rules, so it is left out for any other preset.

Run: ``python bench/engine.py [--hands N] [--rounds R] [--cpu] [--against TREE] [--preset P]
[--instructions]``. The last line is one JSON object. ``--cpu`` times with the process's CPU
time instead of the wall clock: steadier on a shared machine, where waiting for a core would
otherwise count.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from arena.engine.cards import SUIT_MASKS, TENS
from arena.engine.deal import Deal
from arena.engine.hand import HandState
from arena.engine.rules import DEFAULT_PRESET, PRESETS, Rules, rules_for


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
    ``load_engine``); returns a checksum of the results. Decisions before the first card (a
    call, a hide) are drawn from the legal actions; for the default preset that is the suit
    ``CALL[int(rnd() * 4)]``, as the plain baseline draws it."""
    state_cls, deal_cls = (HandState, Deal) if engine is None else engine[1:]
    rules = rules if engine is None else engine[0]
    rnd = random.Random(seed).random
    checksum = 0
    for i in range(count):
        hand = state_cls(rules, deal_cls.from_seed(rules, seed + i), i % 4)
        legal, play = hand.legal_mask, hand.play
        while not legal() and hand.result is None:
            actions = hand.legal_actions()
            hand.apply(actions[int(rnd() * len(actions))])
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


def load_engine(tree: Path, preset: str) -> tuple[Any, Any, Any]:
    """``(rules, HandState, Deal)`` of the engine in ``tree``, imported beside this one:
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
        rules = importlib.import_module(f"{package}.rules")
        if not str(hand.__file__).startswith(str(tree)):
            raise SystemExit(f"--against {tree}: loaded {hand.__file__} instead")
        try:
            return rules.rules_for(preset), hand.HandState, deal.Deal
        except ValueError as exc:  # the engine's RulesError: an unknown preset in that tree, say
            raise SystemExit(f"--against {tree}: {exc}") from None
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


_I_REFS = re.compile(r"I\s+refs:\s+([\d,]+)")


def instructions(args: argparse.Namespace, which: str, hands: int) -> int:
    """Instructions valgrind counts for a fresh process of this script playing ``hands`` hands
    of one engine (``which``: ``this`` or ``against``) once, nothing else."""
    command = [
        "valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
        sys.executable, __file__, "--play-once", which, "--hands", str(hands), "--preset", args.preset,
    ]
    if args.against is not None:
        command += ["--against", str(args.against)]
    environment = {**os.environ, "PYTHONHASHSEED": "0"}
    run = subprocess.run(command, check=False, capture_output=True, text=True, env=environment)
    found = _I_REFS.search(run.stderr)
    if run.returncode or found is None:
        last = (run.stderr.strip().splitlines() or ["no output"])[-1]
        raise SystemExit(f"valgrind run of {which} ({hands} hands) failed: {last}")
    return int(found.group(1).replace(",", ""))


def count_instructions(args: argparse.Namespace) -> dict[str, Any]:
    """Per-hand instruction counts: each engine's run less the same process playing no hand."""
    if shutil.which("valgrind") is None:
        raise SystemExit("--instructions needs valgrind on the PATH (apt-get install valgrind)")
    engines = ["this"] if args.against is None else ["this", "against"]
    per_hand = {w: (instructions(args, w, args.hands) - instructions(args, w, 0)) / args.hands for w in engines}
    figures: dict[str, Any] = {
        "bench": "engine",
        "mode": "instructions",
        "preset": args.preset,
        "hands": args.hands,
        "engine_instructions_per_hand": round(per_hand["this"]),
    }
    if args.against is not None:
        figures["against"] = str(args.against)
        figures["against_instructions_per_hand"] = round(per_hand["against"])
        figures["engine_instructions_over_against"] = round(per_hand["this"] / per_hand["against"], 4)
    return figures


def time_rounds(args: argparse.Namespace, rules: Rules, other: Any) -> dict[str, Any]:
    """Alternating timed runs of the engine, the plain baseline (default preset only) and the
    ``--against`` engine; the best rate of each."""
    clock = time.process_time if args.cpu else time.perf_counter
    with_baseline = args.preset == DEFAULT_PRESET
    engine: list[float] = []
    baseline: list[float] = []
    against: list[float] = []
    for _ in range(args.rounds):
        best_rate(lambda: play_engine_hands(rules, args.hands, 1), args.hands, engine, clock)
        if with_baseline:
            best_rate(lambda: play_baseline_hands(rules, args.hands, 1), args.hands, baseline, clock)
        if other is not None:
            best_rate(lambda: play_engine_hands(rules, args.hands, 1, other), args.hands, against, clock)
    figures: dict[str, Any] = {
        "bench": "engine",
        "preset": args.preset,
        "hands_per_run": args.hands,
        "rounds": args.rounds,
        "clock": "cpu" if args.cpu else "wall",
        "engine_hands_per_s": round(max(engine)),
    }
    if with_baseline:
        figures["baseline_hands_per_s"] = round(max(baseline))
        figures["engine_over_baseline"] = round(max(engine) / max(baseline), 3)
        figures["target_hands_per_s"] = 8000
        figures["target_ratio_vs_5900_baseline"] = round(8000 / 5900, 3)
    if other is not None:
        ratios = [e / a for e, a in zip(engine, against, strict=True)]
        figures["against"] = str(args.against)
        figures["against_hands_per_s"] = round(max(against))
        figures["engine_over_against"] = round(max(engine) / max(against), 3)
        figures["engine_over_against_per_round"] = [round(r, 3) for r in ratios]
        figures["engine_over_against_median"] = round(statistics.median(ratios), 3)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=800, help="hands per timed run")
    parser.add_argument("--rounds", type=int, default=15, help="alternating runs of each")
    parser.add_argument("--cpu", action="store_true", help="time with CPU time, not the wall clock")
    parser.add_argument("--against", type=Path, help="another checkout whose engine also runs")
    parser.add_argument("--preset", default=DEFAULT_PRESET, choices=sorted(PRESETS), help="the rules played")
    parser.add_argument(
        "--instructions", action="store_true", help="count instructions under valgrind instead of timing"
    )
    parser.add_argument("--play-once", choices=("this", "against"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.hands < 1 and args.play_once is None:
        raise SystemExit(f"--hands must be at least 1, not {args.hands}")
    rules = rules_for(args.preset)
    other = None if args.against is None else load_engine(args.against.resolve(), args.preset)
    if args.play_once is not None:  # one engine's loop for --instructions, nothing else
        play_engine_hands(rules, args.hands, 1, other if args.play_once == "against" else None)
        return
    check_agreement(args, rules, other)
    print(json.dumps(count_instructions(args) if args.instructions else time_rounds(args, rules, other)))


def check_agreement(args: argparse.Namespace, rules: Rules, other: Any) -> None:
    """Same deals and same random choices: the engines (and the baseline) must reach the same
    results, or the comparison would be of different games."""
    if args.preset == DEFAULT_PRESET and play_engine_hands(rules, 200, 7) != play_baseline_hands(rules, 200, 7):
        raise SystemExit("engine and baseline disagree on the same random games")
    if other is not None and play_engine_hands(rules, 200, 7) != play_engine_hands(rules, 200, 7, other):
        raise SystemExit(f"this engine and the one in {args.against} disagree on the same random games")


if __name__ == "__main__":
    main()
