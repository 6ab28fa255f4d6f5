"""A store filled by a fake ladder (no bot processes): many matches in well under a second."""

from __future__ import annotations

import random
from pathlib import Path

from fastapi.testclient import TestClient

from arena.web.app import create_app
from ladder.executors import InlineExecutor
from ladder.loop import LadderRun, StopRule
from ladder.paths import ArenaData
from ladder.queue import MatchSettings
from ladder.ratings import RatingEnv
from ladder.scheduler import Mode, Scheduler
from ladder.store import Store
from tests.database import database_url
from tests.ladder_helpers import add_bots, fake_play, open_store


def fake_ladder(root: Path, bots: list[str], matches: int, seed: int = 1) -> Store:
    store = open_store(root)
    add_bots(store, bots, root / "src")
    env = RatingEnv()
    LadderRun(store, env, Scheduler(env, Mode.SELF, random.Random(seed)), MatchSettings(runner="local"),
              InlineExecutor, workers=1, play=fake_play, rng=random.Random(seed)).run(StopRule(matches=matches))
    return store


def client_of(root: Path) -> TestClient:
    return TestClient(create_app(ArenaData(root, database_url(root))))
