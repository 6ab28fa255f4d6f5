"""Every page and API endpoint over a store filled by a real short ladder (the ``played`` fixture)."""

from __future__ import annotations

import json
import math
import re
import subprocess
import sys

import pytest
from fastapi.testclient import TestClient

from ladder.store.paths import ArenaData
from ladder.store.read_model import predicted_mu
from ladder.web.app import create_app
from tests.database import database_env


@pytest.fixture(scope="module")
def client(played: ArenaData) -> TestClient:
    return TestClient(create_app(played))


def test_ladder_show_json_and_the_api_give_the_same_rows(client: TestClient, played: ArenaData) -> None:
    for flag, query in (([], ""), (["--all"], "?all=1")):
        shown = subprocess.run([sys.executable, "-m", "arena", "ladder", "show", "--json", "--data", str(played.root),
                                *flag], check=True, capture_output=True, text=True, timeout=60,
                               env=database_env(played.root)).stdout
        assert json.loads(shown) == client.get("/api/leaderboard" + query).json()


def test_the_leaderboard_shows_every_column_and_sorts_on_the_server(client: TestClient) -> None:
    rows = client.get("/api/leaderboard").json()
    page = client.get("/").text
    for row in rows:
        assert f'href="/bots/{row["bot"]}"' in page
        assert f'data-version-id="{row["version_id"]}"' in page
    assert 'hx-get="/fragments/leaderboard"' in page and 'hx-trigger="every 3s"' in page
    by_name = client.get("/api/leaderboard?sort=bot").json()
    assert [row["bot"] for row in by_name] == ["heuristic", "random"]
    assert [row["bot"] for row in client.get("/api/leaderboard?sort=bot&desc=1").json()] == ["random", "heuristic"]
    sorted_page = client.get("/?sort=bot&desc=1").text
    assert sorted_page.index('data-bot="random"') < sorted_page.index('data-bot="heuristic"')
    assert client.get("/?sort=nonsense").status_code == 422


def test_the_refresh_fragment_is_the_table_alone_and_follows_the_store(client: TestClient) -> None:
    fragment = client.get("/fragments/leaderboard").text
    assert "<html" not in fragment and 'id="leaderboard"' in fragment
    matches = client.get("/fragments/matches").text
    assert "<html" not in matches and 'data-match-id="1"' in matches
    assert 'id="partnerships"' in client.get("/fragments/partnerships").text


def test_partnerships_show_synergy_as_documented(client: TestClient, played: ArenaData) -> None:
    rows = client.get("/api/partnerships").json()["partnerships"]
    versions = {row["version_id"]: row for row in client.get("/api/leaderboard").json()}
    assert rows
    for row in rows:
        low, high = (versions[m["version_id"]] for m in row["members"])
        assert row["predicted_mu"] == pytest.approx(25 + ((low["mu"] - 25) + (high["mu"] - 25)) / math.sqrt(2),
                                                    abs=2e-3)
        assert row["synergy"] == pytest.approx(row["mu"] - row["predicted_mu"], abs=2e-3)
        assert row["synergy_sigma"] == pytest.approx(
            math.sqrt(row["sigma"] ** 2 + (low["sigma"] ** 2 + high["sigma"] ** 2) / 2), abs=2e-3)
    assert predicted_mu(25, 25) == 25
    page = client.get("/partnerships").text
    assert all(f'data-partnership-id="{row["partnership_id"]}"' in page for row in rows)


def test_the_bot_page_shows_versions_chart_partnerships_matches(client: TestClient) -> None:
    bot = client.get("/api/bots/heuristic").json()
    assert [v["status"] for v in bot["versions"]] == ["active"]
    assert [len(s["points"]) for s in bot["series"]] == [2]
    assert {m["result"] for m in bot["recent_matches"]} <= {"win", "draw", "loss"}
    assert len(bot["recent_matches"]) == 2 and bot["partnerships"]
    page = client.get("/bots/heuristic").text
    assert bot["versions"][0]["content_hash"][:12] in page
    polylines = re.findall(r'<polyline data-version="1" data-series="(mu|rating)" points="([^"]+)"', page)
    assert [series for series, _ in polylines] == ["mu", "rating"]
    assert all(len(points.split()) == 2 for _, points in polylines)
    assert "<script" not in page.split("<main>")[1].split("</main>")[0]  # the chart is server-rendered SVG, no JS


def test_the_match_list_and_page_show_the_match_and_its_record(client: TestClient, played: ArenaData) -> None:
    listing = client.get("/api/matches").json()
    assert (listing["total"], listing["pages"], [m["match_id"] for m in listing["matches"]]) == (2, 1, [2, 1])
    detail = client.get("/api/matches/1").json()
    assert detail["record_problem"] is None
    assert len(detail["deal_scores"]) == 1
    assert [t["seat"] for t in detail["move_times"]] == [0, 1, 2, 3]
    assert all(t["p50_ms"] <= t["p95_ms"] <= t["max_ms"] for t in detail["move_times"])
    assert [h["replay"] for h in detail["hand_links"]] == ["/matches/1/replay?hand=1", "/matches/1/replay?hand=2"]
    page = client.get("/matches/1").text
    assert 'href="/matches/1/replay?hand=2"' in page and 'id="download-record"' in page
    assert 'data-deal="1"' in page and 'id="move-times"' in page
    assert 'href="/matches/1"' in client.get("/matches").text


def test_the_record_downloads_as_an_attachment_with_a_fixed_name(client: TestClient, played: ArenaData) -> None:
    response = client.get("/matches/1/record")
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/x-ndjson"
    assert response.headers["content-disposition"] == 'attachment; filename="match-1.jsonl"'
    stored = client.get("/api/matches/1").json()
    assert stored["record"] == "/matches/1/record"
    assert json.loads(response.text.splitlines()[0])["type"] == "match_start"


@pytest.mark.parametrize("url", ["/bots/nobody", "/matches/999", "/matches/999/record", "/no/such/page"])
def test_unknown_names_and_ids_are_a_404_page(client: TestClient, url: str) -> None:
    response = client.get(url)
    assert response.status_code == 404
    assert response.headers["content-type"].startswith("text/html")
    assert 'id="error" data-status="404"' in response.text


@pytest.mark.parametrize("url", ["/api/bots/nobody", "/api/matches/999", "/api/nothing"])
def test_unknown_names_and_ids_are_a_json_404_under_api(client: TestClient, url: str) -> None:
    response = client.get(url)
    assert response.status_code == 404
    assert "detail" in response.json()


def test_the_api_is_described_by_openapi_and_docs(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    for path in ("/api/leaderboard", "/api/partnerships", "/api/bots/{name}", "/api/matches",
                 "/api/matches/{match_id}"):
        assert path in schema["paths"]
    assert "MatchDetail" in schema["components"]["schemas"]
    docs = client.get("/docs").text
    assert "/static/vendor/swagger-ui-dist/swagger-ui-bundle.js" in docs
