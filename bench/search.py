"""Strength and move-time figures for the search sample bot.

``python -m bench.search inproc DEALS MOVE_MS [PRESET] [SEED]``
    search (seats 0 and 2) against heuristic (1 and 3), duplicate, in this process: the mean
    score difference per deal pair, its 95% CI, the share of deal pairs won and the move times.

``python -m bench.search worlds DEALS MOVE_MS [PRESET] [SEED]``
    the same match, for speed: imagined worlds per move (median and mean over every searched
    move of both search seats) and the cost of building one world (sample a placement and make
    it playable) over the decisions of random hands. The last line is one JSON object; run it
    on two checkouts with ``bench/trees.py`` to compare before and after.

``python -m bench.search times RECORD.jsonl [SEATS]``
    median and p99 of the per-decision milliseconds that the referee measured for ``SEATS``
    (default ``0,2``: partnership A of ``dehla match``) in a match record.
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import time
from pathlib import Path

from arena.engine.deal import Deal
from arena.engine.hand import HandState
from arena.engine.observation import observe
from arena.engine.rules import rules_for
from arena.referee.in_process import play_in_process
from arena.referee.stats import mean_interval
from sample_bots.heuristic.bot import HeuristicBot
from sample_bots.search.bot import SearchBot, SearchBudget
from sdk.sampling import Sampler


def percentile(values: list[float], share: float) -> float:
    """The value below which ``share`` of ``values`` lie (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def record_times(path: Path, seats: set[int]) -> list[float]:
    """Per-decision milliseconds of ``seats`` over every hand line of a match record."""
    out: list[float] = []
    for line in path.read_text().splitlines():
        entry = json.loads(line)
        for decision in entry.get("decisions", ()):
            if decision["seat"] in seats:
                out.append(float(decision["ms"]))
    return out


def inproc(deals: int, move_ms: float, preset: str, seed: int) -> None:
    started = time.perf_counter()
    budget = SearchBudget(max_per_move=move_ms / 1000)
    search = [SearchBot(0, budget), SearchBot(2, budget)]
    outcome = play_in_process([search[0], HeuristicBot(), search[1], HeuristicBot()],
                              deals=deals, seed=seed, preset=preset)
    stats = mean_interval(outcome.deal_scores)
    times = [t * 1000 for bot in search for t in bot.move_times]
    print(f"{preset} deals {stats.n} mean {stats.mean:+.3f} CI [{stats.low:+.3f}, {stats.high:+.3f}] "
          f"won {stats.won_share:.1%} faults {len(outcome.faults)} "
          f"move ms median {statistics.median(times):.1f} p99 {percentile(times, 0.99):.1f} "
          f"({time.perf_counter() - started:.0f} s)")


def world_build_us(preset: str, hands: int, per_decision: int) -> float:
    """Microseconds to sample one placement and make it a playable world, over the card
    decisions of ``hands`` random hands (``per_decision`` worlds each, one sampler each)."""
    rules = rules_for(preset)
    total, worlds = 0.0, 0
    for seed in range(hands):
        rng = random.Random(seed)
        state = HandState(rules, Deal.from_seed(rules, seed), seed % 4)
        while not state.is_over:
            seat = state.to_move
            assert seat is not None
            if state.legal_mask():
                sampler = Sampler(observe(state, seat))
                started = time.perf_counter()
                for _ in range(per_decision):
                    sampler.state(sampler.sample(rng))
                total += time.perf_counter() - started
                worlds += per_decision
            actions = state.legal_actions()
            state.apply(actions[rng.randrange(len(actions))])
    return total / worlds * 1e6


def worlds(deals: int, move_ms: float, preset: str, seed: int) -> None:
    budget = SearchBudget(max_per_move=move_ms / 1000)
    search = [SearchBot(0, budget), SearchBot(2, budget)]
    play_in_process([search[0], HeuristicBot(), search[1], HeuristicBot()], deals=deals, seed=seed, preset=preset)
    counts = [n for bot in search for n in bot.worlds]
    times = [t * 1000 for bot in search for t in bot.move_times]
    print(json.dumps({
        "bench": "search-worlds", "preset": preset, "deals": deals, "move_ms": move_ms,
        "moves": len(counts), "worlds_per_move_median": statistics.median(counts),
        "worlds_per_move_mean": round(statistics.mean(counts), 1),
        "move_ms_median": round(statistics.median(times), 1),
        "world_build_us": round(world_build_us(preset, 4, 50), 2),
    }))


def main(argv: list[str]) -> None:
    if argv[:1] in (["inproc"], ["worlds"]):
        deals, move_ms, preset, seed = (argv[1:] + ["20", "50", "dehla-pakad", "1"][len(argv) - 1:])[:4]
        run = inproc if argv[0] == "inproc" else worlds
        run(int(deals), float(move_ms), preset, int(seed))
    elif argv[:1] == ["times"]:
        seats = {int(s) for s in (argv[2] if len(argv) > 2 else "0,2").split(",")}
        times = record_times(Path(argv[1]), seats)
        print(f"decisions {len(times)} median {statistics.median(times):.1f} ms "
              f"p99 {percentile(times, 0.99):.1f} ms max {max(times):.1f} ms")
    else:
        print(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
