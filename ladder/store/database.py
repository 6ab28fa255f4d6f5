"""Opening the store: the engine (SQLite in WAL mode by default), migrations, sessions.

Every query elsewhere is plain SQLAlchemy Core/ORM with no dialect-specific SQL, so the same
code runs on PostgreSQL (``$DEHLA_DATABASE_URL``). The schema is created and upgraded by the
Alembic migrations in ``ladder/store/migrations`` whenever the store is opened.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from sqlalchemy import Engine, create_engine, event, inspect, make_url, text
from sqlalchemy.exc import ArgumentError, DBAPIError, SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker

from arena.engine.errors import ArenaError
from ladder.store.paths import DATABASE_URL_ENV, ArenaData

if TYPE_CHECKING:
    from alembic.config import Config

MIGRATIONS = Path(__file__).with_name("migrations")
HEAD = "0011"
"""The newest migration; a store already there opens without loading Alembic (a test checks it)."""


SQLITE_HEADER = b"SQLite format 3\0"
FOREIGN = "a database with tables but not a ladder store (no alembic_version), left untouched"


class StoreError(ArenaError):
    """The store cannot be opened, upgraded or read; the message says which and why."""


def describe(url: str) -> str:
    """The store as a person would name it: the SQLite file, or the URL without its password."""
    try:
        parsed = make_url(url)
    except ArgumentError:
        return "the store (unparsable database URL)"
    if parsed.get_backend_name() == "sqlite" and parsed.database:
        return f"store {parsed.database}"
    return f"store {parsed.render_as_string(hide_password=True)}"


def sqlite_file(url: str) -> Path | None:
    """The file of an SQLite store (None: another database, or an in-memory one)."""
    try:
        parsed = make_url(url)
    except ArgumentError:
        return None
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        return None
    return Path(parsed.database)


def refuse_non_store(path: Path) -> None:
    """An existing file that is not a ladder store is never opened as one: SQLite would take an
    empty file for a new database, and the engine's pragmas and the migrations would write into a
    foreign one. Read with a plain connection (no pragmas, a read transaction writes nothing)."""
    try:
        with path.open("rb") as file:
            header = file.read(len(SQLITE_HEADER))
    except FileNotFoundError:
        return  # a fresh store is created here
    except OSError as exc:
        raise StoreError(f"store {path}: cannot read ({exc.strerror})") from None
    if header != SQLITE_HEADER:
        what = "is empty (0 bytes)" if not header else "is not an SQLite database"
        raise StoreError(f"store {path} {what}: not a ladder store, left untouched; move it away to start a "
                         "new store, or restore it from a backup")
    connection = sqlite3.connect(path)
    try:
        tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    except sqlite3.DatabaseError as exc:
        raise StoreError(f"store {path}: cannot read it (DatabaseError: {exc}); if it is damaged, restore it "
                         "from a backup") from None
    finally:
        connection.close()
    if tables and "alembic_version" not in tables:
        raise StoreError(f"store {path}: {FOREIGN}")


def _describe_error(exc: SQLAlchemyError) -> str:
    original = getattr(exc, "orig", None)
    cause = original if original is not None else exc
    first = str(cause).splitlines()[0] if str(cause) else ""
    return f"{type(cause).__name__}: {first}"


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
    elif engine.dialect.name == "postgresql":
        event.listen(engine, "connect", _refuse_non_utf8, insert=True)  # before SQLAlchemy's own first look
    return engine


def alembic_config() -> Config:
    from alembic.config import Config  # noqa: PLC0415 - Alembic loads only when a migration may run

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return config


class NotUtf8Error(StoreError):
    """A PostgreSQL database made in another encoding than UTF8."""


def _refuse_non_utf8(dbapi_connection: Any, _record: Any) -> None:
    """A PostgreSQL database made in another encoding (``SQL_ASCII``: psycopg then hands back bytes
    for text, and SQLAlchemy's first look at the server fails with a traceback) is refused on
    connecting, before anything reads it."""
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute("SHOW server_encoding")
        row = cursor.fetchone()
    finally:
        cursor.close()
    encoding = row[0] if row else None
    if isinstance(encoding, bytes):
        encoding = encoding.decode("ascii", "replace")
    if encoding != "UTF8":
        raise NotUtf8Error(f"the database's encoding is {encoding}, not UTF8; create it with "
                           "`createdb -E UTF8 -T template0 ...`")


def upgrade(engine: Engine, data_root: Path | None = None) -> None:
    """Bring the schema to the newest migration (a no-op when it is already there). A database
    with tables but no migration history belongs to something else: refused, never written.
    ``data_root``: the store's data folder, where a store made before kept files the migrations
    move into it (0010, 0011)."""
    with engine.connect() as connection:
        inspector = inspect(connection)
        if inspector.has_table("alembic_version"):
            current = connection.execute(text("SELECT version_num FROM alembic_version")).scalars().all()
            if current == [HEAD]:
                return
        elif inspector.get_table_names():
            raise StoreError(f"{describe(str(engine.url))}: {FOREIGN}")
    from alembic import command  # noqa: PLC0415

    config = alembic_config()
    with engine.connect() as connection:
        sqlite = engine.dialect.name == "sqlite"
        if sqlite:  # a batch migration copies a table and drops the old one, which the rows of
            # other tables still point at: SQLite allows that only with foreign keys off, and the
            # pragma only takes effect outside a transaction; the keys are checked before the commit.
            connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
            connection.commit()
        try:
            with connection.begin():
                config.attributes["connection"] = connection
                config.attributes["data_root"] = data_root
                command.upgrade(config, "head")
                if sqlite and connection.exec_driver_sql("PRAGMA foreign_key_check").first() is not None:
                    raise StoreError(f"{describe(str(engine.url))}: after the upgrade, rows point at missing "
                                     "rows (PRAGMA foreign_key_check); restore it from a backup")
        finally:
            if sqlite:
                connection.rollback()  # a failed upgrade leaves no open transaction to set the pragma in
                connection.exec_driver_sql("PRAGMA foreign_keys=ON")
                connection.commit()


class Store:
    """The ladder's database plus the data folder it belongs to."""

    def __init__(self, data: ArenaData, engine: Engine) -> None:
        self.data = data
        self.engine = engine
        self._sessions = sessionmaker(engine, expire_on_commit=False)

    @classmethod
    def open(cls, data: ArenaData) -> Store:
        """Open (or, where no file exists yet, create) the store and bring it to the newest schema."""
        try:
            data.root.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"data folder {data.root}: cannot create ({exc.strerror})") from None
        path = sqlite_file(data.database_url)
        if path is not None:
            refuse_non_store(path)
        try:
            engine = make_engine(data.database_url)
            upgrade(engine, data.root)
        except ImportError as exc:  # e.g. postgresql+psycopg:// without the postgres extra
            raise StoreError(f"{describe(data.database_url)}: its database driver is not installed ({exc}); "
                             "for PostgreSQL: pip install 'dehla-arena[postgres]'") from None
        except NotUtf8Error as exc:
            raise StoreError(f"{describe(data.database_url)}: {exc}") from None
        except SQLAlchemyError as exc:
            raise damaged(data.database_url, exc) from None
        return cls(data, engine)

    def check_integrity(self) -> None:
        """Refuse a damaged SQLite store before using it (``PRAGMA quick_check``: reads every page
        once, milliseconds for a ladder's store; a no-op on other databases, which check themselves)."""
        if self.engine.dialect.name != "sqlite":
            return
        try:
            with self.engine.connect() as connection:
                verdict = connection.exec_driver_sql("PRAGMA quick_check(1)").scalar()
        except SQLAlchemyError as exc:
            raise damaged(str(self.engine.url), exc) from None
        if verdict != "ok":
            detail = " ".join(str(verdict).replace("*** in database main ***", "").split())
            raise StoreError(f"{describe(str(self.engine.url))} is damaged ({detail}); left untouched: "
                             "restore it from a backup")

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


def damaged(url: str, exc: SQLAlchemyError) -> StoreError:
    """A database error as one line: which store, what the driver said, what to check."""
    if sqlite_file(url) is None and not url.startswith("sqlite"):
        hint = f"check that its server runs, the database exists and ${DATABASE_URL_ENV} names it"
    else:
        hint = "if it is damaged, restore it from a backup"
    return StoreError(f"{describe(url)}: cannot use it ({_describe_error(exc)}); {hint}")


T = TypeVar("T")
RETRYABLE_SQLSTATES = ("40P01", "40001")
"""PostgreSQL's deadlock_detected and serialization_failure: the transaction was rolled back
whole, so running it again is safe."""
CONFLICT_TRIES = 5


def retry_on_conflict(step: Callable[[], T]) -> T:
    """Run ``step`` (one whole transaction) again when PostgreSQL ended it as a deadlock or a
    serialization failure with another coordinator's; any other error goes on as it came."""
    for attempt in range(1, CONFLICT_TRIES + 1):
        try:
            return step()
        except DBAPIError as exc:
            if getattr(exc.orig, "sqlstate", None) not in RETRYABLE_SQLSTATES or attempt == CONFLICT_TRIES:
                raise
    raise AssertionError("unreachable")
