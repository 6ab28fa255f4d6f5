"""What one test's store costs on PostgreSQL: an empty database migrated by ``Store.open`` (the
old ``tests/database.py``) against a copy of one migrated once (``CREATE DATABASE ... TEMPLATE``).

``pg_virtualenv -t -- python bench/pg_test_databases.py [--rounds 20]``

Each round makes one database each way, alternating, and opens the store as a test would
(``Store.open``: the migrations run on the empty one, the copy is already at HEAD). The old way
also opened a new admin connection for each statement, as the old helper did. Times in ms; the
last line is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sqlalchemy import Connection, create_engine, make_url, text
from sqlalchemy.pool import NullPool

from ladder.store.database import Store, make_engine, upgrade
from ladder.store.paths import ArenaData

SERVER = make_url("postgresql+psycopg:///postgres")


def url(name: str) -> str:
    return SERVER.set(database=name).render_as_string(hide_password=False)


def fresh_admin(sql: str) -> None:
    """The old helper: an engine and a connection for each statement."""
    engine = create_engine(SERVER, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as connection:
            connection.execute(text(sql))
    finally:
        engine.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    admin: Connection = create_engine(SERVER, isolation_level="AUTOCOMMIT", poolclass=NullPool).connect()
    admin.execute(text('CREATE DATABASE "bench_migrated"'))
    engine = make_engine(url("bench_migrated"))
    upgrade(engine)
    engine.dispose()
    folder = Path(tempfile.mkdtemp(prefix="dehla-pg-dbs-"))

    def migrated_empty(name: str) -> None:
        fresh_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        fresh_admin(f'CREATE DATABASE "{name}"')
        Store.open(ArenaData(folder, url(name))).close()

    def copied(name: str) -> None:
        admin.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.execute(text(f'CREATE DATABASE "{name}" TEMPLATE "bench_migrated"'))
        Store.open(ArenaData(folder, url(name))).close()

    ways: dict[str, Callable[[str], None]] = {"migrated_empty": migrated_empty, "copied": copied}
    times: dict[str, list[float]] = {way: [] for way in ways}
    migrated_empty("bench_warm")  # Alembic's import and the first connection, outside the timing
    for round_number in range(args.rounds):
        order = list(ways) if round_number % 2 == 0 else list(reversed(ways))
        for way in order:
            started = time.perf_counter()
            ways[way](f"bench_{way}_{round_number}")
            times[way].append((time.perf_counter() - started) * 1000)
    result = {way: {"p50_ms": round(statistics.median(values), 1), "min_ms": round(min(values), 1)}
              for way, values in times.items()}
    saved = result["migrated_empty"]["p50_ms"] - result["copied"]["p50_ms"]
    for way, figures in result.items():
        print(f"{way:16} p50 {figures['p50_ms']:8.1f} ms   min {figures['min_ms']:8.1f} ms")
    print(json.dumps({"rounds": args.rounds, "per_database": result, "saved_p50_ms": round(saved, 1)}))


if __name__ == "__main__":
    main()
