"""A generated ladder store of realistic size, for the web bench (and the PostgreSQL issue).

``python bench/web_store.py --data DIR [--versions 1000] [--matches 100000] [--seed 1]``
fills DIR's store (SQLite by default, ``$DEHLA_DATABASE_URL`` for another database) with
bots, versions, partnerships, finished matches, their results, rating histories and faults,
as a ladder would have written them. Ratings follow a seeded random walk towards each
version's hidden strength (TrueSkill itself would take hours for 100,000 matches; the pages
only read the numbers). Every match holds one of a few real match records (``--records``) as
its ``match_files`` row, as a counted match does, so match pages and replays have real hands to
read (each match its own copy, compressed: about as many bytes again as the rest of the store).

The rows are inserted with SQLAlchemy Core in large batches through the store's own schema
(opened with ``Store.open``, so the migrations ran first). On PostgreSQL the id sequences are
then moved past the rows (they were inserted with their ids, so a ladder run on the store
would otherwise collide with them) and the tables analysed, as autovacuum would have done by
the time a ladder had written that much.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
import zlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sqlalchemy import Engine, insert, text

from ladder.store.database import Store
from ladder.store.match_files import LEVEL
from ladder.store.paths import ArenaData
from ladder.store.report_files import record_name
from ladder.store.schema import (
    Bot,
    BotVersion,
    FaultRow,
    Match,
    MatchFile,
    Partnership,
    PresetCounts,
    RatingChange,
    Result,
)

BATCH = 20_000
START = datetime(2026, 1, 1, tzinfo=UTC)
FAULT_KINDS = ("timeout", "illegal_action", "crash", "malformed_reply")


@dataclass(slots=True)
class Rating:
    mu: float = 25.0
    sigma: float = 25.0 / 3
    matches: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    last: datetime | None = None

    def step(self, target: float, outcome: str, rng: random.Random, when: datetime) -> tuple[float, float]:
        before = (self.mu, self.sigma)
        self.mu += 0.08 * (target - self.mu) + rng.gauss(0, 0.4) * self.sigma / 8.33
        self.sigma = max(0.8, self.sigma * 0.985)
        self.matches += 1
        self.wins += outcome == "win"
        self.draws += outcome == "draw"
        self.losses += outcome == "loss"
        self.last = when
        return before

    def columns(self) -> dict[str, Any]:
        return {"mu": self.mu, "sigma": self.sigma, "matches": self.matches, "wins": self.wins,
                "draws": self.draws, "losses": self.losses, "last_played_at": self.last}


def batched(rows: Iterator[dict[str, Any]] | Sequence[dict[str, Any]]) -> Iterator[list[dict[str, Any]]]:
    batch: list[dict[str, Any]] = []
    for row in rows:
        batch.append(row)
        if len(batch) == BATCH:
            yield batch
            batch = []
    if batch:
        yield batch


def generate(data: ArenaData, versions: int, matches: int, seed: int, records: Sequence[Path]) -> dict[str, Any]:
    """Fill ``data``'s (empty) store; returns counts and the seconds it took."""
    started = time.perf_counter()
    rng = random.Random(seed)
    store = Store.open(data)
    record_files = _compressed(records)
    bots: list[dict[str, Any]] = []
    version_rows: list[dict[str, Any]] = []
    bot_id = 0
    while len(version_rows) < versions:
        bot_id += 1
        bots.append({"id": bot_id, "name": f"bot{bot_id:04d}", "author": f"author{bot_id % 97:02d}",
                     "created_at": START})
        for number in range(1, min(rng.randint(1, 4), versions - len(version_rows)) + 1):
            version_id = len(version_rows) + 1
            version_rows.append({"id": version_id, "bot_id": bot_id, "number": number, "label": f"{number}.0",
                                 "content_hash": f"{version_id:064x}",
                                 "path": f"bots/bot{bot_id:04d}/{version_id:012x}",
                                 "created_at": START + timedelta(days=number), "faults": 0})
    strength = {row["id"]: rng.gauss(25, 6) for row in version_rows}
    version_ratings = {row["id"]: Rating() for row in version_rows}
    pairs: dict[tuple[int, int], int] = {}
    partnership_ratings: dict[int, Rating] = {}

    def partnership(a: int, b: int) -> int:
        key = (min(a, b), max(a, b))
        if key not in pairs:
            pairs[key] = len(pairs) + 1
            partnership_ratings[pairs[key]] = Rating()
        return pairs[key]

    ids = [row["id"] for row in version_rows]
    regulars = {v: rng.sample(ids, 6) for v in ids}
    """Each version's few regular partners in mixed matches, as a scheduler that favours known
    pairs would give it: a few thousand partnerships rather than one per match."""
    match_rows: list[dict[str, Any]] = []
    result_rows: list[dict[str, Any]] = []
    change_rows: list[dict[str, Any]] = []
    fault_rows: list[dict[str, Any]] = []
    for match_id in range(1, matches + 1):
        when = START + timedelta(seconds=30 * match_id)
        finished = when + timedelta(seconds=20)
        a, b = rng.sample(ids, 2)
        seats = [a, b, a, b] if rng.random() < 0.5 else [a, b, rng.choice(regulars[a]), rng.choice(regulars[b])]
        team_a, team_b = partnership(seats[0], seats[2]), partnership(seats[1], seats[3])
        diff = strength[seats[0]] + strength[seats[2]] - strength[seats[1]] - strength[seats[3]] + rng.gauss(0, 8)
        winner = None if abs(diff) < 0.5 else (0 if diff > 0 else 1)
        margin = round(abs(diff) / 4, 1)
        match_rows.append({"id": match_id, "status": "done", "seed": rng.getrandbits(63), "preset": "dehla-pakad",
                           "match_format": "duplicate:4", "team_a_id": team_a, "team_b_id": team_b,
                           "seat0_id": seats[0], "seat1_id": seats[1], "seat2_id": seats[2], "seat3_id": seats[3],
                           "attempt": 1, "record_path": record_name(match_id),
                           "created_at": when, "started_at": when, "finished_at": finished})
        deal_scores = [round(rng.gauss(diff / 4, 2), 1) for _ in range(4)]
        result_rows.append({"match_id": match_id, "status": "done", "winner_team": winner,
                            "score_a": margin if winner == 0 else 0.0, "score_b": margin if winner == 1 else 0.0,
                            "hands": 8, "seconds": 20.0, "deal_scores": deal_scores, "created_at": when})
        for team, subject_ids, partnership_id in ((0, (seats[0], seats[2]), team_a), (1, (seats[1], seats[3]), team_b)):
            outcome = "draw" if winner is None else ("win" if winner == team else "loss")
            for version_id in dict.fromkeys(subject_ids):
                rating = version_ratings[version_id]
                mu0, sigma0 = rating.step(strength[version_id], outcome, rng, finished)
                change_rows.append(_change(match_id, version_id, None, mu0, sigma0, rating, outcome, when))
            rating = partnership_ratings[partnership_id]
            target = sum(strength[v] for v in subject_ids) / 2 + rng.gauss(0, 1)
            mu0, sigma0 = rating.step(target, outcome, rng, finished)
            change_rows.append(_change(match_id, None, partnership_id, mu0, sigma0, rating, outcome, when))
        if rng.random() < 0.03:
            seat = rng.randrange(4)
            fault_rows.append({"match_id": match_id, "version_id": seats[seat], "seat": seat,
                               "kind": rng.choice(FAULT_KINDS), "detail": "generated fault"})
    fault_counts: dict[int, int] = {}
    for fault in fault_rows:
        fault_counts[fault["version_id"]] = fault_counts.get(fault["version_id"], 0) + 1
    for row in version_rows:
        row.update(version_ratings[row["id"]].columns(), faults=fault_counts.get(row["id"], 0))
    preset_rows = [{"preset": "dehla-pakad", "version_id": row["id"], "matches": row["matches"], "wins": row["wins"],
                    "draws": row["draws"], "faults": row["faults"], "last_played_at": row["last_played_at"]}
                   for row in version_rows if row["matches"]]  # every match is of this preset and rated
    partnership_rows = [{"id": pid, "low_id": low, "high_id": high, **partnership_ratings[pid].columns()}
                        for (low, high), pid in pairs.items()]
    with store.transaction() as session:
        for model, rows in ((Bot, bots), (BotVersion, version_rows), (Partnership, partnership_rows),
                            (Match, match_rows), (Result, result_rows), (RatingChange, change_rows),
                            (FaultRow, fault_rows), (PresetCounts, preset_rows),
                            (MatchFile, _file_rows(match_rows, record_files))):
            for batch in batched(rows):
                session.execute(insert(model.__table__), batch)  # type: ignore[attr-defined]
    if store.engine.dialect.name == "postgresql":
        settle_postgres(store.engine, [model.__tablename__ for model in (Bot, BotVersion, Partnership, Match)])
    store.close()
    return {"bots": len(bots), "versions": len(version_rows), "partnerships": len(partnership_rows),
            "matches": len(match_rows), "rating_changes": len(change_rows), "faults": len(fault_rows),
            "generate_s": round(time.perf_counter() - started, 1)}


