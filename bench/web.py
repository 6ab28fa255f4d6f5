"""Server time of the web pages on a generated store of ladder size (issue 13's bar: p95 <= 100 ms).

``python bench/web.py [--store DIR] [--requests 60] [--versions 1000] [--matches 100000]``

Fills a store with ``bench/web_store.py`` (or reuses ``--store`` if it is already filled),
with two real match records from a short real ladder among the sample bots, then times each
page in the process with Starlette's test client: the whole application (routing, queries,
templates, JSON) without a network in between. Each request picks a different bot or match
(seeded). The baseline in the same run is a static file, the framework's own floor.

The last line is one JSON object: p50/p95 in ms per page, and the worst p95 against the target.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from fastapi import FastAPI
from fastapi.testclient import TestClient

from bench.web_store import generate
from ladder.store.paths import ArenaData
from ladder.web.app import create_app, settle_garbage_collector

TARGET_P95_MS = 100.0


def real_records(folder: Path) -> list[Path]:
    """Two match records from a real ladder among the sample bots (about 20 s)."""
    data = ["--data", str(folder), "--runner", "local"]
    for args in (["submit", "--sample", "random", "--sample", "heuristic"],
                 ["ladder", "run", "--matches", "2", "--deals", "1", "--per-move", "0.05"]):
        subprocess.run([sys.executable, "-m", "arena", *args, *data], check=True, capture_output=True)
    return stored_records(ArenaData.locate(folder), folder / "records")


def stored_records(data: ArenaData, out: Path) -> list[Path]:
    """The store's match records written out as files (the generator copies files)."""
    from ladder.store.database import Store  # noqa: PLC0415
    from ladder.store.match_files import read_stored  # noqa: PLC0415
    from ladder.store.schema import Match  # noqa: PLC0415

    out.mkdir(parents=True, exist_ok=True)
    store = Store.open(data)
    try:
        with store.reading() as session:
            for match in session.query(Match).filter(Match.record_path.is_not(None)):
                found = read_stored(session, match.id, match.record_path, 1 << 26)
                if found is not None:
                    (out / match.record_path).write_bytes(found.content)
    finally:
        store.close()
    return sorted(out.glob("m*.jsonl"))


def filled_store(store: Path | None, versions: int, matches: int) -> tuple[ArenaData, dict[str, object]]:
    if store is not None and (store / "ladder.db").exists():
        return ArenaData.locate(store), {"reused": str(store)}
    root = store or Path(tempfile.mkdtemp(prefix="dehla-web-bench-"))
    with tempfile.TemporaryDirectory() as scratch:
        records = real_records(Path(scratch))
        counts = generate(ArenaData.locate(root), versions, matches, 1, records)
    return ArenaData.locate(root), counts


def get_ms(client: TestClient, path: str) -> float:
    """One request's server time in ms (anything but 200 ends the bench)."""
    started = time.perf_counter()
    response = client.get(path)
    elapsed = (time.perf_counter() - started) * 1000
    if response.status_code != 200:
        raise SystemExit(f"bench: GET {path}: {response.status_code}")
    return elapsed


def quantiles(times: list[float]) -> dict[str, float]:
    times = sorted(times)
    return {"p50_ms": round(statistics.median(times), 2), "p95_ms": round(times[int(0.95 * (len(times) - 1))], 2)}


def timed(client: TestClient, paths: Callable[[random.Random], str], requests: int) -> dict[str, float]:
    rng = random.Random(7)
    return quantiles([get_ms(client, paths(rng)) for _ in range(requests)])


def cold_replay(app: FastAPI, rng: random.Random) -> str:
    """A replay's data as its first viewer gets it: the service's replay cache emptied before the
    request (the record read, checked and replayed, every step observed), any hand and perspective."""
    app.state.replay_cache = None
    seat = rng.choice(["all", "none", "0", "1", "2", "3"])
    return f"/api/matches/{rng.randint(1, 100)}/hands/{rng.randint(1, 2)}/replay?seat={seat}"


