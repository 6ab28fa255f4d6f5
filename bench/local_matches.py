"""Server time of the Local matches list (``/local``) over a folder of many ``dehla match`` records.

``python bench/local_matches.py [--records 200] [--hands 40] [--requests 20]``

Fills ``DATA/local-matches/`` with ``--records`` copies (different names) of a real duplicate
record of ``--hands`` hands (played here by the sample bots, in process), then times, in the
process with Starlette's test client:

- ``list_cold``: the first page (50 rows) on a fresh application: each row read from its file's
  first and last lines, as models;
- ``list_warm``: the same page again (rows cached by file name, size and time);
- ``baseline_full_check``: what that page would cost if each row checked its whole record
  (``checked_record``: every hand replayed by the engine, as the match page does).

The last line is one JSON object with the medians in ms.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from fastapi.testclient import TestClient

from arena.referee.in_process import play_in_process
from ladder.store.paths import ArenaData
from ladder.web.app import create_app
from ladder.web.local_matches import local_files
from ladder.web.stored_record import checked_record
from sample_bots.random.bot import RandomBot

PAGE = 50


def record_text(folder: Path, hands: int) -> bytes:
    """A real duplicate match record of ``hands`` hands among random bots (in process)."""
    path = folder / "played.jsonl"
    play_in_process([RandomBot(seed) for seed in range(4)], deals=max(1, hands // 2), record=path)
    return path.read_bytes()


def timed(action: object, repeat: int) -> float:
    assert callable(action)
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=200)
    parser.add_argument("--hands", type=int, default=40)
    parser.add_argument("--requests", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temp:
        root = Path(temp) / "data"
        folder = root / "local-matches"
        folder.mkdir(parents=True)
        content = record_text(Path(temp) / "played", args.hands)
        for number in range(args.records):
            (folder / f"match-{number:05d}.jsonl").write_bytes(content)
        data = ArenaData.locate(root)

        def cold() -> None:
            response = TestClient(create_app(data)).get("/local")
            assert response.status_code == 200 and response.text.count("<tr data-match-id=") == PAGE

        client = TestClient(create_app(data))
        client.get("/local")

        def warm() -> None:
            assert client.get("/local").status_code == 200

        def full_check() -> None:
            for file in local_files(root)[:PAGE]:
                checked_record((folder / f"{file.match_id}.jsonl").read_bytes(), file.match_id, file.match_id)

        app_only = timed(lambda: TestClient(create_app(data)), max(3, args.requests // 4))
        results = {
            "records": args.records, "hands_per_record": args.hands, "record_bytes": len(content),
            "list_cold_ms": round(timed(cold, max(3, args.requests // 4)) - app_only, 1),
            "list_warm_ms": round(timed(warm, args.requests), 1),
            "baseline_full_check_ms": round(timed(full_check, 3), 1),
        }
        print(json.dumps(results))


if __name__ == "__main__":
    main()
