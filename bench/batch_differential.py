"""The batched engine held to ``arena.engine`` on many hands: the differential bench (issue 25).

The CI tests compare 20,000 hands per preset; this compares as many as asked (1,000,000 by
default) of one preset, a chunk of ``--chunk`` tables at a time, through
``arena.batch.differential.compare``: the same seeded deals (seed ``base + i``, dealer
``seed % 4``) and the same uniformly random choices through both engines, checked at every
step (the decision, the seat to move, the legal actions: cards, calls, hides, the reveal)
and at the end of every hand (each trick's leader, cards, winner, who took the pile and how
many tricks it held; both teams' captured cards; the pile; every field of the hand's result).
Chunk ``k``'s choices come from ``seeded_uniforms(--seed + k, ...)``, so a run is repeatable.

The bidding presets (``twenty-eight``, ``twenty-nine``) go through
``arena.batch.bidding_differential.compare`` instead: ``BiddingBatchTables`` against ``BiddingHand``,
the auction's calls and the call for the trump among the legal actions, the exposure and the
contract's result among what is compared at the end.

Run: ``python bench/batch_differential.py --preset P [--hands N] [--chunk C]``. The last line
is one JSON object; ``mismatches`` (hands that differ anywhere) must be 0.
"""

from __future__ import annotations

import argparse
import json
import time

from arena.batch import bidding_differential
from arena.batch.differential import DifferentialReport, compare, seeded_uniforms
from arena.engine.bidding_rules import BIDDING_PRESETS, bidding_rules_for
from arena.engine.rules import DEFAULT_PRESET, rules_for


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--preset", default=DEFAULT_PRESET)
    parser.add_argument("--hands", type=int, default=1_000_000, help="hands compared")
    parser.add_argument("--chunk", type=int, default=20_000, help="tables stepped together")
    parser.add_argument("--base", type=int, default=1, help="the first deal's seed")
    parser.add_argument("--seed", type=int, default=0, help="seed of the choices' generator")
    args = parser.parse_args()
    if args.hands < 1 or args.chunk < 1:
        raise SystemExit("--hands and --chunk must be positive")
    compare_chunk = _bidding_chunk if args.preset in BIDDING_PRESETS else _chunk
    start = time.process_time()
    hands = steps = mismatches = 0
    first = None
    for k, low in enumerate(range(args.base, args.base + args.hands, args.chunk)):
        count = min(args.chunk, args.base + args.hands - low)
        seeds = list(range(low, low + count))
        report = compare_chunk(args.preset, seeds, args.seed + k)
        hands += report.hands
        steps += report.steps
        mismatches += report.mismatched_hands
        if first is None and report.first:
            first = str(report.first[0])
    cpu = time.process_time() - start
    print(f"{args.preset}: {hands} hands, {steps} decisions compared step by step, {mismatches} mismatched, "
          f"{cpu:.0f} s CPU")
    if first:
        print(f"first mismatch: {first}")
    print(json.dumps({
        "preset": args.preset, "hands_compared": hands, "steps_compared": steps, "mismatches": mismatches,
        "compared": "decision, seat, legal actions at every step; " + (
            "tricks, captures, trump, exposure, result at the end" if args.preset in BIDDING_PRESETS
            else "tricks, captures, pile, result at the end"),
        "base": args.base, "seed": args.seed, "chunk": args.chunk, "cpu_s": round(cpu, 1),
    }))


def _chunk(preset: str, seeds: list[int], seed: int) -> DifferentialReport:
    return compare(rules_for(preset), seeds, [s % 4 for s in seeds], seeded_uniforms(seed, len(seeds)), keep=1)


def _bidding_chunk(preset: str, seeds: list[int], seed: int) -> DifferentialReport:
    """Twenty-eight and Twenty-nine: ``BiddingBatchTables`` against ``BiddingHand`` (calls, hides,
    cards and the call for the trump at every step; tricks, captures, exposure, result at the end)."""
    rules = bidding_rules_for(preset)
    uniforms = bidding_differential.seeded_uniforms(rules, seed, len(seeds))
    return bidding_differential.compare(rules, seeds, [s % 4 for s in seeds], uniforms, keep=1)


if __name__ == "__main__":
    main()
