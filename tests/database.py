"""Which database the tests' stores live in: an SQLite file in the data folder (the default), or,
with ``DEHLA_TEST_DATABASE=postgresql``, a fresh database on a real PostgreSQL server.

The server is ``$DEHLA_TEST_PG_URL`` (a SQLAlchemy URL of any database on it, e.g.
``postgresql+psycopg://me@/postgres?host=/run/postgresql``), or else libpq's own ``PG*`` variables
(what ``pg_virtualenv`` exports). Every data folder gets a database of its own, named after the
folder, so a test's stores are as separate as its folders are; the ``dehla`` subprocesses a test
starts reach the same one through ``$DEHLA_DATABASE_URL`` (``database_env``).

Each such database is a copy of one migrated once per test session (``CREATE DATABASE ...
TEMPLATE``, a file copy on the server): running the migrations into every test's database cost
most of the PostgreSQL pass. A test of the migrations themselves asks for ``empty_database_url``.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from sqlalchemy import URL, ColumnElement, Connection, MetaData, Table, create_engine, make_url, select, text
from sqlalchemy.pool import NullPool

from ladder.store.database import make_engine, upgrade
from ladder.store.paths import DATABASE_URL_ENV

TEST_DATABASE_ENV = "DEHLA_TEST_DATABASE"
TEST_PG_URL_ENV = "DEHLA_TEST_PG_URL"
POSTGRES = os.environ.get(TEST_DATABASE_ENV, "sqlite") == "postgresql"
PREFIX = "dehla_test_"
MIGRATED = f"{PREFIX}migrated_{os.getpid()}"
"""The session's migrated store that every test database is copied from (the pid keeps two test
sessions on one server apart)."""

_created: set[str] = set()
_connection: Connection | None = None
_requests = 0
"""How many times a test asked for a store here: ``tests/store_users.py`` reads it to tell the
tests that have a store (and so run again on PostgreSQL) from those that never do."""


def _requested() -> None:
    global _requests
    _requests += 1


def requests() -> int:
    """The store requests of this process so far (a count that only grows)."""
    return _requests


def server_url() -> URL:
    """The test server; without ``$DEHLA_TEST_PG_URL`` libpq fills in host, port, user, password."""
    return make_url(os.environ.get(TEST_PG_URL_ENV) or "postgresql+psycopg:///postgres")


def database_name(root: Path) -> str:
    return PREFIX + hashlib.sha256(str(root.resolve()).encode()).hexdigest()[:20]


def _admin(sql: str) -> None:
    """One statement outside a transaction (CREATE/DROP DATABASE cannot run inside one), on the
    session's one connection to the server's ``postgres`` database (a new one each time cost
    more than the statement)."""
    global _connection
    if _connection is None:
        engine = create_engine(server_url().set(database="postgres"), isolation_level="AUTOCOMMIT",
                               poolclass=NullPool)
        _connection = engine.connect()
    _connection.execute(text(sql))


def _fresh(name: str, options: str = "") -> str:
    """A new database ``name`` (CREATE DATABASE ``options``), replacing a leftover of that name and
    dropped with the others at the session's end; its URL."""
    _admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    _admin(f'CREATE DATABASE "{name}" {options}')
    _created.add(name)
    return _url(name)


def database_with(root: Path, options: str) -> str:
    """A new, empty database for ``root`` made with CREATE DATABASE ``options`` (e.g. another
    encoding), dropped with the others at the session's end; its URL."""
    _requested()
    return _fresh(database_name(root), options)


def _url(name: str) -> str:
    return server_url().set(database=name).render_as_string(hide_password=False)


def _migrated() -> str:
    """The session's migrated store, made on first need: an empty database brought to HEAD by the
    store's own ``upgrade``; nothing stays connected, so it can be copied."""
    if MIGRATED not in _created:
        engine = make_engine(_fresh(MIGRATED))
        try:
            upgrade(engine)
        finally:
            engine.dispose()
    return MIGRATED


def database_url(root: Path) -> str:
    """The store URL of the data folder ``root``; on PostgreSQL, on first use, a copy of the
    session's migrated store (as ``Store.open`` would have left a fresh database)."""
    _requested()
    if not POSTGRES:
        return f"sqlite:///{root / 'ladder.db'}"
    name = database_name(root)
    if name not in _created:
        return _fresh(name, f'TEMPLATE "{_migrated()}"')
    return _url(name)


