"""Pagination, the preset filter and older versions over a store filled by a fake ladder."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event, func, select, update

from ladder.rating.ratings import RatingEnv
from ladder.store.read_model import PartnershipSort
from ladder.store.schema import Match, RatingChange
from ladder.submission.submit import submit
from tests.ladder_helpers import bot_folder, no_validation, open_store
from tests.web.fake_ladder import client_of, fake_ladder


@pytest.fixture(scope="module")
def bulk(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, TestClient]:
    root = tmp_path_factory.mktemp("bulk")
    store = fake_ladder(root, ["s1", "s3", "s5", "s7"], matches=25)
    with store.transaction() as session:
        session.execute(update(Match).where(Match.id % 3 == 0).values(preset="mendikot"))
    store.close()
    return root, client_of(root)


def test_pages_of_matches_cover_every_match_once(bulk: tuple[Path, TestClient]) -> None:
    _, client = bulk
    pages = [client.get(f"/api/matches?page={page}&per_page=10").json() for page in (1, 2, 3)]
    assert [(p["total"], p["pages"]) for p in pages] == [(25, 3)] * 3
    ids = [m["match_id"] for p in pages for m in p["matches"]]
    assert ids == list(range(25, 0, -1))
    assert 'rel="next"' in client.get("/matches?per_page=10").text
    assert 'rel="prev"' in client.get("/matches?page=3&per_page=10").text
    assert 'hx-get' not in client.get("/matches?page=2&per_page=10").text.split("<main>")[1]


@pytest.mark.parametrize(("query", "problem"), [("page=0", "page"), ("page=x", "page"), ("per_page=0", "per_page"),
                                                 ("per_page=201", "per_page"), ("page=-1", "page")])
def test_a_bad_page_is_a_422_naming_the_parameter(bulk: tuple[Path, TestClient], query: str, problem: str) -> None:
    _, client = bulk
    api = client.get(f"/api/matches?{query}")
    assert api.status_code == 422 and api.json()["detail"][0]["loc"] == ["query", problem]
    page = client.get(f"/matches?{query}")
    assert page.status_code == 422 and f"{problem}: " in page.text


def test_a_page_past_the_last_is_a_404_that_says_so(bulk: tuple[Path, TestClient]) -> None:
    _, client = bulk
    assert client.get("/api/matches?page=4&per_page=10").json() == {
        "detail": "page 4 is past the last page (3, 10 matches a page)"}
    assert client.get("/matches?page=4&per_page=10").status_code == 404


def test_the_preset_filter_counts_only_that_presets_matches(bulk: tuple[Path, TestClient]) -> None:
    root, client = bulk
    board = client.get("/api/leaderboard?preset=mendikot").json()
    overall = {row["version_id"]: row for row in client.get("/api/leaderboard").json()}
    store_root = client_of(root)  # a second service over the same store reads the same rows
    assert store_root.get("/api/leaderboard?preset=mendikot").json() == board
    store = open_store(root)
    with store.reading() as session:
        for row in board:
            played = session.scalar(select(func.count()).select_from(RatingChange).join(
                Match, Match.id == RatingChange.match_id).where(RatingChange.version_id == row["version_id"],
                                                                Match.preset == "mendikot"))
            assert row["matches"] == played
            assert row["matches"] < overall[row["version_id"]]["matches"]
            assert row["rating"] == overall[row["version_id"]]["rating"]
    store.close()
    assert [row["rank"] for row in board] == list(range(1, len(board) + 1))
    page = client.get("/").text
    assert 'data-preset="mendikot"' in page and 'data-preset="dehla-pakad"' in page
    assert client.get("/api/leaderboard?preset=court-piece").json() == []
    assert "No version has played" in client.get("/?preset=court-piece").text


def test_older_versions_on_request(tmp_path: Path) -> None:
    store = fake_ladder(tmp_path, ["s1", "s2"], matches=2)
    submit(store, RatingEnv(), bot_folder(tmp_path / "src2", "s1", "# changed\n"), "local", no_validation)
    store.close()
    fresh = client_of(tmp_path)
    assert [row["version"] for row in fresh.get("/api/leaderboard").json() if row["bot"] == "s1"] == ["#2 (1.0)"]
    assert sorted(row["version"] for row in fresh.get("/api/leaderboard?all=1").json() if row["bot"] == "s1") == [
        "#1 (1.0)", "#2 (1.0)"]
    assert "#1 (1.0)" in fresh.get("/?all=1").text
    assert [v["status"] for v in fresh.get("/api/bots/s1").json()["versions"]] == ["superseded", "active"]


def test_the_refresh_fragment_shows_matches_committed_after_the_service_started(tmp_path: Path) -> None:
    store = fake_ladder(tmp_path, ["s1", "s2"], matches=1)
    client = client_of(tmp_path)
    before = client.get("/fragments/matches").text
    assert 'data-match-id="1"' in before and 'data-match-id="2"' not in before
    store.close()
    fake_ladder(tmp_path, [], matches=1, seed=2).close()  # a ladder writing while the service runs
    after = client.get("/fragments/matches").text
    assert 'data-match-id="2"' in after
    assert 'data-version-id' in client.get("/fragments/leaderboard").text


def _python_sorted(rows: list[dict[str, Any]], key: str, descending: bool) -> list[int]:
    """The order the pages had when they sorted in Python: by value then rank, missing values last."""
    present = sorted((row for row in rows if row[key] is not None), key=lambda row: (row[key], row["rank"]),
                     reverse=descending)
    return [row["partnership_id"] for row in present + [row for row in rows if row[key] is None]]


def test_partnership_pages_sort_in_sql_as_they_sorted_in_python(bulk: tuple[Path, TestClient]) -> None:
    _, client = bulk
    everything = client.get("/api/partnerships?per_page=200").json()
    rows = everything["partnerships"]
    assert len(rows) == everything["total"] >= 3 and everything["pages"] == 1
    assert [row["rank"] for row in rows] == list(range(1, len(rows) + 1))
    assert [row["rating"] for row in rows] == sorted((row["rating"] for row in rows), reverse=True)
    for key in PartnershipSort:
        for descending in (False, True):
            pages = [client.get(f"/api/partnerships?sort={key.value}&desc={int(descending)}&page={page}&per_page=2")
                     .json() for page in range(1, math.ceil(len(rows) / 2) + 1)]
            shown = [row for page in pages for row in page["partnerships"]]
            assert [row["partnership_id"] for row in shown] == _python_sorted(rows, key.value, descending)
            assert {row["partnership_id"]: row["rank"] for row in shown} == {row["partnership_id"]: row["rank"]
                                                                            for row in rows}
    assert 'rel="next"' in client.get("/partnerships?per_page=2").text
    second = client.get("/partnerships?page=2&per_page=2&sort=synergy").text
    assert 'rel="prev"' in second and "hx-get" not in second.split("<main>")[1]
    assert client.get("/api/partnerships?page=9&per_page=2").json()["detail"].startswith("page 9 is past the last")


def _unindexed(statement: str, step: str) -> bool:
    """A plan step that reads matches or rating history row by row with no index (SQLite calls a
    full-table MIN "SEARCH matches", as it calls the seek of the newest id), other than the unfiltered
    match list's newest-first walk and that seek."""
    words = step.split()
    if words[:1] not in (["SCAN"], ["SEARCH"]) or words[1:2] not in (["matches"], ["rating_history"]):
        return False
    if "INDEX" in step or "PRIMARY KEY" in step:
        return False
    if step == "SEARCH matches" and "matches." not in statement.replace("max(matches.id)", ""):
        return False  # the newest id (the leaderboard cache's generation): one seek to the rowid tree's end
    return not (step == "SCAN matches" and "WHERE" not in statement and "ORDER BY matches.id DESC" in statement
                and "LIMIT" in statement)


