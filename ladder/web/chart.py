"""The bot page's rating chart as SVG geometry, computed on the server (no chart library, no JS).

The x axis is the bot's rated matches in the order they were played (all versions on one axis,
so a new version starts where the old one stopped); the y axis spans every mu and mu - 3 sigma
shown. Only numbers reach the SVG: names go in the legend, through the escaping templates.
"""

from __future__ import annotations

from dataclasses import dataclass

from ladder.web.models import VersionSeries

WIDTH, HEIGHT, PAD = 640, 240, 36
COLOURS = ("#1f6b45", "#b3261e", "#2b59c3", "#8a5a00", "#6b2fa3", "#00747a")


@dataclass(frozen=True, slots=True)
class Line:
    number: int
    colour: str
    mu_points: str
    rating_points: str
    matches: int


@dataclass(frozen=True, slots=True)
class Chart:
    width: int
    height: int
    lines: tuple[Line, ...]
    y_ticks: tuple[tuple[float, float], ...]
    """(y position, value) pairs for the axis labels."""
    matches: int


def rating_chart(series: list[VersionSeries]) -> Chart | None:
    """The chart of ``series``, or None when no version has a rated match yet."""
    total = sum(len(s.points) for s in series)
    if total == 0:
        return None
    values = [v for s in series for p in s.points for v in (p.mu, p.rating)]
    low, high = min(values), max(values)
    if high - low < 1e-9:
        low, high = low - 1, high + 1

    def x(index: int) -> float:
        return PAD + (WIDTH - 2 * PAD) * (index + 0.5) / total

    def y(value: float) -> float:
        return HEIGHT - PAD - (HEIGHT - 2 * PAD) * (value - low) / (high - low)

    lines, start = [], 0
    for order, version in enumerate(series):
        indexes = range(start, start + len(version.points))
        start += len(version.points)
        if not version.points:
            continue
        lines.append(Line(version.number, COLOURS[order % len(COLOURS)],
                          " ".join(f"{x(i):.1f},{y(p.mu):.1f}" for i, p in zip(indexes, version.points, strict=True)),
                          " ".join(f"{x(i):.1f},{y(p.rating):.1f}"
                                   for i, p in zip(indexes, version.points, strict=True)),
                          len(version.points)))
    ticks = tuple((round(y(low + (high - low) * k / 4), 1), round(low + (high - low) * k / 4, 1)) for k in range(5))
    return Chart(WIDTH, HEIGHT, tuple(lines), ticks, total)
