"""One number format across the command line and the web (issue 27): ``dehla ladder show``,
``partnerships``, ``history`` and ``matches`` print each cell with ``ladder/rating/formatting.py``,
as the pages do, while ``--json`` keeps the plain numbers of the read model."""

from __future__ import annotations

import json
import re

import pytest
from fastapi.testclient import TestClient

from ladder.rating import formatting
from ladder.store.paths import ArenaData
from ladder.web.app import create_app
from tests.cli_helpers import run_dehla
from tests.database import database_env, database_url
from tests.web.fake_ladder import fake_ladder


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> ArenaData:
    root = tmp_path_factory.mktemp("number-format") / "data"
    fake_ladder(root, ["s1", "s2", "s3"], 12, seed=5).close()
    return ArenaData(root, database_url(root))


def table(data: ArenaData, *args: str) -> list[dict[str, str]]:
    """A printed table's rows, each a dict of column header to cell text."""
    printed = run_dehla("ladder", *args, "--data", str(data.root), env=database_env(data.root))
    assert printed.returncode == 0, printed.stderr
    lines = printed.stdout.splitlines()
    header = next(line for line in lines if line.startswith("┃"))
    columns = [cell.strip() for cell in header.strip("┃").split("┃")]
    return [dict(zip(columns, [cell.strip() for cell in line.strip("│").split("│")], strict=True))
            for line in lines if line.startswith("│")]


def as_json(data: ArenaData, *args: str) -> list[dict[str, object]]:
    printed = run_dehla("ladder", *args, "--json", "--data", str(data.root), env=database_env(data.root))
    assert printed.returncode == 0, printed.stderr
    rows: list[dict[str, object]] = json.loads(printed.stdout)
    return rows


def test_show_prints_the_leaderboards_numbers_as_the_page_does(data: ArenaData) -> None:
    rows = as_json(data, "show")
    assert rows == TestClient(create_app(data)).get("/api/leaderboard").json()  # --json: plain numbers, unchanged
    assert all(isinstance(row["rating"], float) and isinstance(row["win_rate"], float) for row in rows)
    printed = {row["bot"]: row for row in table(data, "show")}
    page = TestClient(create_app(data)).get("/").text
    for row in rows:
        line = printed[str(row["bot"])]
        for column in ("rating", "mu", "sigma"):
            assert line[column] == formatting.fixed(float(str(row[column]))), (column, line)
        assert line["win rate"] == formatting.percent(float(str(row["win_rate"])))
        found = re.search(rf'data-version-id="{row["version_id"]}".*?<td data-col="win_rate">([^<]*)</td>', page, re.S)
        assert found is not None and found.group(1) == line["win rate"]
        rating = re.search(rf'data-version-id="{row["version_id"]}".*?<td data-col="rating"[^>]*>([^< ]*)', page, re.S)
        assert rating is not None and rating.group(1) == line["rating"]


def test_matches_history_and_partnerships_use_the_same_functions(data: ArenaData) -> None:
    matches = as_json(data, "matches")
    for row, line in zip(matches, table(data, "matches"), strict=True):
        score = row["score"]
        assert isinstance(score, list)
        assert line["score"] == formatting.scores((score[0], score[1]))
    history = as_json(data, "history", "s1")
    for row, line in zip(history, table(data, "history", "s1"), strict=True):
        assert line["change"] == formatting.change(float(str(row["change"])))
        assert line["rating"] == formatting.fixed(float(str(row["rating"])))
    for row, line in zip(as_json(data, "partnerships"), table(data, "partnerships"), strict=True):
        assert line["win rate"] == formatting.percent(float(str(row["win_rate"])))
        assert line["sigma"] == formatting.fixed(float(str(row["sigma"])))
