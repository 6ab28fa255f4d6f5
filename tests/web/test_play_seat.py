"""A person's seat, in-process (FastAPI's TestClient over the service's own application, the
bots real processes of the sample bots): a whole match played from the pages, every response
scanned for another seat's cards (and a leaking variant caught by the same scan), illegal moves
refused, a table resumed, the limit of open tables per author, and an abandoned table ending."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from arena.engine.actions import PlayCard
from arena.engine.chance import choose_index
from arena.engine.deal import Deal
from arena.engine.hand import HandState
from arena.engine.observation import observe
from arena.engine.rules import rules_for
from arena.referee.hand_kinds import deal_of
from arena.referee.rooms import seat_log_name
from arena.sandbox import LocalRunner, RunnerKind, SandboxUnavailable
from ladder.admin.authors import add_author
from ladder.admin.operator import Target, disable
from ladder.cli.serve_command import is_loopback, seat_settings
from ladder.coordinator.queue import MatchSettings
from ladder.rating.ratings import RatingEnv
from ladder.store.database import Store
from ladder.store.paths import ArenaData
from ladder.submission.intake import IntakeSettings
from ladder.submission.submit import submit
from ladder.web.app import create_app
from ladder.web.seats import tables
from ladder.web.seats.person import SeatMoment
from ladder.web.seats.tables import SeatSettings
from ladder.web.seats.view import seat_view
from tests.ladder_helpers import bot_folder, no_validation
from tests.web.seat_helpers import (
    MOVE_WAIT,
    await_turn,
    csrf,
    leak_the_partners_cards,
    leaks,
    open_table,
    play_through,
    table_of,
)

SEED = 27
"""The deals of the tables these tests open (the bots' own choices follow from the match)."""
TABLE_PATH = re.compile(r"^/play/([0-9a-f]{24})$")


def client_for(root: Path, seats: SeatSettings) -> TestClient:
    return TestClient(create_app(ArenaData.locate(root), IntakeSettings(concurrency=0), seats=seats))


@pytest.fixture
def local(tmp_path: Path) -> Iterator[TestClient]:
    with client_for(tmp_path / "data", SeatSettings(seed=SEED)) as client:
        yield client


def opened(client: TestClient, **choice: object) -> str:
    answer = open_table(client, **choice)  # type: ignore[arg-type]
    assert answer.status_code == 303, answer.text[:500]
    found = TABLE_PATH.match(answer.headers["location"])
    assert found is not None
    return found.group(1)


def record_of(client: TestClient, table_id: str) -> Path:
    table = table_of(client, table_id)
    return table.records / f"{table.match_id}.jsonl"


def test_a_whole_match_played_from_the_pages_shows_the_seat_no_other_card(local: TestClient) -> None:
    table_id = opened(local, length="hands:2", bots=("heuristic", "random", "expert-1"))
    seen = play_through(local, table_id)
    table = table_of(local, table_id)
    assert table.outcome is not None and table.outcome.status.value == "done", table.failure
    assert len(table.outcome.hands) == 2 and not table.outcome.faults
    record = record_of(local, table_id)
    lines = [json.loads(line) for line in record.read_text().splitlines()]
    assert lines[0]["seats"] == ["person", "random", "heuristic", "expert-1"]
    assert lines[-1]["type"] == "match_end"
    assert {s.phase for s in seen} >= {"your-turn", "finished"}
    assert sum(1 for s in seen if s.url.endswith("/move")) == table.person.moment.turn
    assert leaks(seen, record, csrf(local, f"/play/{table_id}")) == []
    # The finished table is a local match like any other: listed, with its page and replay.
    match_id = table.match_id
    assert match_id in local.get("/local").text
    assert local.get(f"/local/{match_id}").status_code == 200
    assert local.get(f"/api/local-matches/{match_id}/hands/1/replay").status_code == 200
    board = local.get(f"/play/{table_id}").text
    assert f'href="/local/{match_id}"' in board and 'id="outcome"' in board


BOARD_POLL = re.compile(r'hx-trigger="([^"]*)"')


def test_the_board_keeps_asking_until_the_tables_outcome_is_known(local: TestClient) -> None:
    """The seat learns that the match is over (its last EndMatch) before the table has written its
    record and stopped its bots. A board drawn in between must go on polling, and the next poll
    must bring the outcome: a board that stopped at "The match is over" never showed it (seen
    once in CI, on a loaded machine)."""
    table_id = opened(local)
    play_through(local, table_id)
    table = table_of(local, table_id)
    ended_at, outcome = table.finished_at, table.outcome
    assert outcome is not None and table.person.moment.match_over
    table.finished_at, table.outcome = None, None  # the moment between the seat's end and the table's
    try:
        between = local.get(f"/play/{table_id}/board")
        assert 'data-phase="finished"' in between.text and 'id="outcome"' not in between.text
        poll = BOARD_POLL.search(between.text)
        assert poll is not None and poll.group(1) != "none"
        version = re.search(r'data-version="([^"]+)"', between.text)
        assert version is not None
        assert local.get(f"/play/{table_id}/board?seen={version.group(1)}").status_code == 204
    finally:
        table.finished_at, table.outcome = ended_at, outcome
    after = local.get(f"/play/{table_id}/board?seen={version.group(1)}")
    assert after.status_code == 200 and "Match over" in after.text
    poll = BOARD_POLL.search(after.text)
    assert poll is not None and poll.group(1) == "none"


def seed_seating_the_maker(preset: str, seat: int) -> int:
    """A match seed whose first hand's trump maker (its first player) sits at ``seat``."""
    rules = rules_for(preset, {})
    return next(seed for seed in range(100) if HandState(
        rules, deal_of(rules, seed, 0), choose_index(4, seed, "first-dealer")).first_player == seat)


@pytest.mark.parametrize(("preset", "moves"), [
    ("dehla-pakad-hidden", {"hide", "play"}),
    ("mendikot-closed", {"hide", "play"}),
    ("court-piece-double-sir", {"hide", "play", "play down", "reveal"}),
])
def test_hidden_trumps_reveals_and_face_down_discards_show_the_seat_no_other_card(
        tmp_path: Path, preset: str, moves: set[str]) -> None:
    """Any legal move, chosen at random (seeded), the person the trump maker of the first hand:
    setting the trump face down, asking for it, the maker's face-down discards, each offered only
    when legal (the server refuses the rest), and none showing what seat 0 may not see."""
    rng = random.Random(preset)
    offered: set[str] = set()

    def any_legal(state: dict[str, Any]) -> str:
        legal = [c["action"] for c in state["hand"] if c["legal"]] + [c["action"] for c in state["choices"]]
        assert legal, json.dumps(state)  # a seat asked to move is always offered its moves
        offered.update(move.split()[0] + (" down" if move.endswith("down") else "") for move in legal)
        return rng.choice(legal)

    seats = SeatSettings(seed=seed_seating_the_maker(preset, 0))
    with client_for(tmp_path / "data", seats) as client:
        table_id = opened(client, preset=preset, length="hands:2", bots=("heuristic", "random", "heuristic"))
        seen = play_through(client, table_id, any_legal)
        table = table_of(client, table_id)
        assert table.outcome is not None and not table.outcome.faults, table.failure
        assert leaks(seen, record_of(client, table_id), csrf(client, f"/play/{table_id}")) == []
    assert offered >= moves


def test_the_makers_face_down_trump_is_offered_when_it_may_be_played_from_the_table(local: TestClient) -> None:
    """``reveal: on_play`` (mendikot-closed): the maker may play the face-down trump, which is not
    in the hand the observation lists; the page offers it as a choice of its own."""
    rules = rules_for("mendikot-closed", {})
    for seed in range(50):
        state, chooser = HandState(rules, Deal.from_seed(rules, seed), 3), random.Random(seed)
        while not state.is_over:
            seen = observe(state, state.to_move)
            outside = [a for a in seen.legal_actions if isinstance(a, PlayCard) and a.card not in seen.hand]
            if outside:
                break
            state.apply(chooser.choice(seen.legal_actions))
        if not state.is_over:
            break
    else:
        pytest.fail("no deal where the maker may play its face-down trump")
    table = table_of(local, opened(local))
    view = seat_view(table, SeatMoment(0, observation=seen, turn=1, waiting=True))
    assert [c.action for c in view.choices if c.label.startswith("Play your face-down trump")] == \
        [str(a) for a in outside]


def test_the_same_scan_catches_a_view_that_shows_the_partners_hand(local: TestClient,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """The negative control: the page built as the real one, plus the partner's cards of the deal."""
    leak_the_partners_cards(monkeypatch)
    table_id = opened(local)
    seen = play_through(local, table_id)
    found = leaks(seen, record_of(local, table_id), csrf(local, f"/play/{table_id}"))
    assert found and {url.rsplit("/", 1)[-1] for url, _, _ in found} >= {"board", table_id}


def test_an_illegal_or_stale_move_is_refused_and_nothing_is_played(local: TestClient) -> None:
    table_id = opened(local)
    table = table_of(local, table_id)
    assert await_turn(table)
    state = local.get(f"/api/play/{table_id}").json()
    token = csrf(local, f"/play/{table_id}")
    held = [c for c in state["hand"] if not c["legal"]]
    legal = {c["action"] for c in state["hand"] if c["legal"]} | {c["action"] for c in state["choices"]}
    attempts = [("play 11Z", "not a move"), ("reveal" if "reveal" not in legal else "call X", "")]
    if held:
        attempts.append((f"play {held[0]['text']}", "is not legal now"))
    for action, said in attempts:
        answer = local.post(f"/play/{table_id}/move", data={"csrf_token": token, "turn": state["turn"],
                                                             "action": action})
        assert answer.status_code == 409, (action, answer.status_code)
        assert 'id="move-problem"' in answer.text and said in answer.text
    stale = local.post(f"/play/{table_id}/move", data={"csrf_token": token, "turn": state["turn"] + 1,
                                                        "action": sorted(legal)[0]})
    assert stale.status_code == 409 and "decision" in stale.text
    assert table.person.moment.waiting and table.person.moment.turn == state["turn"]
    unsigned = local.post(f"/play/{table_id}/move", data={"turn": state["turn"], "action": sorted(legal)[0]})
    assert unsigned.status_code == 403
    assert local.get("/play/not-a-table").status_code == 422
    assert local.get(f"/play/{'0' * 24}").status_code == 404
    assert open_table(local, preset="twenty-eight", length="kots:3").status_code == 422
    assert open_table(local, preset="bridge").status_code == 422
    assert open_table(local, bots=("random", "random", "/bin/sh")).status_code == 422


def test_leaving_and_coming_back_resumes_the_table(local: TestClient, tmp_path: Path) -> None:
    table_id = opened(local)
    table = table_of(local, table_id)
    assert await_turn(table)
    turn = table.person.moment.turn
    listing = local.get("/play").text
    assert f'data-table-id="{table_id}"' in listing
    row = local.get("/api/local-matches").json()["matches"][0]
    assert (row["match_id"], row["status"]) == (table.match_id, "unfinished")
    # A new browser (no cookie) at the same address: the same table at the same decision.
    with TestClient(local.app) as other:
        page = other.get(f"/play/{table_id}")
        assert page.status_code == 200 and f'data-turn="{turn}"' in page.text and "your-turn" in page.text
        version = re.search(r'data-version="([^"]+)"', page.text)
        assert version is not None and version.group(1).startswith(f"your-turn.{turn}.0.")
        assert other.get(f"/play/{table_id}/board", params={"seen": version.group(1)}).status_code == 204
    seen = play_through(local, table_id)
    assert seen[-1].phase == "finished"


@pytest.fixture
def public(tmp_path: Path) -> Iterator[tuple[TestClient, dict[str, str]]]:
    root = tmp_path / "public"
    data = ArenaData.locate(root)
    store = Store.open(data)
    tokens = {name: add_author(store, name).token for name in ("asha", "bilal")}
    with client_for(root, SeatSettings(public=True, tables_per_author=1)) as client:
        yield client, tokens


def sign_in(client: TestClient, token: str) -> None:
    answer = client.post("/signin", data={"csrf_token": csrf(client, "/signin"), "token": token},
                         follow_redirects=False)
    assert answer.status_code == 303


def test_a_public_server_seats_signed_in_authors_only_and_each_within_the_limit(
        public: tuple[TestClient, dict[str, str]]) -> None:
    client, tokens = public
    assert 'id="play-signin"' in client.get("/play").text
    anonymous = client.post("/play", data={"csrf_token": csrf(client, "/signin"), "preset": "dehla-pakad",
                                           "length": "hands:1", "partner": "random", "left": "random",
                                           "right": "random"})
    assert anonymous.status_code == 401 and "sign in to play" in anonymous.text
    sign_in(client, tokens["asha"])
    first = opened(client)
    refused = open_table(client)
    assert refused.status_code == 429 and "at most 1 each" in refused.text
    with TestClient(client.app) as other:
        assert other.get(f"/play/{first}").status_code == 401
        sign_in(other, tokens["bilal"])
        assert other.get(f"/play/{first}").status_code == 404  # not bilal's table
        assert other.get(f"/api/play/{first}").status_code == 401  # the API takes a token, never the cookie
        bearer = {"Authorization": f"Bearer {tokens['bilal']}"}
        assert other.get(f"/api/play/{first}", headers=bearer).status_code == 404
        bearer = {"Authorization": f"Bearer {tokens['asha']}"}
        assert other.get(f"/api/play/{first}", headers=bearer).status_code == 200
        opened(other)  # bilal's own limit
    table_of(client, first).stop()
    assert table_of(client, first).finished
    opened(client)  # a finished table no longer counts


def test_an_abandoned_table_ends_when_the_seats_clock_runs_out(tmp_path: Path) -> None:
    with client_for(tmp_path / "data", SeatSettings(per_move=0.3, bank=0.2)) as client:
        table_id = opened(client)
        table = table_of(client, table_id)
        assert table.wait(MOVE_WAIT)
        outcome = table.outcome
        assert outcome is not None and outcome.forfeit_team == 0
        assert [(f.seat, f.kind.value) for f in outcome.faults] == [(0, "timeout")]
        assert "timeout" in client.get(f"/play/{table_id}").text
        assert client.get(f"/local/{table.match_id}").status_code == 200


@pytest.mark.parametrize("runner", list(RunnerKind))
@pytest.mark.parametrize("host", ["127.0.0.1", "0.0.0.0"])
def test_dehla_serve_starts_every_bot_at_a_table_with_its_runner(host: str, runner: RunnerKind) -> None:
    """The bots run as in the ladder: sample bots and ladder bots alike with the service's
    ``--runner``, on a local service as on a public one."""
    seats = seat_settings(host, runner)
    assert (seats.runner, seats.ladder_runner) == (runner, runner)
    assert seats.public is not is_loopback(host)


def test_a_service_on_a_loopback_address_is_local_and_any_other_is_public() -> None:
    assert all(is_loopback(host) for host in ("127.0.0.1", "127.0.0.2", "::1", "[::1]", "localhost"))
    assert not any(is_loopback(host) for host in ("0.0.0.0", "::", "192.168.1.20", "example.org"))


class UnavailableRunner(LocalRunner):
    """A runner this host cannot run (as the sandbox without root): its check says why."""

    def check(self) -> None:
        raise SandboxUnavailable("bubblewrap is not installed")


def test_a_service_whose_runner_cannot_run_here_opens_no_table(local: TestClient,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tables, "runner_for", lambda kind: UnavailableRunner())
    answer = open_table(local)
    assert answer.status_code == 503 and "bubblewrap is not installed" in answer.text
    assert 'data-table-id' not in local.get("/play").text


LADDER_BOT = """
import sys

from sample_bots.random.bot import RandomBot
from sdk.server import run


class Told(RandomBot):
    def on_match_start(self, start):
        control = start.time_control
        print(f"told per_move={control.per_move} bank={control.bank}", file=sys.stderr, flush=True)
        super().on_match_start(start)


run(Told())
"""
"""A random bot that says in its log which clock its StartMatch gave it."""


def test_a_ladder_bot_that_is_not_disabled_may_sit_at_the_table(tmp_path: Path) -> None:
    """A submitted version, started from its stored archive (the version cache), plays the
    partner's seat; a disabled bot is neither listed nor accepted."""
    root = tmp_path / "data"
    store = Store.open(ArenaData.locate(root))
    for name in ("lb", "gone"):
        submit(store, RatingEnv(), bot_folder(tmp_path / "src", name, LADDER_BOT), "local", no_validation)
    disable(store, Target(bot="gone"))
    with client_for(root, SeatSettings(seed=SEED, ladder_runner=RunnerKind.LOCAL)) as client:
        form = client.get("/play").text
        assert '<option value="lb#1">' in form and "gone#1" not in form
        # On their own clocks the bots that think for a share of it are offered too.
        assert '<option value="search">' in form and '<option value="expert-5">' in form
        assert open_table(client, bots=("random", "gone#1", "random")).status_code == 422
        table_id = opened(client, bots=("lb#1", "random", "random"))
        play_through(client, table_id)
        table = table_of(client, table_id)
        assert table.outcome is not None and table.outcome.status.value == "done" and not table.outcome.faults
        start = json.loads(record_of(client, table_id).read_text().splitlines()[0])
        assert start["seats"] == ["person", "random", "lb#1", "random"]
        # The bots play on the ladder's clock, the person on a generous one of its own.
        ladder = MatchSettings()
        told = (table.records / seat_log_name(table.match_id, 2)).read_text()
        assert f"told per_move={ladder.per_move} bank={ladder.bank}" in told, told
        bots = (ladder.per_move, ladder.bank)
        assert [(c["per_move"], c["bank"]) for c in start["seat_time_controls"]] == [(60.0, 120.0), bots, bots, bots]
        assert table.person.moment.per_move == 60.0
        # Not rated: a person's match is a local record; the ladder has no match, nor a rating change.
        assert client.get("/api/matches").json()["total"] == 0
        rows = client.get("/api/leaderboard?all_versions=true").json()
        assert {row["bot"] for row in rows} >= {"lb"} and all(row["matches"] == 0 for row in rows), rows
