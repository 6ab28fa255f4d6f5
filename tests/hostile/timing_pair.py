"""The timing pair (``bots/timing.py``): its bots as objects for in-process tables, and what a
transmission achieved (``tests/referee/test_move_release.py``, ``bench/timing_channel.py``).

A received symbol is paired with the one sent at the single sender decision between the
receiver's two requests (same hand, ply strictly inside the span); a span holding no sender
decision, or two (a trump call and a card), is left out. The figures:

- ``ber``: wrong bits over the six bits of every paired symbol;
- ``bits_per_move``: ``6 * (1 - H(ber))`` per paired sender move, ``H`` the binary entropy:
  the capacity of six independent binary symmetric channels with that error rate (an estimate:
  errors in one symbol are not quite independent; 0 at a BER of 0.5);
- ``exact``: the share of symbols decoded exactly;
- ``correlation``: Spearman's rank correlation between the delay code sent (the Gray code of
  the symbol) and the gap seen less the mean gap of spans as long (in plies: public, and under
  ``slot-end`` the whole of the gap): near 1 when the gap follows the delay, near 0 when it
  does not. Ranks, because a loaded machine stalls a move now and then by tens of ms, and one
  such outlier in a few dozen would sway Pearson's r.
"""

from __future__ import annotations

import importlib.util
import math
import statistics
import sys
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from types import ModuleType
from typing import Any

from tests.hostile.harness import BOTS

BITS = 6


def timing_module() -> ModuleType:
    """``bots/timing.py`` loaded as a module (its folder on ``sys.path``, as when it runs)."""
    if "timing_pair_bots" in sys.modules:
        return sys.modules["timing_pair_bots"]
    if str(BOTS) not in sys.path:
        sys.path.append(str(BOTS))
    spec = importlib.util.spec_from_file_location("timing_pair_bots", BOTS / "timing.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@dataclass(frozen=True, slots=True)
class ChannelFigures:
    symbols: int
    bit_errors: int
    ber: float
    bits_per_move: float
    exact: float
    correlation: float

    def to_json(self) -> dict[str, Any]:
        return {key: round(value, 4) if isinstance(value, float) else value for key, value in asdict(self).items()}


Pair = tuple[int, int, float, int]
"""Symbol sent, symbol decoded, gap in ms, plies in the span."""


def pairs(sent: Sequence[dict[str, Any]], received: Sequence[dict[str, Any]]) -> list[Pair]:
    """A ``Pair`` for every span with exactly one sender move."""
    out = []
    for got in received:
        inside = [s for s in sent if s["hand"] == got["hand"] and got["from_ply"] < s["ply"] < got["to_ply"]]
        if len(inside) == 1:
            out.append((int(inside[0]["symbol"]), int(got["symbol"]), float(got["gap_ms"]),
                        int(got["to_ply"]) - int(got["from_ply"])))
    return out


def entropy(p: float) -> float:
    return 0.0 if p in (0.0, 1.0) else -p * math.log2(p) - (1 - p) * math.log2(1 - p)


def ranks(values: Sequence[float]) -> list[float]:
    """Each value's rank (from 1), ties given their mean rank."""
    order = sorted(range(len(values)), key=values.__getitem__)
    out = [0.0] * len(values)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and values[order[end + 1]] == values[order[start]]:
            end += 1
        for index in order[start:end + 1]:
            out[index] = (start + end) / 2 + 1
        start = end + 1
    return out


def figures(matched: Sequence[Pair]) -> ChannelFigures:
    if not matched:
        raise AssertionError("no received symbol could be paired with a sent one")
    errors = sum(bin(a ^ b).count("1") for a, b, _, _ in matched)
    ber = errors / (BITS * len(matched))
    sent = [float(a ^ (a >> 1)) for a, _, _, _ in matched]  # the Gray code: what set the delay
    spans: dict[int, list[float]] = {}
    for _, _, gap, plies in matched:
        spans.setdefault(plies, []).append(gap)
    residuals = [gap - statistics.fmean(spans[plies]) for _, _, gap, plies in matched]
    try:
        r = statistics.correlation(ranks(sent), ranks(residuals))
    except statistics.StatisticsError:  # a constant series: nothing to correlate
        r = 0.0
    return ChannelFigures(len(matched), errors, ber, BITS * (1 - entropy(ber)),
                          sum(a == b for a, b, _, _ in matched) / len(matched), r)
