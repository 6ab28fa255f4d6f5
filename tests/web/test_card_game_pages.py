"""Pages that read like a card game (issue 27): each hand's result and score on the match page
with its deal pair's duplicate view, the replay's running score, next hand and seat at the
bottom, one Team A/B vocabulary. Checked in-process against the played ladder, the expected
figures computed from the record with the engine and the referee's tally, not from the page."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from arena.engine.hand_records import replay_record
from arena.engine.match import MatchFormat
from arena.engine.outcome import hand_value
from arena.referee.tally import running_scores
from ladder.rating import formatting
from ladder.rating.provisional import PROVISIONAL_MATCHES, PROVISIONAL_SIGMA, is_provisional, rating_move
from ladder.rating.ratings import TeamResult
from ladder.store.paths import ArenaData
from ladder.web.app import create_app
from tests.web.identity_fixtures import Ladder, authored_ladder, csrf_of
from tests.web.table_facts import hand_records, match_ids


@pytest.fixture(scope="module")
def client(played: ArenaData) -> TestClient:
    return TestClient(create_app(played))


def expected_hands(played: ArenaData, match_id: int) -> list[tuple[float, tuple[int, int]]]:
    """Each hand's value for A and the match score after it, from the record by the engine."""
    states = [replay_record(record) for record in hand_records(played, match_id)]
    match_format = MatchFormat.parse(TestClient(create_app(played)).get(f"/api/matches/{match_id}").json()
                                     ["match"]["match_format"])
    scores = running_scores(states[0].rules, match_format, [state.result for state in states])
    return [(hand_value(state.rules, state.result), score)
            for state, score in zip(states, scores, strict=True) if state.result is not None]


def test_the_match_page_gives_each_hands_result_score_and_deal_pair(client: TestClient, played: ArenaData) -> None:
    for match_id in match_ids(played):
        expected = expected_hands(played, match_id)
        links = client.get(f"/api/matches/{match_id}").json()["hand_links"]
        assert [(link["value"], tuple(link["score"])) for link in links] == expected
        assert [link["winner"] for link in links] == ["A" if v > 0 else "B" if v < 0 else "draw" for v, _ in expected]
        page = client.get(f"/matches/{match_id}").text
        for number, (value, score) in enumerate(expected, start=1):
            assert f'data-score="{score[0]}-{score[1]}"' in page
            assert f"({formatting.signed(value)} for Team A)" in page
            first = number - (number + 1) % 2
            assert f'href="/matches/{match_id}/replay?hand={first}&amp;duplicate=1" data-duplicate="{number}"' in page
        assert 'data-duplicate-deal="1"' in page


def test_the_replay_shows_the_running_score_and_the_next_hand(client: TestClient, played: ArenaData) -> None:
    match_id = match_ids(played)[0]
    expected = expected_hands(played, match_id)
    first = client.get(f"/matches/{match_id}/replay?hand=1&seat=1").text
    assert 'data-before="0-0"' in first and f'data-after="{expected[0][1][0]}-{expected[0][1][1]}"' in first
    assert re.search(r'id="next-hand" href="\?hand=2&amp;seat=1"', first)
    assert 'id="trump-now"' in first and 'id="tricks"' in first
    last = client.get(f"/matches/{match_id}/replay?hand={len(expected)}").text
    before = expected[-2][1]
    assert f'data-before="{before[0]}-{before[1]}"' in last
    assert f'id="next-hand" href="/matches/{match_id}"' in last


@pytest.mark.parametrize(("seat", "bottom"), [("all", 0), ("none", 0), ("0", 0), ("1", 1), ("2", 2), ("3", 3)])
def test_a_seats_perspective_is_drawn_from_that_seat(client: TestClient, played: ArenaData, seat: str,
                                                     bottom: int) -> None:
    page = client.get(f"/matches/{match_ids(played)[0]}/replay?hand=1&seat={seat}").text
    positions = dict(re.findall(r'data-seat="(\d)" data-pos="(\w+)"', page))
    assert positions == {str(bottom): "bottom", str((bottom + 1) % 4): "right",
                         str((bottom + 2) % 4): "top", str((bottom + 3) % 4): "left"}


def test_events_say_team_a_and_b(client: TestClient, played: ArenaData) -> None:
    match_id = match_ids(played)[0]
    texts = [event["text"] for number in (1, 2)
             for step in client.get(f"/api/matches/{match_id}/hands/{number}/replay").json()["replay"]["steps"]
             for event in step["events"]]
    assert any("Team A" in text or "Team B" in text for text in texts)
    assert not [text for text in texts if re.search(r"\bteam [01AB]\b", text)]


