"""A store filled by a fake ladder (no bot processes): many matches in well under a second."""

from __future__ import annotations

import random
from pathlib import Path

from fastapi.testclient import TestClient

from ladder.coordinator.loop import LadderRun, StopRule
from ladder.coordinator.queue import MatchSettings
from ladder.execution.executors import InlineExecutor
from ladder.rating.ratings import RatingEnv
from ladder.rating.scheduler import Mode, Scheduler
from ladder.store.database import Store
from ladder.store.paths import ArenaData
from ladder.web.app import create_app
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
