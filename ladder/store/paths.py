"""The arena's data folder: one place for the store, submitted bots and match records.

Chosen by ``--data``, else ``$DEHLA_DATA``, else ``$XDG_DATA_HOME/dehla-arena`` (by default
``~/.local/share/dehla-arena``). ``$DEHLA_DATABASE_URL`` points the store elsewhere (e.g.
PostgreSQL) while bots and records stay in the folder.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from arena.console.data import data_root

DATABASE_URL_ENV = "DEHLA_DATABASE_URL"
LIVE_FOLDER = "live"
"""Where the ladder's local workers publish the public tables of the matches they play
(``arena.referee.live_view``), for ``dehla serve``'s live pages."""


@dataclass(frozen=True, slots=True)
class ArenaData:
    """Where everything lives. Paths stored in the database are relative to ``root``."""

    root: Path
    database_url: str

    @classmethod
    def locate(cls, option: Path | None = None) -> ArenaData:
        root = data_root(option)
        url = os.environ.get(DATABASE_URL_ENV) or f"sqlite:///{root / 'ladder.db'}"
        return cls(root, url)

    @property
    def bots(self) -> Path:
        """Submitted bot versions: ``bots/NAME/HASH12/`` (read-only copies)."""
        return self.root / "bots"

    @property
    def matches(self) -> Path:
        """Ladder match records and bot logs."""
        return self.root / "matches"

    @property
    def validation(self) -> Path:
        """Records of submission validation matches."""
        return self.root / "validation"

    @property
    def samples(self) -> Path:
        """Generated folder forms of the sample bots (``dehla submit --sample NAME``)."""
        return self.root / "samples"
