"""A ladder match on a real ``LocalCluster`` is watched live: its worker's referee (real bots,
``play_match_job``) sends the public table as Dask events, the coordinator's relay writes it to
``DATA/live``, and ``dehla serve``'s page, asked as the first state arrives, shows the table;
once the match ends the file is gone and the page is the replay."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from distributed import Client

from arena.console.data import DATA_ENV
from arena.contract.time_control import MoveRelease
from ladder.coordinator.loop import LadderRun, StopRule
from ladder.coordinator.queue import MatchSettings
from ladder.execution.cluster import ClusterExecutor, ClusterSpec, start_cluster
from ladder.execution.jobs import play_match_job
from ladder.execution.live_relay import LiveRelay
from ladder.rating.ratings import RatingEnv
from ladder.rating.scheduler import Mode, Scheduler
from ladder.store.paths import DATABASE_URL_ENV, LIVE_FOLDER
from tests.ladder_helpers import add_random_bots, store_at
from tests.web.fake_ladder import client_of


@pytest.fixture(scope="module")
def cluster() -> Iterator[ClusterExecutor]:
    executor = start_cluster(ClusterSpec(local_slots=1), {DATA_ENV: "/the/workers/data",
                                                          DATABASE_URL_ENV: "sqlite:////the/workers.db"})
    try:
        yield executor
    finally:
        executor.shutdown(cancel_futures=True)


class Asking(LiveRelay):
    """A relay that, at the first state it writes, asks the web face for the live page."""

    def __init__(self, folder: Path, client: Any) -> None:
        super().__init__(folder)
        self.client = client
        self.answers: dict[str, Any] = {}

    def receive(self, event: Any) -> None:
        super().receive(event)
        if self.written and not self.answers:
            [file] = self.folder.iterdir()
            match_id = int(file.name.removesuffix(".live.json").removeprefix("m"))
            self.answers["id"] = match_id
            for path in ("/matches", f"/matches/{match_id}/live/table"):
                self.answers[path] = self.client.get(path, follow_redirects=False)


def test_a_cluster_match_is_watched_live_and_then_replayed(cluster: ClusterExecutor, tmp_path: Path) -> None:
    data = tmp_path / "arena"
    add_random_bots(data, ["r1", "r2"])
    store = store_at(data)
    client = client_of(data)
    relay = Asking(data / LIVE_FOLDER, client)
    address = cluster.cluster.scheduler_address

    def make() -> ClusterExecutor:
        return ClusterExecutor(Client(address, set_as_default=False), live=relay)

    settings = MatchSettings(match_format="duplicate:1", runner="local", per_move=0.5, release=MoveRelease.ON_REPLY)
    try:
        env = RatingEnv()
        run = LadderRun(store, env, Scheduler(env, Mode.SELF, random.Random(5)), settings, make, play=play_match_job,
                        rng=random.Random(5))
        summary = run.run(StopRule(matches=1))
    finally:
        store.close()
    assert summary.counted == 1 and relay.written >= 1 and relay.dropped == 0
    match_id = relay.answers["id"]
    table = relay.answers[f"/matches/{match_id}/live/table"]
    assert 'data-watch="live"' in table.text and "r1#1" in table.text and 'class="live-room"' in table.text
    assert f'href="/matches/{match_id}/live">live</a>' in relay.answers["/matches"].text
    assert not any((data / LIVE_FOLDER).iterdir()), "the match's end removed its file"
    ended = client.get(f"/matches/{match_id}/live", follow_redirects=False)
    assert ended.status_code == 303
