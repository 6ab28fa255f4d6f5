"""The arena's data folder: ``--data``, else ``$DEHLA_DATA``, else ``$XDG_DATA_HOME/dehla-arena``
(by default ``~/.local/share/dehla-arena``). Every command that keeps files resolves it here."""

from __future__ import annotations

import os
from pathlib import Path

DATA_ENV = "DEHLA_DATA"
BOT_LOOKUPS = "dehla.bot_lookups"
"""Key in the click context's ``meta`` under which the top-level command line hands the
referee's commands the lookups for submitted bots (the referee never imports the ladder)."""
RECORD_LOOKUP = "dehla.record_lookup"
"""Key under which it hands ``dehla replay --match ID`` the ladder's reader of a match's record
from the store: ``(match_id, data folder option) -> (where, text)``, raising an ``ArenaError``."""


def data_root(option: Path | None = None) -> Path:
    """The data folder's absolute path (not created here)."""
    root = option or env_path(DATA_ENV) or (env_path("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    if option is None and env_path(DATA_ENV) is None:
        root = root / "dehla-arena"
    return root.expanduser().resolve()


def env_path(name: str) -> Path | None:
    value = os.environ.get(name, "").strip()
    return Path(value) if value else None
