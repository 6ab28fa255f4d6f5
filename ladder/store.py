"""Opening the store: the engine (SQLite in WAL mode by default), migrations, sessions.

Every query elsewhere is plain SQLAlchemy Core/ORM with no dialect-specific SQL, so the same
code runs on PostgreSQL (``$DEHLA_DATABASE_URL``). The schema is created and upgraded by the
Alembic migrations in ``ladder/migrations`` whenever the store is opened.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import Engine, create_engine, event, inspect, text
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker

from arena.engine.errors import ArenaError
from ladder.paths import ArenaData

if TYPE_CHECKING:
    from alembic.config import Config

MIGRATIONS = Path(__file__).with_name("migrations")
HEAD = "0002"
"""The newest migration; a store already there opens without loading Alembic (a test checks it)."""


class StoreError(ArenaError):
    """The store cannot be opened or upgraded; the message says which and why."""


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


def make_engine(url: str) -> Engine:
    engine = create_engine(url, future=True)
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _sqlite_pragmas)
    return engine


def alembic_config() -> Config:
    from alembic.config import Config  # noqa: PLC0415 - Alembic loads only when a migration may run

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return config


def upgrade(engine: Engine) -> None:
    """Bring the schema to the newest migration (a no-op when it is already there)."""
    with engine.connect() as connection:
        if inspect(connection).has_table("alembic_version"):
            current = connection.execute(text("SELECT version_num FROM alembic_version")).scalars().all()
            if current == [HEAD]:
                return
    from alembic import command  # noqa: PLC0415

    config = alembic_config()
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


class Store:
    """The ladder's database plus the data folder it belongs to."""

    def __init__(self, data: ArenaData, engine: Engine) -> None:
        self.data = data
        self.engine = engine
        self._sessions = sessionmaker(engine, expire_on_commit=False)

    @classmethod
    def open(cls, data: ArenaData) -> Store:
        try:
            data.root.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"data folder {data.root}: cannot create ({exc.strerror})") from None
        try:
            engine = make_engine(data.database_url)
            upgrade(engine)
        except SQLAlchemyError as exc:
            raise StoreError(f"store {data.database_url}: {type(exc).__name__}: {exc.args[0] if exc.args else exc}") \
                from None
        return cls(data, engine)

    @contextmanager
    def transaction(self) -> Iterator[Session]:
        """A session whose work commits together at the end, or not at all."""
        with self._sessions.begin() as session:
            yield session

    @contextmanager
    def reading(self) -> Iterator[Session]:
        with self._sessions() as session:
            yield session

    def close(self) -> None:
        self.engine.dispose()