@pytest.mark.sqlite_only("SQLite's query planner (EXPLAIN QUERY PLAN)")
def test_the_pages_read_matches_and_rating_history_through_indexes(bulk: tuple[Path, TestClient]) -> None:
    """No page scans the matches or rating history table: on a ladder-size store each scan costs
    hundreds of milliseconds (bench/web.py). Allowed: a counting scan of an index (``COVERING INDEX``),
    and the unfiltered newest-first walk of the primary key that a LIMIT stops (the match list)."""
    _, client = bulk
    engine = client.app.state.store.engine  # type: ignore[attr-defined]
    statements: list[tuple[str, Any]] = []

    def record(_conn: Any, _cursor: Any, statement: str, parameters: Any, _context: Any, _many: bool) -> None:
        if statement.lstrip().upper().startswith("SELECT"):
            statements.append((statement, parameters))

    event.listen(engine, "before_cursor_execute", record)
    try:
        for url in ("/", "/api/leaderboard", "/partnerships", "/partnerships?sort=synergy", "/bots/s1", "/matches",
                    "/matches/1"):
            assert client.get(url).status_code == 200
    finally:
        event.remove(engine, "before_cursor_execute", record)
    with engine.connect() as connection:
        plans = [(statement, [row[3] for row in connection.exec_driver_sql(f"EXPLAIN QUERY PLAN {statement}",
                                                                           parameters)])
                 for statement, parameters in statements]
    scans = [(statement, step) for statement, steps in plans for step in steps if _unindexed(statement, step)]
    assert scans == []
