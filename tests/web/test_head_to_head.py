"""The head-to-head table (issue 27): how each pair of bots did against each other in rated
matches where they sat on opposite sides, from the one read model (``read_model.head_to_head``)
on the cross table page, a bot's page, the JSON API and ``dehla ladder head-to-head``.

The store is a fake ladder in mixed mode (partnerships drawn among all bots, so a bot's partner
is often another bot), with a second version of one bot and a voided match; the expected figures
are counted here from the stored matches and results, match by match, with the winner rule."""

from __future__ import annotations

import json
import random
import re
from collections import defaultdict
from dataclasses import dataclass, replace
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from ladder.admin.operator import void_match
from ladder.coordinator.loop import LadderRun, StopRule
from ladder.coordinator.queue import MatchSettings
from ladder.execution.executors import InlineExecutor
from ladder.execution.jobs import MatchJob, MatchReport
from ladder.rating import formatting
from ladder.rating.ratings import RatingEnv
from ladder.rating.scheduler import Mode, Scheduler
from ladder.store.paths import ArenaData
from ladder.store.read_model import Winner, head_to_head, winner
from ladder.store.schema import Bot, BotVersion, Match, Result
from ladder.submission.submit import submit
from ladder.web.app import create_app
from tests.cli_helpers import run_dehla
from tests.database import database_env, database_url
from tests.ladder_helpers import add_bots, bot_folder, fake_play, no_validation, open_store

BOTS = ["s1", "s2", "s3", "s4"]


@dataclass
class Expected:
    matches: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    scored: float = 0.0
    conceded: float = 0.0

    def as_row(self, bot: str, opponent: str) -> dict[str, object]:
        return {"bot": bot, "opponent": opponent, "matches": self.matches, "wins": self.wins, "draws": self.draws,
                "losses": self.losses, "win_rate": round((self.wins + self.draws / 2) / self.matches, 4),
                "score_for": round(self.scored / self.matches, 2),
                "score_against": round(self.conceded / self.matches, 2)}


def play(job: MatchJob) -> MatchReport:
    """``fake_play``, but every fifth match a draw (its seeds are keyed with the store's own secret,
    so how many of ``fake_play``'s come out drawn varies from run to run)."""
    played = fake_play(job)
    return replace(played, winner_team=None) if job.match_id % 5 == 0 else played


def run(store_root: Path, matches: int, seed: int) -> None:
    store = open_store(store_root)
    env = RatingEnv()
    try:
        LadderRun(store, env, Scheduler(env, Mode.MIXED, random.Random(seed)), MatchSettings(runner="local"),
                  InlineExecutor, workers=1, play=play, rng=random.Random(seed)).run(StopRule(matches=matches))
    finally:
        store.close()


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> ArenaData:
    root = tmp_path_factory.mktemp("head-to-head") / "data"
    store = open_store(root)
    add_bots(store, BOTS, root.parent / "src")
    store.close()
    run(root, 24, seed=3)
    store = open_store(root)
    folder = bot_folder(root.parent / "src2", "s2", "# s2, improved\n")  # a second version: s2's rows count both
    submit(store, RatingEnv(), folder, "local", no_validation)
    store.close()
    run(root, 16, seed=4)
    store = open_store(root)
    try:
        void_match(store, RatingEnv(), 6, "a test's void")
    finally:
        store.close()
    return ArenaData(root, database_url(root))


def expected(data: ArenaData) -> dict[tuple[str, str], Expected]:
    """Counted from the stored rows: for each rated match, every bot of one side against every
    bot of the other that did not also sit on the first side."""
    store = open_store(data.root)
    try:
        with store.reading() as session:
            bot_of = {vid: name for vid, name in session.execute(
                select(BotVersion.id, Bot.name).join(Bot, Bot.id == BotVersion.bot_id))}
            found = list(session.execute(select(Match, Result).join(Result, Result.match_id == Match.id)))
            tallies: dict[tuple[str, str], Expected] = defaultdict(Expected)
            for match, result in found:
                won = winner(match, result)
                if won is None:
                    continue
                side_a = {bot_of[vid] for vid in match.teams[0]}
                side_b = {bot_of[vid] for vid in match.teams[1]}
                for mine, theirs, me, my_score, their_score in (
                        (side_a, side_b, Winner.A, result.score_a, result.score_b),
                        (side_b, side_a, Winner.B, result.score_b, result.score_a)):
                    for bot in mine - theirs:
                        for opponent in theirs - mine:
                            tally = tallies[(bot, opponent)]
                            tally.matches += 1
                            tally.wins += won is me
                            tally.draws += won is Winner.DRAW
                            tally.losses += won not in (me, Winner.DRAW)
                            tally.scored += my_score
                            tally.conceded += their_score
            return dict(tallies)
    finally:
        store.close()


def expected_rows(data: ArenaData, bot: str | None = None) -> list[dict[str, object]]:
    rows = [tally.as_row(*pair) for pair, tally in expected(data).items() if bot in (None, pair[0])]
    return sorted(rows, key=lambda row: (-int(str(row["matches"])), str(row["bot"]), str(row["opponent"])))


