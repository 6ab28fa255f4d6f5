"""The web pages on the generated store in PostgreSQL, against the same store in SQLite, in one run.

``pg_virtualenv -t -- python bench/web_postgres.py --store DIR [--postgres URL] [--requests 40]``

Both stores are filled by ``bench/web_store.py`` with the same seed (1,000 versions, 100,000
matches; reused when already filled) and share one data folder ``DIR`` (its match records).
The PostgreSQL store is ``--postgres`` (a SQLAlchemy URL of an existing database), else the
database ``dehla_web_bench`` on the server libpq's ``PG*`` variables name (what ``pg_virtualenv``
exports), created when missing. Each page is then requested from both applications in turn,
the same path on each (the order flips every request), so the machine's load falls on both
alike. The last line is one JSON object: p50/p95 in ms per page and store, and the fill times.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from fastapi.testclient import TestClient
from sqlalchemy import URL, func, make_url, select, text

from bench.web import available_pages, get_ms, pages, quantiles, real_records
from bench.web_store import generate
from ladder.store.database import Store, make_engine
from ladder.store.paths import ArenaData
from ladder.store.schema import Match
from ladder.web.app import create_app, settle_garbage_collector

BENCH_DATABASE = "dehla_web_bench"


def default_postgres() -> URL:
    """``dehla_web_bench`` on libpq's server, created if missing (CREATE DATABASE needs autocommit)."""
    server = make_url("postgresql+psycopg:///postgres")
    engine = make_engine(server.render_as_string(hide_password=False))
    try:
        with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
            exists = connection.execute(text("SELECT 1 FROM pg_database WHERE datname = :name"),
                                        {"name": BENCH_DATABASE}).first()
            if exists is None:
                connection.execute(text(f'CREATE DATABASE "{BENCH_DATABASE}"'))
    finally:
        engine.dispose()
    return server.set(database=BENCH_DATABASE)


def match_count(data: ArenaData) -> int:
    store = Store.open(data)
    try:
        with store.reading() as session:
            return session.execute(select(func.count()).select_from(Match)).scalar_one()
    finally:
        store.close()


def fill(data: ArenaData, versions: int, matches: int, records: list[Path]) -> dict[str, object]:
    """Generate the store unless it already holds matches (then it is taken as it is)."""
    if match_count(data):
        return {"reused": True}
    return generate(data, versions, matches, 1, records)


def sample_records(root: Path) -> list[Path]:
    """The real records a previous fill copied into ``root``, else two from a short real ladder."""
    kept = sorted((root / "matches").glob("sample*.jsonl"))
    if kept:
        return kept
    scratch = Path(tempfile.mkdtemp(prefix="dehla-web-pg-records-"))
    return real_records(scratch)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", type=Path, required=True, help="The data folder (records, the SQLite store).")
    parser.add_argument("--postgres", default=None, help="SQLAlchemy URL of the PostgreSQL database to fill.")
    parser.add_argument("--requests", type=int, default=40)
    parser.add_argument("--versions", type=int, default=1000)
    parser.add_argument("--matches", type=int, default=100_000)
    args = parser.parse_args()
    postgres_url = make_url(args.postgres) if args.postgres else default_postgres()
    stores = {"sqlite": ArenaData(args.store, f"sqlite:///{args.store / 'ladder.db'}"),
              "postgresql": ArenaData(args.store, postgres_url.render_as_string(hide_password=False))}
    args.store.mkdir(parents=True, exist_ok=True)
    records = sample_records(args.store)
    filled = {name: fill(data, args.versions, args.matches, records) for name, data in stores.items()}
    clients: dict[str, TestClient] = {}
    timed: dict[str, dict[str, Callable[[random.Random], str]]] = {}
    skipped: dict[str, dict[str, str]] = {}
    for name, data in stores.items():
        app = create_app(data)
        clients[name] = TestClient(app)
        bots = sorted(row["bot"] for row in clients[name].get("/api/leaderboard").json())
        timed[name], skipped[name] = available_pages(clients[name], pages(app, bots, args.matches))
    settle_garbage_collector()  # as dehla serve does once it has started
    names = [page for page in timed["sqlite"] if page in timed["postgresql"]]
    results: dict[str, dict[str, dict[str, float]]] = {}
    for page in names:
        rngs = {store: random.Random(7) for store in stores}
        times: dict[str, list[float]] = {store: [] for store in stores}
        for request in range(args.requests):
            order = list(stores) if request % 2 == 0 else list(reversed(stores))
            for store in order:
                times[store].append(get_ms(clients[store], timed[store][page](rngs[store])))
        results[page] = {store: quantiles(values) for store, values in times.items()}
        line = "   ".join(f"{store} p50 {q['p50_ms']:8.2f} p95 {q['p95_ms']:8.2f}"
                           for store, q in results[page].items())
        print(f"{page:24} {line}  (ms)")
    print(json.dumps({"filled": filled, "requests": args.requests, "pages": results, "skipped": skipped,
                      "postgres": postgres_url.render_as_string(hide_password=True)}))


if __name__ == "__main__":
    main()
