"""The PostgreSQL pass's own databases (``tests/database.py``): a session's are dropped several
at once at its end (``drop_all``), exactly those named, and a name already gone is no error."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.pool import NullPool

from tests import database


def existing() -> set[str]:
    engine = create_engine(database.server_url().set(database="postgres"), poolclass=NullPool)
    try:
        with engine.connect() as connection:
            return set(connection.execute(text("SELECT datname FROM pg_database")).scalars())
    finally:
        engine.dispose()


@pytest.mark.skipif(not database.POSTGRES, reason="PostgreSQL only: SQLite stores are files in the data folder")
def test_drop_all_drops_the_named_databases_and_no_other(tmp_path: Path) -> None:
    roots = [tmp_path / f"store{n}" for n in range(5)]
    for root in roots:
        database.database_url(root)  # a copy of the migrated store, as a test's
    names = [database.database_name(root) for root in roots]
    assert set(names) <= existing()
    database.drop_all([*names[:3], database.PREFIX + "never_made"], connections=2)
    left = existing()
    assert not set(names[:3]) & left
    assert set(names[3:]) <= left
