"""The ladder's bots a person may sit with: the newest version of every bot an operator has not
disabled (nor that version), started from its stored archive as a ladder worker starts it.

A name comes from the form; it is only ever compared with the names this module lists from the
store (``NAME#N``), never turned into a path: the folder is the version cache's, found by the
version's content hash (``ladder/versions/version_cache.py``), filled from the store's archive
and checked against its hashes, exactly as ``ladder.execution.jobs.resolve_seats`` does.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select

from arena.referee.launcher import BotCommand
from ladder.execution.jobs import SeatBot, seat_command
from ladder.store.archives import archive_of, store_source
from ladder.store.database import Store
from ladder.store.paths import ArenaData
from ladder.store.schema import Bot, BotVersion
from ladder.versions.version_cache import VersionCache


class UnknownLadderBotError(LookupError):
    """A name that is not one of the ladder's playable bots (now)."""


@dataclass(frozen=True, slots=True)
class LadderBot:
    """A playable version: its name as the ladder shows it (``NAME#N``) and its version id."""

    name: str
    version_id: int


def playable_bots(store: Store) -> list[LadderBot]:
    """Each bot's newest version, unless the bot or that version is disabled, by name."""
    with store.reading() as session:
        rows = session.execute(
            select(Bot.name, BotVersion.id, BotVersion.number, BotVersion.disabled_at)
            .join(BotVersion, BotVersion.bot_id == Bot.id)
            .where(Bot.disabled_at.is_(None))
            .order_by(Bot.name, BotVersion.number.desc())).all()
    newest: dict[str, LadderBot | None] = {}
    for name, version_id, number, disabled_at in rows:
        if name not in newest:
            newest[name] = None if disabled_at is not None else LadderBot(f"{name}#{number}", version_id)
    return [bot for bot in newest.values() if bot is not None]


def ladder_command(store: Store, data: ArenaData, name: str, cache: VersionCache | None = None) -> BotCommand:
    """How to start the playable bot called ``name`` (``NAME#N``): its folder resolved from the
    store's archive into the version cache; ``UnknownLadderBotError`` for any other name."""
    found = next((bot for bot in playable_bots(store) if bot.name == name), None)
    if found is None:
        raise UnknownLadderBotError(f"no playable ladder bot {name!r} (it may have been disabled or replaced)")
    with store.reading() as session:
        version = session.get(BotVersion, found.version_id)
        assert version is not None  # listed in this store a moment ago; versions are never deleted
        ref = archive_of(session, version)
    folder = (cache or VersionCache()).resolve(ref, [store_source(data)])
    return seat_command(SeatBot(found.version_id, found.name, ref.content_hash, ref.archive_sha256), folder)
