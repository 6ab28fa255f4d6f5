"""The arena's data folder: one place for the store, submitted bots and match records.

Chosen by ``--data``, else ``$DEHLA_DATA``, else ``$XDG_DATA_HOME/dehla-arena`` (by default
``~/.local/share/dehla-arena``). ``$DEHLA_DATABASE_URL`` points the store elsewhere (e.g.
PostgreSQL) while bots and records stay in the folder.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

DATA_ENV = "DEHLA_DATA"
DATABASE_URL_ENV = "DEHLA_DATABASE_URL"


@dataclass(frozen=True, slots=True)
class ArenaData:
    """Where everything lives. Paths stored in the database are relative to ``root``."""

    root: Path
    database_url: str

    @classmethod
    def locate(cls, option: Path | None = None) -> ArenaData:
        root = option or _env_path(DATA_ENV) or (_env_path("XDG_DATA_HOME") or Path.home() / ".local" / "share")
        if option is None and _env_path(DATA_ENV) is None:
            root = root / "dehla-arena"
        root = root.expanduser().resolve()
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


def _env_path(name: str) -> Path | None:
    value = os.environ.get(name, "").strip()
    return Path(value) if value else None
