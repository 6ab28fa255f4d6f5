"""The leaderboard is built once per store generation: a repeated request sends one query, and
a new result or a new version shows on the very next request (the live refresh polls it)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import event

from ladder.coordinator.loop import LadderRun, StopRule
from ladder.coordinator.queue import MatchSettings
from ladder.execution.executors import InlineExecutor
from ladder.rating.ratings import RatingEnv
from ladder.rating.scheduler import Mode, Scheduler
from ladder.store.database import Store
from ladder.store.read_model import ranking
from ladder.web.board_cache import Generation, GenerationCache
from tests.ladder_helpers import add_bots, fake_play
from tests.web.fake_ladder import client_of, fake_ladder


@contextmanager
def statements(client: TestClient) -> Iterator[list[str]]:
    """The SQL the service sends meanwhile."""
    sent: list[str] = []
    engine = client.app.state.store.engine  # type: ignore[attr-defined]

    def seen(*args: Any) -> None:
        sent.append(args[2])

    event.listen(engine, "before_cursor_execute", seen)
    try:
        yield sent
    finally:
        event.remove(engine, "before_cursor_execute", seen)


def _one_more_match(store: Store, seed: int) -> None:
    env = RatingEnv()
    LadderRun(store, env, Scheduler(env, Mode.SELF, random.Random(seed)), MatchSettings(runner="local"),
              InlineExecutor, workers=1, play=fake_play, rng=random.Random(seed)).run(StopRule(matches=1))


def _shown(store: Store) -> list[dict[str, Any]]:
    """The rows of ``dehla ladder show --json``, read afresh."""
    with store.reading() as session:
        return [row.to_json() for row in ranking(session)]


def test_a_new_result_or_version_shows_at_once_and_between_them_one_query_answers(tmp_path: Path) -> None:
    store = fake_ladder(tmp_path, ["s1", "s2", "s3"], 6)
    client = client_of(tmp_path)
    before = client.get("/api/leaderboard").json()
    fragment = client.get("/fragments/leaderboard").text
    with statements(client) as sent:
        assert client.get("/api/leaderboard").json() == before
        assert client.get("/fragments/leaderboard").text == fragment
    assert len(sent) == 2, sent  # the generation, once a request

    _one_more_match(store, 7)
    after = client.get("/api/leaderboard").json()
    assert after == _shown(store) and after != before
    assert sum(row["matches"] for row in after) == sum(row["matches"] for row in before) + 2  # two versions played
    changed = client.get("/fragments/leaderboard").text
    assert changed != fragment
    for row in after:
        assert f'<td data-col="matches">{row["matches"]}</td>' in changed

    add_bots(store, ["s9"], tmp_path / "more")
    assert "s9" in {row["bot"] for row in client.get("/api/leaderboard").json()}
    assert 'data-bot="s9"' in client.get("/").text


def test_a_kept_value_is_rebuilt_when_the_generation_moves_or_it_is_too_old() -> None:
    now = [0.0]
    cache = GenerationCache(entries=2, max_age=5.0, clock=lambda: now[0])
    builds: list[str] = []

    def build(value: str) -> Any:
        return lambda: builds.append(value) or value

    first, second = Generation(1, 1, 1), Generation(1, 2, 1)
    assert cache.get("a", first, build("a1")) == "a1"
    assert cache.get("a", first, build("a2")) == "a1"  # kept
    assert cache.get("a", second, build("a3")) == "a3"  # a new result
    now[0] = 4.9
    assert cache.get("a", second, build("a4")) == "a3"
    now[0] = 5.0
    assert cache.get("a", second, build("a5")) == "a5"  # too old: an id may have committed out of order
    cache.get("b", second, build("b1"))
    cache.get("c", second, build("c1"))  # two entries: the least recently used ("a") goes
    assert cache.get("a", second, build("a6")) == "a6"
    assert builds == ["a1", "a3", "a5", "b1", "c1", "a6"]


def test_a_kept_page_is_never_served_to_a_request_for_another_host(tmp_path: Path) -> None:
    """The pages' links are absolute, from the request's Host: a page kept for one host (even a
    forged one) must not be what another host's request gets."""
    fake_ladder(tmp_path, ["s1", "s2"], 2)
    client = client_of(tmp_path)
    forged = client.get("/", headers={"host": "evil.example"}).text
    assert "http://evil.example/static/app.css" in forged
    honest = client.get("/").text
    assert "http://testserver/static/app.css" in honest and "evil.example" not in honest