def test_one_format_for_numbers() -> None:
    assert formatting.percent(0.625) == "62.5%"
    assert formatting.score(4.0) == "4" and formatting.score(2.5) == "2.5"
    assert formatting.signed(-2.0) == "−2" and formatting.signed(1.5) == "+1.5" and formatting.signed(0.0) == "0"
    assert formatting.scores((3.0, 1.0)) == "3 – 1"
    assert formatting.fixed(None) == formatting.MISSING


def test_provisional_ratings_are_marked_by_the_documented_rule(client: TestClient) -> None:
    rows = client.get("/api/leaderboard").json()
    assert rows and all(row["provisional"] == is_provisional(row["matches"], row["sigma"]) for row in rows)
    assert all(row["provisional"] for row in rows)  # two matches each: provisional by the match count
    page = client.get("/").text
    assert page.count('data-provisional="true"') == len(rows) and 'id="provisional-rule"' in page
    assert is_provisional(PROVISIONAL_MATCHES - 1, 1.0) and is_provisional(50, PROVISIONAL_SIGMA + 0.1)
    assert not is_provisional(PROVISIONAL_MATCHES, PROVISIONAL_SIGMA)


def test_a_rating_that_rises_after_a_loss_is_explained() -> None:
    # μ falls by 0.5 while σ falls by 0.5: μ−3σ rises by 1.0 although the match was lost.
    moved = rating_move(TeamResult.LOSS, 25.0, 8.0, 24.5, 7.5)
    assert moved.change == pytest.approx(1.0) and moved.against_result
    assert moved.explanation is not None and "rose although it lost" in moved.explanation
    assert "8.00 to 7.50" in moved.explanation
    assert not rating_move(TeamResult.WIN, 25.0, 8.0, 26.0, 7.5).against_result
    assert rating_move(TeamResult.WIN, 25.0, 7.0, 24.9, 7.2).against_result


def test_the_bot_page_gives_each_matchs_rating_change(client: TestClient) -> None:
    bot = client.get("/api/bots/heuristic").json()
    points = {point["match_id"]: point["rating"] for series in bot["series"] for point in series["points"]}
    page = client.get("/bots/heuristic").text
    assert bot["recent_matches"]
    for row in bot["recent_matches"]:
        change = row["rating_change"]
        assert change["after"] == pytest.approx(points[row["match_id"]], abs=1e-3)
        assert change["against_result"] == ((row["result"] == "loss" and change["change"] > 0)
                                            or (row["result"] == "win" and change["change"] < 0))
        assert change["against_result"] == (change["explanation"] is not None)
    assert 'data-col="rating_change"' in page


@pytest.fixture(scope="module")
def asha(played: ArenaData, tmp_path_factory: pytest.TempPathFactory) -> tuple[TestClient, Ladder]:
    """A client signed in as asha, who owns ``random`` (``identity_fixtures``)."""
    ladder = authored_ladder(played, tmp_path_factory.mktemp("author-page") / "data")
    client = TestClient(create_app(ladder.data))
    answer = client.post("/signin", data={"csrf_token": csrf_of(client.get("/signin")), "token": ladder.tokens["asha"]},
                         follow_redirects=False)
    assert answer.status_code == 303
    return client, ladder


def test_the_authors_page_shows_who_ratings_ranks_results_and_the_submit_command(
        asha: tuple[TestClient, Ladder]) -> None:
    client, ladder = asha
    page = client.get("/me").text
    assert "Signed in as <strong>asha</strong>" in page
    assert "dehla submit FOLDER --server http://testserver/" in page
    board = {row["version_id"]: row for row in client.get("/api/leaderboard").json()}
    mine = board[ladder.asha_version]
    row = re.search(rf'data-version-id="{ladder.asha_version}".*?</tr>', page, re.S)
    assert row is not None
    assert f'<td data-col="rating">{mine["rating"]:.2f}' in row.group(0)
    assert f'<td data-col="rank">{mine["rank"]} of {len(board)}</td>' in row.group(0)
    matches = client.get("/api/matches").json()["matches"]
    for match in matches:
        side = "A" if any(seat["bot"] == "random" for seat in match["team_a"]) else "B"
        both = any(seat["bot"] == "random" for seat in match["team_a"]) and \
            any(seat["bot"] == "random" for seat in match["team_b"])
        expected = "both sides" if both else "draw" if match["winner"] == "draw" else \
            "win" if match["winner"] == side else "loss"
        found = re.search(rf'<tr data-match-id="{match["match_id"]}">.*?data-col="result">([^<]*)<', page, re.S)
        assert found is not None and found.group(1) == expected

