"""The sequential test run on pair scores of known effect, by resampling: how its error rates and
its deals are measured (``tests/referee/test_sprt.py`` and ``bench/sprt_deals.py`` share it)."""

from __future__ import annotations

import random
import statistics
from collections.abc import Iterator

from arena.referee.sprt import SprtSettings, Verdict, run_sequential


def shifted(values: list[float], effect: float) -> list[float]:
    """The sample moved so that its effect (mean / sd) is exactly ``effect``."""
    mean, sd = statistics.fmean(values), statistics.pstdev(values)
    return [v - mean + effect * sd for v in values]


def draws(values: list[float], rng: random.Random) -> Iterator[float]:
    """Pair scores drawn from ``values`` with replacement, for ever."""
    while True:
        yield rng.choice(values)


def simulate(values: list[float], test: SprtSettings, runs: int, rng: random.Random,
             max_pairs: int) -> tuple[float, float, float]:
    """(share accepting H1, share accepting H0, mean deal pairs) over ``runs`` runs on ``values``."""
    results = [run_sequential(draws(values, rng), test, max_pairs) for _ in range(runs)]
    h1 = sum(r.verdict is Verdict.H1 for r in results) / runs
    h0 = sum(r.verdict is Verdict.H0 for r in results) / runs
    return h1, h0, statistics.fmean(r.pairs for r in results)
