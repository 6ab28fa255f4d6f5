"""The timing-leak flag (issue 23) on a bot's page and in its JSON API, and in the leaderboard's
rows: the same figures ``dehla ladder show --json`` gives (``ladder/store/timing_leaks.py``)."""

from __future__ import annotations

import re
from pathlib import Path

from fastapi.testclient import TestClient

from ladder.rating.scheduler import Pairing
from ladder.store.timing_leaks import FLAG_BITS, FLAG_Z
from ladder.web.app import create_app
from tests.ladder_helpers import add_bots, open_store
from tests.timing_helpers import play, random_record, retimed, signalling, versions


def test_the_bot_page_and_its_api_flag_a_leaky_version_and_not_an_honest_one(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    add_bots(store, ["leaky", "honest", "unplayed"], tmp_path / "src")
    ids = versions(store, ("leaky", "honest", "unplayed"))
    record = random_record(tmp_path)
    for seed in (1, 2):  # two matches: four measured seats each (``FLAG_SEATS``)
        play(store, Pairing((ids["leaky"], ids["leaky"]), (ids["honest"], ids["honest"])),
             retimed(record, signalling((0, 2)), seed).encode(), seed=seed)
    client = TestClient(create_app(store.data))
    leaky, honest, unplayed = (client.get(f"/api/bots/{name}").json()["versions"][0]
                               for name in ("leaky", "honest", "unplayed"))
    assert leaky["timing_flag"] is True and leaky["timing_bits"] > FLAG_BITS and leaky["timing_z"] >= FLAG_Z
    assert honest["timing_flag"] is False and honest["timing_bits"] is not None
    assert unplayed["timing_flag"] is False and unplayed["timing_bits"] is None
    cells = {name: re.search(r'<td data-col="timing">(.*?)</td>', client.get(f"/bots/{name}").text, re.S)
             for name in ("leaky", "honest", "unplayed")}
    assert all(cells.values())
    assert 'data-flag="timing-leak">timing leak</strong>' in cells["leaky"].group(1)  # type: ignore[union-attr]
    assert "timing leak" not in cells["honest"].group(1)  # type: ignore[union-attr]
    assert cells["unplayed"].group(1) == "–"  # type: ignore[union-attr]
    board = {row["bot"]: row["timing_flag"] for row in client.get("/api/leaderboard").json()}
    assert board == {"leaky": True, "honest": False, "unplayed": False}
