"""Summary statistics of match results: mean score difference with a 95% confidence interval."""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

# Two-sided 95% Student t quantiles for 1..30 degrees of freedom; the normal 1.96 beyond.
_T95 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179,
        2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
        2.060, 2.056, 2.052, 2.048, 2.045, 2.042)


@dataclass(frozen=True, slots=True)
class MeanInterval:
    """Mean of per-unit score differences, its 95% interval, and the share of units won."""

    n: int
    mean: float
    low: float
    high: float
    won_share: float
    """Share of units (deal pairs or hands) with a positive difference; ties count half."""

    @property
    def excludes_zero(self) -> bool:
        return self.low > 0 or self.high < 0


def mean_interval(values: Sequence[float]) -> MeanInterval:
    n = len(values)
    if n == 0:
        return MeanInterval(0, 0.0, 0.0, 0.0, 0.0)
    mean = statistics.fmean(values)
    if n == 1:
        return MeanInterval(1, mean, -math.inf, math.inf, _won(values))
    half = t95(n - 1) * statistics.stdev(values) / math.sqrt(n)
    return MeanInterval(n, mean, mean - half, mean + half, _won(values))


def t95(df: int) -> float:
    return _T95[df - 1] if df <= len(_T95) else 1.96


def _won(values: Sequence[float]) -> float:
    return (sum(v > 0 for v in values) + 0.5 * sum(v == 0 for v in values)) / len(values)
