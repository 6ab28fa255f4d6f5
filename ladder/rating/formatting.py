"""How numbers read, in the command line and on the web alike: one module, so ``dehla ladder
show`` and the leaderboard print a win rate, a rating or a score the same way."""

from __future__ import annotations

MISSING = "–"
"""A value that is not there (no match played yet, an unfinished hand)."""


def fixed(value: float | None, digits: int = 2) -> str:
    """A rating, μ or σ: two decimals."""
    return MISSING if value is None else f"{value:.{digits}f}"


def percent(rate: float | None) -> str:
    """A rate in [0, 1] as a percentage with one decimal: ``62.5%``."""
    return MISSING if rate is None else f"{100 * rate:.1f}%"


def score(value: float | None) -> str:
    """A match or hand score: whole numbers without decimals, halves as ``2.5``."""
    return MISSING if value is None else f"{value:g}"


def signed(value: float | None) -> str:
    """A change or a value for one side: ``+1``, ``−2.5`` (a true minus sign), ``0``."""
    if value is None:
        return MISSING
    if value == 0:
        return "0"
    return ("+" if value > 0 else "−") + score(abs(value))


def change(value: float | None) -> str:
    """A rating's change: signed, to two decimals at most (``+0.42``, ``−1.5``)."""
    return MISSING if value is None else signed(round(value, 2))


def scores(pair: tuple[float, float] | None) -> str:
    """A match score, partnership A first: ``3 – 1``."""
    return MISSING if pair is None else f"{score(pair[0])} – {score(pair[1])}"
