"""Alembic environment: the store passes its open connection in ``config.attributes``."""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection, create_engine

from ladder.store.schema import Base

config = context.config


def run(connection: Connection) -> None:
    context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


connection = config.attributes.get("connection")
if connection is not None:
    run(connection)
else:  # the ``alembic`` command line with ``sqlalchemy.url`` set
    url = config.get_main_option("sqlalchemy.url")
    assert url, "set sqlalchemy.url or pass a connection"
    with create_engine(url).connect() as conn:
        run(conn)
