"""Spectators of a person's table (in-process, the bots real sample-bot processes): a match played
from the pages, and at each of the person's decisions (the table waits, so the file is still) the
live page a spectator gets, checked against the record replayed by the engine: it shows the
table exactly ``SPECTATOR_DELAY_MOVES`` moves late (nothing before that many moves), no card held
by any seat then (nor at the moment it shows), the local list marks the match live, and once the
match has ended the live page is its replay."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from arena.engine.actions import parse_action
from arena.referee.delayed_live import SPECTATOR_DELAY_MOVES
from ladder.store.paths import ArenaData
from ladder.submission.intake import IntakeSettings
from ladder.web.app import create_app
from ladder.web.seats.tables import SeatSettings
from tests.live_helpers import Written, leaks, secret_cards
from tests.web.seat_helpers import SEAT, open_table, play_through, record_hands, table_of

SHOWN = re.compile(r'<section class="live-room" data-room="" data-hand="(\d+)" data-moves="(\d+)">')
TABLE_PATH = re.compile(r"^/play/([0-9a-f]{24})$")


@dataclass(frozen=True, slots=True)
class Spectated:
    turn: int
    fragment: str
    listing: str


@dataclass(frozen=True, slots=True)
class Moment:
    hand: int
    moves: int
    made: int
    secret: list[str]


def moments(record: Path) -> tuple[dict[tuple[int, int], Moment], dict[int, Moment]]:
    """From the record, replayed by the engine: every moment of the match by (hand, moves in it),
    with the moves made in the match so far and the cards held then, and the moment of each of
    the person's decisions by its number."""
    by_position: dict[tuple[int, int], Moment] = {}
    at_turn: dict[int, Moment] = {}
    made = turn = 0
    for index, hand, state in record_hands(record):
        for moves, entry in enumerate([*hand.actions, None]):
            moment = Moment(index, moves, made, secret_cards(state))
            by_position[(moment.hand, moves)] = moment
            if entry is None:
                break
            if entry.seat == SEAT:
                turn += 1
                at_turn[turn] = moment
            state.apply(parse_action(entry.action))
            made += 1
    return by_position, at_turn


@pytest.fixture
def local(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(ArenaData.locate(tmp_path / "data"), IntakeSettings(concurrency=0), seats=SeatSettings(seed=27))
    with TestClient(app) as client:
        yield client


def test_spectators_see_a_persons_table_a_trick_late_and_then_its_replay(local: TestClient) -> None:
    answer = open_table(local, length="hands:2", bots=("heuristic", "random", "random"))
    found = TABLE_PATH.match(answer.headers["location"])
    assert answer.status_code == 303 and found is not None
    table_id = found.group(1)
    match_id = table_of(local, table_id).match_id
    spectated: list[Spectated] = []

    def watch_then_play(state: dict[str, Any]) -> str:
        spectator = TestClient(local.app)  # another browser (not entered: leaving would stop the service)
        fragment = spectator.get(f"/local/{match_id}/live/table")
        assert fragment.status_code == 200
        spectated.append(Spectated(state["turn"], fragment.text, spectator.get("/local").text))
        move: str = next((c["action"] for c in state["hand"] if c["legal"]), None) or state["choices"][0]["action"]
        return move

    play_through(local, table_id, watch_then_play)
    table = table_of(local, table_id)
    assert table.outcome is not None and table.outcome.status.value == "done", table.failure
    by_position, at_turn = moments(table.records / f"{match_id}.jsonl")
    assert len(spectated) == len(at_turn) > 20

    problems: list[str] = []
    written: list[Written] = []
    for seen in spectated:
        now = at_turn[seen.turn]
        shown = SHOWN.findall(seen.fragment)
        if now.made < SPECTATOR_DELAY_MOVES:
            if shown or 'data-watch="waiting"' not in seen.fragment:
                problems.append(f"decision {seen.turn}: shown after {now.made} moves")
            continue
        delay = f'data-delay="{SPECTATOR_DELAY_MOVES}">Shown {SPECTATOR_DELAY_MOVES} moves late'
        if len(shown) != 1 or 'data-watch="live"' not in seen.fragment or delay not in seen.fragment:
            problems.append(f"decision {seen.turn}: not live after {now.made} moves")
            continue
        if f'<a class="live" href="/local/{match_id}/live">live</a>' not in seen.listing:
            problems.append(f"decision {seen.turn}: not listed live")
        then = by_position[(int(shown[0][0]), int(shown[0][1]))]
        if then.made != now.made - SPECTATOR_DELAY_MOVES:
            problems.append(f"decision {seen.turn} (move {now.made}): shows move {then.made}")
        held = set(then.secret) | (set(now.secret) if then.hand == now.hand else set())
        written.append(Written(text=seen.fragment, secret=sorted(held)))
    assert problems == []
    assert len(written) > 20 and leaks(written) == []
    assert any("data-hand=\"1\"" in w.text for w in written), "the second hand is watched too"

    ended = local.get(f"/local/{match_id}/live", follow_redirects=False)
    assert ended.status_code == 303 and ended.headers["location"] == f"/local/{match_id}/replay?hand=1"
    assert local.get(f"/local/{match_id}/live/table").headers["hx-redirect"] == ended.headers["location"]
    assert 'class="live"' not in local.get("/local").text
    assert not (table.records / f"{match_id}.live.json").exists()
