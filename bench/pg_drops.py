"""What dropping a test session's databases costs on PostgreSQL: one after another on one
connection (the old ``tests/database.drop_created``) against several connections at once.

    pg_virtualenv -t -o fsync=off -o full_page_writes=off -o synchronous_commit=off -- \\
        .venv/bin/python bench/pg_drops.py [--databases 60] [--connections 1 8]

PostgreSQL 15's ``DROP DATABASE`` asks for an immediate checkpoint and waits for it (the server
log shows one "checkpoint starting: immediate force wait" per drop): on a loaded machine each
drop waits for the checkpointer to be scheduled. Drops on several connections at once wait for
the same checkpoints. Each arm copies a migrated store ``--databases`` times (``CREATE DATABASE
... TEMPLATE``, as the tests do), then times dropping them all; the server's requested
checkpoints are counted (``pg_stat_bgwriter.checkpoints_req``). ``--idle N``: N more connections
stay open and idle meanwhile, as a test run's stores keep theirs (each backend must absorb every
drop's barrier). The last line is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sqlalchemy import Connection, create_engine, make_url, text
from sqlalchemy.pool import NullPool

from ladder.store.database import make_engine, upgrade
from tests.database import drop_all

SERVER = make_url("postgresql+psycopg:///postgres")
TEMPLATE = "bench_drops_migrated"


def checkpoints(admin: Connection) -> int:
    return int(admin.execute(text("SELECT checkpoints_req FROM pg_stat_bgwriter")).scalar_one())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--databases", type=int, default=60)
    parser.add_argument("--connections", type=int, nargs="+", default=[1, 8])
    parser.add_argument("--idle", type=int, default=0)
    args = parser.parse_args()
    server = create_engine(SERVER, isolation_level="AUTOCOMMIT", poolclass=NullPool)
    admin = server.connect()
    idle = [server.connect() for _ in range(args.idle)]
    admin.execute(text(f'DROP DATABASE IF EXISTS "{TEMPLATE}"'))
    admin.execute(text(f'CREATE DATABASE "{TEMPLATE}"'))
    engine = make_engine(SERVER.set(database=TEMPLATE).render_as_string(hide_password=False))
    upgrade(engine)
    engine.dispose()
    arms = []
    for connections in args.connections:
        names = [f"bench_drop_{connections}_{n}" for n in range(args.databases)]
        for name in names:
            admin.execute(text(f'CREATE DATABASE "{name}" TEMPLATE "{TEMPLATE}"'))
        before = checkpoints(admin)
        started = time.perf_counter()
        drop_all(names, connections)
        seconds = time.perf_counter() - started
        arms.append({"connections": connections, "databases": len(names), "idle": args.idle,
                     "seconds": round(seconds, 2), "checkpoints_requested": checkpoints(admin) - before})
        print(arms[-1], flush=True)
    admin.execute(text(f'DROP DATABASE "{TEMPLATE}"'))
    for connection in [admin, *idle]:
        connection.close()
    print(json.dumps({"arms": arms}))


if __name__ == "__main__":
    main()