def route_missing(client: TestClient, path: str) -> bool:
    """The application has no route for ``path`` (its 404 says "no page at"; an unknown id says otherwise)."""
    response = client.get(path)
    return response.status_code == 404 and "no page at" in response.text


Pages = dict[str, tuple[str, Callable[[random.Random], str]]]
"""Each page timed: its route (to tell whether this build has it), then the paths to request."""


def pages(app: FastAPI, bots: list[str], match_count: int) -> Pages:
    return {
        "baseline_static": ("/static", lambda rng: "/static/app.css"),
        "leaderboard": ("/", lambda rng: "/"),
        "leaderboard_api": ("/api/leaderboard", lambda rng: "/api/leaderboard"),
        "leaderboard_preset": ("/", lambda rng: "/?preset=dehla-pakad"),
        "partnerships": ("/partnerships", lambda rng: "/partnerships"),
        "partnerships_by_synergy": ("/partnerships", lambda rng: "/partnerships?sort=synergy&desc=1"),
        "bot_page": ("/bots/{name}", lambda rng: f"/bots/{rng.choice(bots)}"),
        "head_to_head": ("/head-to-head", lambda rng: "/head-to-head"),
        "head_to_head_api": ("/api/head-to-head", lambda rng: "/api/head-to-head"),
        "matches": ("/matches", lambda rng: f"/matches?page={rng.randint(1, 20)}"),
        "match_page": ("/matches/{match_id}", lambda rng: f"/matches/{rng.randint(1, match_count)}"),
        "replay_data": ("/api/matches/{match_id}/hands/{hand}/replay",
                        lambda rng: f"/api/matches/{rng.randint(1, match_count)}/hands/1/replay?seat=all"),
        "replay_data_cold": ("/api/matches/{match_id}/hands/{hand}/replay", lambda rng: cold_replay(app, rng)),
    }


def available_pages(client: TestClient, timed: Pages) -> tuple[dict[str, Callable[[random.Random], str]],
                                                                dict[str, str]]:
    """The pages this build has (each requested once: the warm-up, first-request imports and
    template compilation), and those it lacks with the reason."""
    present: dict[str, Callable[[random.Random], str]] = {}
    skipped: dict[str, str] = {}
    for name, (route, paths) in timed.items():
        if route_missing(client, paths(random.Random(0))):
            skipped[name] = f"no route {route} in this build"
            print(f"{name:24} skipped: {skipped[name]}")
        else:
            present[name] = paths
    return present, skipped


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", type=Path, default=None, help="A data folder to fill, or to reuse if filled.")
    parser.add_argument("--requests", type=int, default=60)
    parser.add_argument("--versions", type=int, default=1000)
    parser.add_argument("--matches", type=int, default=100_000)
    args = parser.parse_args()
    data, generated = filled_store(args.store, args.versions, args.matches)
    app = create_app(data)
    client = TestClient(app)
    bots = [row["bot"] for row in client.get("/api/leaderboard").json()]
    timed_pages, skipped = available_pages(client, pages(app, bots, args.matches))
    settle_garbage_collector()  # as dehla serve does once it has started
    results = {name: timed(client, paths, args.requests) for name, paths in timed_pages.items()}
    for name, figures in results.items():
        print(f"{name:24} p50 {figures['p50_ms']:8.2f} ms   p95 {figures['p95_ms']:8.2f} ms")
    measured = {name: figures for name, figures in results.items() if name != "baseline_static"}
    worst = max(figures["p95_ms"] for figures in measured.values())
    print(json.dumps({"store": generated, "requests": args.requests, "pages": results, "skipped": skipped,
                      "worst_p95_ms": worst, "target_p95_ms": TARGET_P95_MS, "meets_target": worst <= TARGET_P95_MS}))


if __name__ == "__main__":
    main()
