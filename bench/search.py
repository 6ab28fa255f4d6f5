"""Strength and move-time figures for the search sample bot.

``python -m bench.search inproc DEALS MOVE_MS [PRESET] [SEED]``
    search (seats 0 and 2) against heuristic (1 and 3), duplicate, in this process: the mean
    score difference per deal pair, its 95% CI, the share of deal pairs won and the move times.

``python -m bench.search times RECORD.jsonl [SEATS]``
    median and p99 of the per-decision milliseconds that the referee measured for ``SEATS``
    (default ``0,2``: partnership A of ``dehla match``) in a match record.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

from arena.referee.in_process import play_in_process
from arena.referee.stats import mean_interval
from sample_bots.heuristic.bot import HeuristicBot
from sample_bots.search.bot import SearchBot, SearchBudget


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


def main(argv: list[str]) -> None:
    if argv[:1] == ["inproc"]:
        deals, move_ms, preset, seed = (argv[1:] + ["20", "50", "dehla-pakad", "1"][len(argv) - 1:])[:4]
        inproc(int(deals), float(move_ms), preset, int(seed))
    elif argv[:1] == ["times"]:
        seats = {int(s) for s in (argv[2] if len(argv) > 2 else "0,2").split(",")}
        times = record_times(Path(argv[1]), seats)
        print(f"decisions {len(times)} median {statistics.median(times):.1f} ms "
              f"p99 {percentile(times, 0.99):.1f} ms max {max(times):.1f} ms")
    else:
        print(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