def settle_postgres(engine: Engine, tables_with_ids: Sequence[str]) -> None:
    """Each table's id sequence past its largest id, then ``ANALYZE`` (outside a transaction)."""
    with engine.begin() as connection:
        for table in tables_with_ids:
            connection.execute(text(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                                    f"(SELECT coalesce(max(id), 1) FROM {table}))"))
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
        connection.execute(text("ANALYZE"))


def _change(match_id: int, version_id: int | None, partnership_id: int | None, mu0: float, sigma0: float,
            after: Rating, outcome: str, when: datetime) -> dict[str, Any]:
    return {"match_id": match_id, "version_id": version_id, "partnership_id": partnership_id, "mu_before": mu0,
            "sigma_before": sigma0, "mu_after": after.mu, "sigma_after": after.sigma, "outcome": outcome,
            "created_at": when}


def _compressed(records: Sequence[Path]) -> list[tuple[int, bytes]]:
    """The real records as ``match_files`` keeps them: their size and their compressed bytes."""
    return [(len(content), zlib.compress(content, LEVEL)) for content in (record.read_bytes() for record in records)]


def _file_rows(match_rows: Sequence[dict[str, Any]], records: Sequence[tuple[int, bytes]]) -> Iterator[dict[str, Any]]:
    """Each match's record row, one of ``records`` in turn (none: the matches keep no record)."""
    for row in match_rows if records else ():
        size, data = records[row["id"] % len(records)]
        yield {"match_id": row["id"], "name": row["record_path"], "size_bytes": size, "data": data}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True, help="An empty data folder to fill.")
    parser.add_argument("--versions", type=int, default=1000)
    parser.add_argument("--matches", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--records", type=Path, nargs="*", default=[], help="Real match records to point at.")
    args = parser.parse_args()
    print(json.dumps(generate(ArenaData.locate(args.data), args.versions, args.matches, args.seed, args.records)))


if __name__ == "__main__":
    main()
