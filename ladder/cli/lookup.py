"""Finding a submitted bot's stored folder by name, for ``dehla match NAME`` and ``NAME#N``, and
a ladder match's record, for ``dehla replay --match ID``."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import select
from sqlalchemy.exc import SQLAlchemyError

from arena.engine.errors import ArenaError, RecordError
from ladder.store.database import Store, damaged
from ladder.store.match_files import DamagedFileError, read_stored, stored_name
from ladder.store.paths import ArenaData
from ladder.store.schema import Bot, BotVersion, Match

RECORD_READ_CAP = 64 * 1024 * 1024


def submitted_bot_folder(spec: str, data: ArenaData | None = None) -> Path | None:
    """The stored folder of submitted bot ``NAME`` (its newest version) or ``NAME#N``.

    Returns None when the name is not a submitted bot, or when there is no store yet (a
    ``dehla match`` never creates one).
    """
    name, _, number = spec.partition("#")
    if not name or (number and not (number.isascii() and number.isdigit() and int(number) < 2**63)):
        return None  # not a version number SQLite's integers can hold: no such version
    data = data or ArenaData.locate()
    if data.database_url.startswith("sqlite:///") and not Path(data.database_url[len("sqlite:///"):]).exists():
        return None
    store = Store.open(data)
    try:
        with store.reading() as session:
            query = select(BotVersion).join(Bot, Bot.id == BotVersion.bot_id).where(Bot.name == name)
            if number:
                query = query.where(BotVersion.number == int(number))
            version = session.scalars(query.order_by(BotVersion.number.desc())).first()
            return None if version is None else data.root / version.path
    except SQLAlchemyError as exc:  # a damaged store: one line (a StoreError), not a traceback
        raise damaged(data.database_url, exc) from None
    finally:
        store.close()


def stored_record(match_id: int, data: ArenaData) -> tuple[str, str]:
    """``(where, text)`` of match ``match_id``'s record, from the store. Every failure is an ``ArenaError``."""
    if data.database_url.startswith("sqlite:///") and not Path(data.database_url[len("sqlite:///"):]).exists():
        raise ArenaError(f"no ladder store in {data.root} (--data, or $DEHLA_DATA)")
    store = Store.open(data)
    try:
        with store.reading() as session:
            match = session.get(Match, match_id)
            if match is None:
                raise ArenaError(f"no match {match_id} in the ladder")
            if match.record_path is None:
                raise ArenaError(f"match {match_id} has no record")
            where = f"match {match_id} ({match.record_path})"
            try:
                found = read_stored(session, match_id, stored_name(match.record_path), RECORD_READ_CAP)
            except DamagedFileError as exc:
                raise RecordError(f"{where}: {exc}") from None
            if found is None:
                raise RecordError(f"{where}: not in the store; not read")
            content = found.content
    except SQLAlchemyError as exc:
        raise damaged(data.database_url, exc) from None
    finally:
        store.close()
    try:
        return where, content.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RecordError(f"{where}: not UTF-8 text (byte {exc.start})") from None
