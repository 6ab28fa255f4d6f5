"""The Jinja2 environment every page renders with.

Autoescaping is on for every template (``.html``): names, labels, author names and record
contents come from authors and bots, and are never markup.
"""

from __future__ import annotations

from pathlib import Path

from fastapi.templating import Jinja2Templates

from ladder.rating import formatting

TEMPLATES = Path(__file__).with_name("templates")
STATIC = Path(__file__).with_name("static")

templates = Jinja2Templates(directory=TEMPLATES)
assert templates.env.autoescape, "autoescape must stay on"


# One format for numbers across the command line and the web (``ladder/rating/formatting.py``).
templates.env.filters["fixed"] = formatting.fixed
templates.env.filters["percent"] = formatting.percent
templates.env.filters["score"] = formatting.score
templates.env.filters["signed"] = formatting.signed
