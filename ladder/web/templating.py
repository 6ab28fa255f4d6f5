"""The Jinja2 environment every page renders with.

Autoescaping is on for every template (``.html``): names, labels, author names and record
contents come from authors and bots, and are never markup.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from fastapi.templating import Jinja2Templates
from markupsafe import Markup, escape

from arena.referee.live_view import STALE_AFTER
from ladder.rating import formatting

TEMPLATES = Path(__file__).with_name("templates")
STATIC = Path(__file__).with_name("static")

templates = Jinja2Templates(directory=TEMPLATES)
assert templates.env.autoescape, "autoescape must stay on"


def when(value: str | None, missing: str = "–") -> Markup:
    """A stored time (UTC, ISO 8601) as ``<time datetime=...Z>`` with UTC text, which the page's
    small script (``static/local-time.js``) rewrites in the reader's own time zone."""
    if not value:
        return Markup(escape(missing))
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        return Markup(escape(value))
    moment = moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)
    stamp = moment.strftime("%Y-%m-%dT%H:%M:%SZ")
    return Markup('<time datetime="{}">{} UTC</time>').format(stamp, moment.strftime("%Y-%m-%d %H:%M"))


def unix_when(seconds: float) -> Markup:
    """A Unix time (a live file's ``updated``, bounded by its model) as ``when`` shows a stored one."""
    return when(datetime.fromtimestamp(seconds, UTC).isoformat())


# One format for numbers across the command line and the web (``ladder/rating/formatting.py``).
templates.env.filters["fixed"] = formatting.fixed
templates.env.filters["percent"] = formatting.percent
templates.env.filters["score"] = formatting.score
templates.env.filters["signed"] = formatting.signed
templates.env.filters["when"] = when
templates.env.filters["unix_when"] = unix_when
templates.env.globals["stale_after"] = round(STALE_AFTER)
