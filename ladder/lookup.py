"""Finding a submitted bot's stored folder by name, for ``dehla match NAME`` and ``NAME#N``."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import select
from sqlalchemy.exc import SQLAlchemyError

from ladder.paths import ArenaData
from ladder.schema import Bot, BotVersion
from ladder.store import Store, damaged


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