def test_the_store_has_what_the_table_must_handle(data: ArenaData) -> None:
    """Partners that are other bots, a bot with two versions that met, draws and a voided match:
    else the checks below could pass on a table that ignores them."""
    store = open_store(data.root)
    try:
        with store.reading() as session:
            matches = list(session.execute(select(Match, Result).join(Result, Result.match_id == Match.id)))
            versions = set(session.scalars(select(BotVersion.id).join(Bot, Bot.id == BotVersion.bot_id)
                                           .where(Bot.name == "s2")))
    finally:
        store.close()
    assert any(len({*match.teams[0]}) == 2 for match, _ in matches)
    assert any(match.voided_at is not None and result.status == "done" for match, result in matches)
    assert len(versions) == 2 and all(any(vid in match.seats for match, _ in matches) for vid in versions)
    rows = expected_rows(data)
    assert any(row["draws"] for row in rows) and all(row["matches"] for row in rows)


def test_the_read_model_counts_each_pair_as_the_stored_results_say(data: ArenaData) -> None:
    store = open_store(data.root)
    try:
        with store.reading() as session:
            every = [row.to_json() for row in head_to_head(session)]
            one = [row.to_json() for row in head_to_head(session, "s2")]
    finally:
        store.close()
    assert every == expected_rows(data)
    assert one == expected_rows(data, "s2")
    by_pair = {(row["bot"], row["opponent"]): row for row in every}
    for (bot, opponent), row in by_pair.items():  # each pair seen from both sides agrees
        other = by_pair[(opponent, bot)]
        assert (row["matches"], row["wins"], row["draws"], row["losses"]) == \
            (other["matches"], other["losses"], other["draws"], other["wins"])
        assert (row["score_for"], row["score_against"]) == (other["score_against"], other["score_for"])


def test_the_api_and_the_pages_show_the_read_models_rows(data: ArenaData) -> None:
    client = TestClient(create_app(data))
    table = client.get("/api/head-to-head").json()
    rows = expected_rows(data)
    assert table["pairs"] == rows
    board = [row["bot"] for row in client.get("/api/leaderboard").json()]
    assert table["bots"] == board  # every bot met another: all of them, in leaderboard order
    assert client.get("/api/bots/s3").json()["head_to_head"] == expected_rows(data, "s3")
    best = client.get("/api/head-to-head?top=2").json()  # a ladder of hundreds shows its best few
    assert best["bots"] == board[:2] and len(best["pairs"]) == 2
    assert best["pairs"] == [row for row in rows if {row["bot"], row["opponent"]} == set(board[:2])]
    assert client.get("/api/head-to-head?top=1").status_code == 422
    assert re.findall(r'<th data-bot="([^"]+)" scope="col">', client.get("/head-to-head?top=3").text) == board[:3]
    page = client.get("/head-to-head").text
    assert re.findall(r'<th data-bot="([^"]+)" scope="col">', page) == board
    for row in rows:
        cell = re.search(rf'<td data-bot="{row["bot"]}" data-opponent="{row["opponent"]}" '
                         rf'data-matches="{row["matches"]}"[^>]*>(.*?)</td>', page, re.S)
        assert cell is not None, row
        assert f'{row["wins"]}–{row["draws"]}–{row["losses"]}' in cell.group(1)
        assert formatting.percent(float(str(row["win_rate"]))) in cell.group(1)
        assert f'{formatting.score(float(str(row["score_for"])))} – ' \
               f'{formatting.score(float(str(row["score_against"])))}' in cell.group(1)
    bot_page = client.get("/bots/s3").text
    for row in expected_rows(data, "s3"):
        found = re.search(rf'<tr data-opponent="{row["opponent"]}">(.*?)</tr>', bot_page, re.S)
        assert found is not None, row
        assert f'<td data-col="record">{row["wins"]}–{row["draws"]}–{row["losses"]}</td>' in found.group(1)
        assert f'<td data-col="win_rate">{formatting.percent(float(str(row["win_rate"])))}</td>' in found.group(1)


def test_the_command_line_prints_the_same_rows(data: ArenaData) -> None:
    env = database_env(data.root)
    printed = run_dehla("ladder", "head-to-head", "--json", "--data", str(data.root), env=env)
    assert printed.returncode == 0, printed.stderr
    rows = json.loads(printed.stdout)
    assert [{key: row[key] for key in expected_rows(data)[0]} for row in rows] == expected_rows(data)
    table = run_dehla("ladder", "head-to-head", "--bot", "s1", "--data", str(data.root), env=env)
    assert table.returncode == 0, table.stderr
    for row in expected_rows(data, "s1"):
        line = next(line for line in table.stdout.splitlines() if re.search(rf'\bs1\b.*\b{row["opponent"]}\b', line))
        assert f'{row["wins"]}–{row["draws"]}–{row["losses"]}' in line
        assert formatting.percent(float(str(row["win_rate"]))) in line
    unknown = run_dehla("ladder", "head-to-head", "--bot", "nobody", "--data", str(data.root), env=env)
    assert unknown.returncode == 2 and "unknown bot 'nobody'" in unknown.stderr


def test_an_empty_ladder_says_so(tmp_path: Path) -> None:
    open_store(tmp_path).close()
    data = ArenaData(tmp_path, database_url(tmp_path))
    client = TestClient(create_app(data))
    assert client.get("/api/head-to-head").json() == {"top": 20, "bots": [], "pairs": []}
    assert 'id="empty-head-to-head"' in client.get("/head-to-head").text
    printed = run_dehla("ladder", "head-to-head", "--data", str(tmp_path), env=database_env(tmp_path))
    assert printed.returncode == 0 and "no two bots have met in a rated match yet" in printed.stdout
