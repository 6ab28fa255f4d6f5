"""The web service under the abuse of issue 23, with its defaults: a slow-loris flood of
trickling connections from one address (127.0.0.2) against ``dehla serve`` and against uvicorn
alone (how it ran before), and one author's uploads held open (12 bodies of 32 MB declared).
Honest requests from 127.0.0.1 are timed meanwhile.

Run: ``python bench/web_abuse.py [--flood N] [--watch S]``. The last line is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests.*, run as a script

import httpx2 as httpx

from tests.bots.archives import Entry, tar_gz
from tests.web.hostile_clients import (
    HEAD_START,
    answered,
    close_all,
    connect,
    send,
    trickle_until_closed,
    until,
    upload_head,
)
from tests.web.uploads_helpers import arena, post
from tests.web_helpers import serving, unguarded

MB = 1024 * 1024


def honest_ms(url: str) -> float:
    start = time.monotonic()
    assert httpx.get(url, timeout=30).status_code == 200
    return round((time.monotonic() - start) * 1000, 1)


def slow_loris(url: str, flood: int, watch: float) -> dict[str, Any]:
    started = time.monotonic()
    connections = [connect(url) for _ in range(flood)]
    for connection in connections:
        send(connection, HEAD_START)
    refused = answered(connections, flood, 3)
    held = [connection for connection in connections if connection not in refused]
    during = honest_ms(url)
    cut, last = trickle_until_closed(held, watch)
    close_all(connections)
    return {"flood": flood, "refused_at_once": len(refused), "held": len(held), "cut": cut,
            "still_open_after_watch": len(held) - cut, "watched_s": watch,
            "all_cut_after_s": round(last - started, 2) if cut == len(held) and held else None,
            "honest_get_ms_during": during}


def staging(url: str, token: str, other: str, root: Path) -> dict[str, Any]:
    connections = [connect(url) for _ in range(12)]
    for connection in connections:
        send(connection, upload_head(url, token, 32 * MB) + b"\x1f\x8b" + b"\0" * 8)
    refused = answered(connections, 12, 5)
    until(lambda: len(list((root / "uploads").glob(".incoming-*"))) == 12 - len(refused), 5)
    staged = len(list((root / "uploads").glob(".incoming-*")))
    start = time.monotonic()
    honest = post(url, other, tar_gz([Entry("x", b"")])).status_code
    close_all(connections)
    return {"bodies": 12, "refused_at_once": len(refused), "held": staged, "declared_mib_held": staged * 32,
            "honest_upload_status": honest, "honest_upload_ms": round((time.monotonic() - start) * 1000, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--flood", type=int, default=250)
    parser.add_argument("--watch", type=float, default=40.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        guarded_data = arena(Path(folder) / "guarded")
        with serving(guarded_data.root, "--runner", "local", "--validations", "0") as url:
            guarded = slow_loris(url, args.flood, args.watch)
            print("dehla serve, slow-loris:", guarded, flush=True)
            uploads = staging(url, guarded_data.asha, guarded_data.bela, guarded_data.root)
            print("dehla serve, one author's bodies held open:", uploads, flush=True)
        lifted_data = arena(Path(folder) / "lifted")
        with serving(lifted_data.root, "--runner", "local", "--validations", "0", "--uploads-in-flight", "1000",
                     "--staged-mb", "100000") as url:
            lifted = staging(url, lifted_data.asha, lifted_data.bela, lifted_data.root)
            print("dehla serve, caps lifted:", lifted, flush=True)
        alone_data = arena(Path(folder) / "alone")
        with unguarded(alone_data.root) as url:
            alone = slow_loris(url, args.flood, args.watch)
            print("uvicorn alone, slow-loris:", alone, flush=True)
    print(json.dumps({"guarded": guarded, "uploads": uploads, "uploads_caps_lifted": lifted, "uvicorn_alone": alone}))


if __name__ == "__main__":
    main()
