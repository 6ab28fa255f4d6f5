"""What voiding a match costs: re-rating every later match, against rating the history at first.

A store with B bots and M rated duplicate matches of D deals (random tables in ``mixed`` mode,
random deal margins, recorded through ``ladder/coordinator/results.py`` as the ladder does; the baseline
is the time that recording took, most of it TrueSkill). Then, on copies of that store: void
the newest match (nothing after it to re-rate), the middle one and the first (every later
match re-rated). Each figure is one run's wall time in seconds, with the part of it spent
writing (the only part that holds the store's write lock: the re-rating is planned before).

The last line printed is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from arena.contract.time_control import MoveRelease
from ladder.admin import operator
from ladder.admin.operator import void_match
from ladder.admin.rerate import apply_undo
from ladder.coordinator.queue import MatchSettings, enqueue, lease
from ladder.coordinator.results import record_report
from ladder.execution.jobs import MatchReport
from ladder.rating.ratings import RatingEnv
from ladder.rating.scheduler import Pairing
from ladder.store.database import Store
from ladder.store.paths import ArenaData
from ladder.store.schema import Bot, BotVersion


def open_store(root: Path) -> Store:
    return Store.open(ArenaData(root, f"sqlite:///{root / 'ladder.db'}"))


def build(root: Path, bots: int, matches: int, deals: int, seed: int) -> tuple[float, list[int]]:
    """The store and the seconds its matches took to record (rate)."""
    store = open_store(root)
    env = RatingEnv()
    with store.transaction() as session:
        for n in range(bots):
            bot = Bot(name=f"b{n}", author="bench")
            session.add(bot)
            session.flush()
            session.add(BotVersion(bot_id=bot.id, number=1, label="1", content_hash=f"{n:064x}", path=f"b{n}",
                                   mu=25.0, sigma=25 / 3, matches=0, wins=0, draws=0, losses=0, faults=0))
    rng = random.Random(seed)
    settings = MatchSettings(match_format=f"duplicate:{deals}", runner="local", release=MoveRelease.ON_REPLY)
    ids, rating = [], 0.0
    for _ in range(matches):
        a1, a2, b1, b2 = rng.sample(range(1, bots + 1), 4)
        with store.transaction() as session:
            match = enqueue(session, env, Pairing((a1, a2), (b1, b2)), rng.getrandbits(63), settings)
            attempt = lease(session, match.id, "bench")
            assert attempt is not None
            ids.append(match.id)
        margins = tuple(float(rng.choice((-2, -1, 0, 1, 2))) for _ in range(deals))
        total = sum(margins)
        report = MatchReport(match.id, attempt, "done", None if total == 0 else (0 if total > 0 else 1),
                             (max(total, 0), max(-total, 0)), 2 * deals, deal_scores=margins)
        start = time.perf_counter()
        with store.transaction() as session:
            assert record_report(session, env, report)
        rating += time.perf_counter() - start
    store.close()
    return rating, ids


def timed_void(template: Path, scratch: Path, match_id: int) -> tuple[float, float, int]:
    """Seconds for the whole void, seconds of it spent writing (holding the write lock), re-rated."""
    root = scratch / f"void-{match_id}"
    root.mkdir()
    shutil.copy(template / "ladder.db", root / "ladder.db")
    store = open_store(root)
    writing = [0.0]

    def timed_apply(*args: Any) -> None:
        begun = time.perf_counter()
        apply_undo(*args)
        writing[0] += time.perf_counter() - begun

    operator.apply_undo = timed_apply  # type: ignore[assignment]  # the bench's stopwatch on the write
    start = time.perf_counter()
    done = void_match(store, RatingEnv(), match_id, "bench")
    seconds = time.perf_counter() - start
    operator.apply_undo = apply_undo  # type: ignore[assignment]
    store.close()
    assert done.rerated is not None
    return seconds, writing[0], done.rerated.recomputed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", type=int, default=12)
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--deals", type=int, default=16)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        scratch = Path(folder)
        (scratch / "ladder").mkdir()
        rating, ids = build(scratch / "ladder", args.bots, args.matches, args.deals, args.seed)
        figures: dict[str, object] = {"bots": args.bots, "matches": args.matches, "deals": args.deals,
                                      "record_all_s": round(rating, 2)}
        for name, match_id in (("newest", ids[-1]), ("middle", ids[len(ids) // 2]), ("first", ids[0])):
            seconds, writing, recomputed = timed_void(scratch / "ladder", scratch, match_id)
            figures[f"void_{name}_s"] = round(seconds, 2)
            figures[f"void_{name}_write_s"] = round(writing, 3)
            figures[f"void_{name}_rerated"] = recomputed
            print(f"void the {name} match: {seconds:.2f} s ({writing:.3f} s of it writing), {recomputed} later "
                  "matches re-rated", file=sys.stderr)
    print(f"recording (rating) all {args.matches} matches: {rating:.2f} s", file=sys.stderr)
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