def empty_database_url(root: Path) -> str:
    """The store URL of ``root`` with nothing in it yet on PostgreSQL (for a test of the migrations
    run by ``Store.open``); on SQLite no file yet, as always."""
    _requested()
    if not POSTGRES:
        return database_url(root)
    return _fresh(database_name(root))


def copy_database(source: Path, root: Path) -> str:
    """A copy of ``source``'s store as ``root``'s (the SQLite file travels with the folder)."""
    _requested()
    if not POSTGRES:
        return database_url(root)
    return _fresh(database_name(root), f'TEMPLATE "{snapshot_name(source)}"')


def snapshot_name(root: Path) -> str:
    return database_name(root) + "_s"


def snapshot(root: Path) -> None:
    """Keep a copy of ``root``'s store as it is now for ``copy_database`` (a template database
    cannot be copied while anything is connected to it, and a served store always is)."""
    if POSTGRES:
        _admin(f'DROP DATABASE IF EXISTS "{snapshot_name(root)}" WITH (FORCE)')
        _admin(f'CREATE DATABASE "{snapshot_name(root)}" TEMPLATE "{database_name(root)}"')
        _created.add(snapshot_name(root))


def keep_for_the_run(root: Path) -> None:
    """``root``'s snapshot outlives this session (another worker of the run copies it later):
    the controller drops it at the run's end (``drop_kept``)."""
    if POSTGRES:
        _created.discard(snapshot_name(root))


def drop_kept(root: Path) -> None:
    """Drop what ``keep_for_the_run(root)`` kept, and ``root``'s own database, if they exist."""
    if POSTGRES:
        for name in (snapshot_name(root), database_name(root)):
            _admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


DROP_CONNECTIONS = 8
"""How many connections drop a session's databases at once (``drop_all``)."""


def drop_all(names: Iterable[str], connections: int = DROP_CONNECTIONS) -> None:
    """Drop the databases ``names`` (those that exist), on ``connections`` connections at once.
    PostgreSQL 15's ``DROP DATABASE`` asks for an immediate checkpoint and waits for it: one
    after another on a loaded machine each waited for the checkpointer to be scheduled (about a
    second: over 100 s for a worker's databases, on its last test's teardown); drops waiting at
    the same time share the checkpoints (``bench/pg_drops.py``, docs/performance.md, session 18)."""
    shares = [share for share in (sorted(names)[n::connections] for n in range(connections)) if share]
    if not shares:
        return
    engine = create_engine(server_url().set(database="postgres"), isolation_level="AUTOCOMMIT", poolclass=NullPool)

    def drop(share: list[str]) -> None:
        with engine.connect() as connection:
            for name in share:
                connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))

    try:
        with ThreadPoolExecutor(max_workers=len(shares)) as pool:
            for done in [pool.submit(drop, share) for share in shares]:
                done.result()
    finally:
        engine.dispose()


def drop_created() -> None:
    """Drop every database this test session created (the end of the session: leaving them to
    ``pg_virtualenv``'s removal of the cluster was tried and cost as much), several at once
    (``drop_all``); close the connection."""
    global _connection
    drop_all(_created)
    _created.clear()
    if _connection is not None:
        _connection.close()
        _connection.engine.dispose()
        _connection = None


def database_env(root: Path, env: dict[str, str] | None = None) -> dict[str, str]:
    """``env`` (this process's by default) for a ``dehla --data ROOT`` subprocess: on PostgreSQL
    with ``$DEHLA_DATABASE_URL`` naming ``root``'s database; on SQLite unchanged."""
    _requested()
    base = dict(os.environ if env is None else env)
    if POSTGRES:
        base[DATABASE_URL_ENV] = database_url(root)
    return base


def _order(table: Table) -> list[ColumnElement[object]]:
    """Rows by primary key (PostgreSQL cannot order by a JSON column), else by every column."""
    return list(table.primary_key.columns or table.columns)


def contents(url: str) -> dict[str, list[tuple[object, ...]]]:
    """Every row of every table, in a fixed order: what "changes nothing" compares, on any database."""
    engine = create_engine(url)
    try:
        metadata = MetaData()
        metadata.reflect(engine)
        with engine.connect() as connection:
            return {name: [tuple(row) for row in connection.execute(select(table).order_by(*_order(table)))]
                    for name, table in sorted(metadata.tables.items())}
    finally:
        engine.dispose()
