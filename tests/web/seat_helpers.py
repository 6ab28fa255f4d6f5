"""Helpers of the tests of a person's seat: opening a table through the pages, playing it move by
move, and the engine's own answer to "which cards may seat 0 see at this moment" (the leak scan)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from playwright.sync_api import Page, expect

from arena.engine.actions import parse_action
from arena.engine.bidding_hand import BiddingHand
from arena.engine.bidding_observation import observe_bidding
from arena.engine.bidding_records import is_bidding_record, parse_bidding_action, replay_bidding_record
from arena.engine.cards import CARDS
from arena.engine.deal import Deal
from arena.engine.hand import HandState
from arena.engine.hand_records import HandRecord, read_hand_record
from arena.engine.observation import observe
from arena.engine.rules import make_rules
from arena.referee.hand_kinds import deal_of
from ladder.web.routers import play
from ladder.web.seats.person import SeatMoment
from ladder.web.seats.tables import PersonTable, TableRegistry
from ladder.web.seats.view import SeatView, card_view, seat_view
from tests.web.identity_fixtures import CSRF_INPUT
from tests.web.table_facts import cards_in

SEAT = 0
EVERY_CARD = tuple(str(card) for card in CARDS)
MOVE_WAIT = 60.0
"""Seconds a test waits for the bots to bring the next decision (they take milliseconds)."""
BOARD_TAG = re.compile(r'id="board"[^>]*data-phase="([a-z-]+)" data-turn="(\d+)" data-hands-done="(\d+)"')


def csrf(client: TestClient, path: str = "/play") -> str:
    found = CSRF_INPUT.search(client.get(path).text)
    assert found is not None
    return found.group(1)


def open_table(client: TestClient, preset: str = "dehla-pakad", length: str = "hands:1",
               bots: tuple[str, str, str] = ("random", "random", "random")) -> Any:
    """POST /play as the form does: the response (303 to the table, or the refusal)."""
    partner, left, right = bots
    return client.post("/play", data={"csrf_token": csrf(client), "preset": preset, "length": length,
                                      "partner": partner, "left": left, "right": right}, follow_redirects=False)


def table_of(client: TestClient, table_id: str) -> PersonTable:
    registry: TableRegistry = client.app.state.tables  # type: ignore[attr-defined]
    with registry._lock:
        return registry._tables[table_id]


def await_turn(table: PersonTable) -> bool:
    """Wait (on the seat's own signal, no sleeping) until the person is to move (True) or the
    match is over (False)."""
    while True:
        table.person.changed.clear()
        if table.person.moment.waiting:
            return True
        if table.finished:
            return False
        assert table.person.changed.wait(MOVE_WAIT), "the table brought nothing new in time"


@dataclass(frozen=True)
class Seen:
    """One response as the seat's browser got it, with the moment it says it shows."""

    url: str
    text: str
    phase: str
    turn: int
    hands_done: int


def moment_of(url: str, text: str) -> Seen:
    if text.lstrip().startswith("{"):
        data = json.loads(text)
        return Seen(url, text, data["phase"], data["turn"], data["hands_done"])
    found = BOARD_TAG.search(text)
    assert found is not None, text[:300]
    return Seen(url, text, found.group(1), int(found.group(2)), int(found.group(3)))


def play_through(client: TestClient, table_id: str, choose: Callable[[dict[str, Any]], str] | None = None
                 ) -> list[Seen]:
    """Play the table to its end from the pages (the first legal move each time, unless
    ``choose`` says), keeping every response the seat's pages and API gave."""
    table = table_of(client, table_id)
    seen: list[Seen] = []

    def get(url: str) -> str:
        answer = client.get(url)
        assert answer.status_code == 200, (url, answer.status_code, answer.text[:300])
        seen.append(moment_of(url, answer.text))
        return answer.text

    while await_turn(table):
        get(f"/play/{table_id}")
        get(f"/play/{table_id}/board")
        state = json.loads(get(f"/api/play/{table_id}"))
        move = choose(state) if choose else next(
            (c["action"] for c in state["hand"] if c["legal"]), None) or state["choices"][0]["action"]
        answer = client.post(f"/play/{table_id}/move", headers={"HX-Request": "true"},
                             data={"csrf_token": csrf(client, f"/play/{table_id}"), "turn": state["turn"],
                                   "action": move})
        assert answer.status_code == 200, answer.text[:300]
        seen.append(moment_of(f"/play/{table_id}/move", answer.text))
    for url in (f"/play/{table_id}", f"/play/{table_id}/board", f"/api/play/{table_id}"):
        get(url)
    return seen


def allowed_cards(record: Path) -> tuple[dict[int, set[str]], dict[int, set[str]]]:
    """From a finished table's record, replayed by the engine: the cards seat 0's observation
    holds at each of its decisions (by the seat's decision number in the match) and at the end
    of each hand (by hand index). Anything else is another seat's secret at that moment. A
    bidding game's hands are replayed by its own engine (``BiddingHand``, ``observe_bidding``)."""
    at_turn: dict[int, set[str]] = {}
    at_end: dict[int, set[str]] = {}
    turn = 0
    for index, moves, state in any_record_hands(record):
        for seat, action in moves:
            if seat == SEAT:
                turn += 1
                at_turn[turn] = visible(state)
            apply_text(state, action)
        at_end[index] = visible(state)
    return at_turn, at_end


def any_record_hands(record: Path) -> Iterator[tuple[int, list[tuple[int, str]], HandState | BiddingHand]]:
    """Each hand of a match record of any game: its index, its moves (seat, action text) and the
    engine's state as dealt."""
    for line in record.read_text().splitlines():
        data = json.loads(line)
        if data["type"] != "hand":
            continue
        if is_bidding_record(data["record"]):
            full = replay_bidding_record(data["record"])
            moves = [(seat, str(action)) for seat, action in full.history]
            yield data["index"], moves, BiddingHand(full.rules, full.deal, full.dealer)
        else:
            hand = read_hand_record(data["record"])
            rules = make_rules(hand.rules, context="rules")
            yield data["index"], [(e.seat, e.action) for e in hand.actions], HandState(
                rules, Deal.from_text(rules, hand.deal.hands, hand.deal.chance), hand.dealer)


def apply_text(state: HandState | BiddingHand, action: str) -> None:
    if isinstance(state, BiddingHand):
        state.apply(parse_bidding_action(action))
    else:
        state.apply(parse_action(action))


def record_hands(record: Path) -> Iterator[tuple[int, HandRecord, HandState]]:
    """Each hand of a match record: its index, its hand record and the engine's state as dealt."""
    for line in record.read_text().splitlines():
        data = json.loads(line)
        if data["type"] != "hand":
            continue
        hand = read_hand_record(data["record"])
        rules = make_rules(hand.rules, context="rules")
        yield data["index"], hand, HandState(rules, Deal.from_text(rules, hand.deal.hands, hand.deal.chance),
                                             hand.dealer)


def start_random_table(page: Page) -> str:
    """On the ``/play`` page in a browser: a one-hand table against three random bots, opened with
    the page's own form; its id."""
    form = page.locator("form#new-table")
    form.locator("select[name=length]").select_option("hands:1")
    for seat in ("partner", "left", "right"):
        form.locator(f"select[name={seat}]").select_option("random")
    form.locator("#start-table").click()
    expect(page).to_have_url(re.compile(r"/play/[0-9a-f]{24}$"))
    return page.url.rsplit("/", 1)[1]


def visible(state: HandState | BiddingHand) -> set[str]:
    seen = observe_bidding(state, SEAT) if isinstance(state, BiddingHand) else observe(state, SEAT)
    return cards_in(json.dumps(seen.to_json()), EVERY_CARD)


def leaks(seen: list[Seen], record: Path, csrf_token: str) -> list[tuple[str, str, set[str]]]:
    """Every response that shows a card seat 0 may not see at the moment it shows: (url, moment, cards)."""
    at_turn, at_end = allowed_cards(record)
    found = []
    for response in seen:
        if response.phase == "starting":
            allowed: set[str] = set()
        elif response.phase in ("hand-over", "finished"):
            allowed = at_end[response.hands_done - 1]
        else:
            allowed = at_turn[response.turn]
        text = response.text.replace(csrf_token, "")
        shown = cards_in(text, set(EVERY_CARD) - allowed)
        if shown:
            found.append((response.url, f"{response.phase} {response.turn}", shown))
    return found


def leak_the_partners_cards(monkeypatch: Any) -> None:
    """The leak scans' negative control: the seat's page built as the real one, plus the partner's
    cards of the deal (in a bidding game its second packet too, which nobody holds in the auction)."""
    real = seat_view  # what the play router renders

    def leaking(table: PersonTable, moment: SeatMoment) -> SeatView:
        view = real(table, moment)
        deal = deal_of(table.config.rules, table.config.seed, moment.hands_done)
        return view.model_copy(update={"hand": view.hand + tuple(card_view(c) for c in deal.hands[2])})

    monkeypatch.setattr(play, "seat_view", leaking)
