"""The Jinja2 environment every page renders with.

Autoescaping is on for every template (``.html``): names, labels, author names and record
contents come from authors and bots, and are never markup.
"""

from __future__ import annotations

from pathlib import Path

from fastapi.templating import Jinja2Templates

TEMPLATES = Path(__file__).with_name("templates")
STATIC = Path(__file__).with_name("static")

templates = Jinja2Templates(directory=TEMPLATES)
assert templates.env.autoescape, "autoescape must stay on"


def fixed(value: float | None, digits: int = 2) -> str:
    """A number as the tables show it (``–`` when missing): a filter, not a macro, because the
    long tables call it for every cell (a Jinja macro call costs several times more)."""
    return "–" if value is None else f"{value:.{digits}f}"


def percent(value: float | None) -> str:
    """A rate in [0, 1] as a percentage with one decimal (``–`` when missing)."""
    return "–" if value is None else f"{100 * value:.1f}%"


templates.env.filters["fixed"] = fixed
templates.env.filters["percent"] = percent
