"""The ladder plays Twenty-eight and the ``tens:N`` format end to end: ``dehla ladder run`` queues
the matches, its worker plays them with real (random) bots, the store keeps each result and
record, the ratings move by the match's own scores (deal-pair game points; a tens race is one
game) and the match's web pages show it. Each run is one or two short matches, ``dehla`` in this
process (``tests.cli_helpers.run_dehla``; the bots and the run's worker are processes)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from arena.engine.bidding_records import replay_bidding_record
from arena.engine.match import FormatKind, MatchFormat
from ladder.coordinator.results import rated_games
from ladder.rating.ratings import RatingEnv, Skill
from ladder.store.paths import ArenaData
from ladder.store.schema import Match, RatingChange, Result
from ladder.web.app import create_app
from tests.cli_helpers import run_dehla
from tests.database import database_env, database_url
from tests.ladder_helpers import add_random_bots, check_store_is_consistent, store_at
from tests.web_helpers import match_file

QUICK = ("--runner", "local", "--per-move", "0.2", "--release", "on-reply", "--seed", "5")


def dehla(root: Path, *args: str) -> Any:
    return run_dehla(*args, "--data", str(root), env=database_env(root))


Stored = tuple[Match, Result, list[RatingChange], list[dict[str, Any]]]


def stored(root: Path) -> list[Stored]:
    """Each match with its result, its rating changes and its record's lines, read back from the store."""
    data = ArenaData(root, database_url(root))
    store = store_at(root)
    try:
        with store.reading() as session:
            rows = [(match, session.get_one(Result, match.id),
                     list(session.scalars(select(RatingChange).where(RatingChange.match_id == match.id))))
                    for match in session.scalars(select(Match).order_by(Match.id))]
    finally:
        store.close()
    return [(match, result, changes,
             [json.loads(line) for line in match_file(data, match.id, match.record_path or "").splitlines()])
            for match, result, changes in rows]


def check_rated_by(match: Match, result: Result, changes: list[RatingChange]) -> None:
    """Each version's rating moved exactly as the match's rated games (``rated_games``) move it."""
    games = rated_games(match.match_format, result.winner_team, result.deal_scores or (), result.forfeit_team)
    expected = len(result.deal_scores or ()) if match.match_format.kind is FormatKind.DUPLICATE else 1
    assert len(games) == expected  # a game per deal pair; one for a tens race
    before = {c.version_id: Skill(c.mu_before, c.sigma_before) for c in changes if c.version_id is not None}
    team_a, team_b = match.teams
    after = RatingEnv().rate_versions_series(team_a, team_b, before, games)
    for change in changes:
        if change.version_id is not None:
            assert change.mu_after == pytest.approx(after[change.version_id].mu, abs=1e-6)


def test_a_twenty_eight_ladder_rates_each_deal_pair_by_its_game_points(tmp_path: Path) -> None:
    root = tmp_path / "arena"
    add_random_bots(root, ["r1", "r2"])
    out = dehla(root, "ladder", "run", "--matches", "2", "--deals", "2", "--preset", "twenty-eight", *QUICK)
    assert out.returncode == 0, out.stderr
    assert "2 matches counted (0 void)" in out.stderr
    check_store_is_consistent(root)
    for match, result, changes, lines in stored(root):
        assert (match.preset, str(match.match_format), match.status) == ("twenty-eight", "duplicate:2", "done")
        assert lines[0]["preset"] == "twenty-eight"
        hands = {line["index"]: replay_bidding_record(line["record"]).result
                 for line in lines if line["type"] == "hand"}
        assert sorted(hands) == [0, 1, 2, 3]
        # A deal pair's score: both plays' game points, from partnership A's side.
        value = {index: (r.game_points if r.bidding_team == 0 else -r.game_points)
                 for index, r in hands.items() if r is not None}
        assert result.deal_scores == [value[0] + value[1], value[2] + value[3]]
        assert result.hands == 4
        check_rated_by(match, result, changes)
        with TestClient(create_app(ArenaData(root, database_url(root)))) as client:
            page = client.get(f"/matches/{match.id}")
            assert page.status_code == 200 and "twenty-eight" in page.text
            assert client.get(f"/matches/{match.id}/replay").status_code == 200  # the viewer's page
            hand = client.get(f"/api/matches/{match.id}/hands/1/replay")  # its data: the auction and the play
            assert hand.status_code == 200, hand.text
            replay = hand.json()["replay"]
            assert replay["game"] == "bidding" and replay["steps"][-1]["bidding"]["result"] is not None
    with TestClient(create_app(ArenaData(root, database_url(root)))) as client:
        board = client.get("/?preset=twenty-eight")  # the leaderboard counts the preset apart
        assert board.status_code == 200 and "r1" in board.text and "r2" in board.text
    replay = dehla(root, "replay", "--match", "1")
    assert replay.returncode == 0 and "bid" in replay.stdout, replay.stderr


def test_a_tens_race_on_the_ladder_is_one_rated_game_won_by_the_first_to_the_tens(tmp_path: Path) -> None:
    root = tmp_path / "arena"
    add_random_bots(root, ["r1", "r2"])
    out = dehla(root, "ladder", "run", "--matches", "1", "--format", "tens:6", "--preset", "dehla-pakad", *QUICK)
    assert out.returncode == 0, out.stderr
    check_store_is_consistent(root)
    ((match, result, changes, lines),) = stored(root)
    assert match.match_format == MatchFormat.parse("tens:6") and lines[0]["format"] == "tens:6"
    tens = [0, 0]
    for line in lines:
        if line["type"] == "hand":
            for team in (0, 1):
                tens[team] += line["record"]["result"]["tens"][team]
    assert max(tens) >= 6 and (result.score_a, result.score_b) == (tens[0], tens[1])
    assert result.winner_team == (0 if tens[0] > tens[1] else 1) and result.deal_scores == []
    check_rated_by(match, result, changes)
    with TestClient(create_app(ArenaData(root, database_url(root)))) as client:
        assert client.get(f"/matches/{match.id}").status_code == 200
        hand = client.get(f"/api/matches/{match.id}/hands/1/replay")
        assert hand.status_code == 200 and hand.json()["tens"] is not None, hand.text


@pytest.mark.parametrize(("args", "message"), [
    (["--preset", "twenty-eight", "--format", "tens:5"], "a bidding game plays to its rules' target"),
    (["--preset", "mendikot", "--format", "tens"], "expected a positive count after ':'"),
    (["--preset", "court-piece", "--format", "tens:5"], "tens totals need rules whose hands are decided on tens"),
    (["--preset", "twenty-seven"], "unknown preset 'twenty-seven'"),
])
def test_a_format_or_preset_the_ladder_cannot_play_is_one_line_and_exit_2(tmp_path: Path, args: list[str],
                                                                          message: str) -> None:
    out = dehla(tmp_path, "ladder", "run", *args, "--runner", "local")
    assert out.returncode == 2 and message in out.stderr and out.stderr.count("\n") == 1, out.stderr
