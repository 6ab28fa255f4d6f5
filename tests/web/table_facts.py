"""What a replay must show, computed by the browser tests themselves from the record file.

The record is read straight from the file the store names and every hand is replayed here with
the engine's ``HandState``, step by step, so the browser tests check the page against the game
itself and not against the page's own data (``arena/replay/frames.py`` is what they test).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from arena.engine.actions import HideTrump, parse_action
from arena.engine.cards import Card, Rank, cards_of
from arena.engine.deal import Deal
from arena.engine.hand import HandState
from arena.engine.rules import make_rules
from ladder.store.database import Store
from ladder.store.match_files import read_stored
from ladder.store.paths import ArenaData
from ladder.store.schema import Match

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


@dataclass(frozen=True, slots=True)
class TableFacts:
    """The table after ``step`` actions of a hand (step 0: after the deal), from the engine."""

    step: int
    hands: tuple[frozenset[str], ...]
    """Each seat's cards in hand (a face-down trump is not in it)."""
    undealt: tuple[frozenset[str], ...]
    """Cards still to be dealt to each seat."""
    trick: tuple[tuple[int, str], ...]
    """The trick a viewer sees: the finished one at the step of its last card, else the one in play."""
    trick_finished: bool
    pile: frozenset[str]
    streak_holder: int | None
    tens: tuple[int, int]
    """Tens among each team's captured cards, counted here from the cards."""
    captured: tuple[frozenset[str], ...]
    tricks_done: int
    hidden_trump: tuple[int, str] | None
    """The seat that put a trump face down and the card, while it is down."""
    turned_up: str | None
    """The face-down trump once turned up: public, though it goes back to its owner's hand."""

    def unseen_by(self, seat: int) -> frozenset[str]:
        """Cards ``seat`` may not know at this step: the other seats' hands and cards to come,
        and a face-down trump it did not put down (once turned up, that card is public)."""
        others = [other for other in range(4) if other != seat]
        unseen: set[str] = set().union(*(self.hands[other] | self.undealt[other] for other in others))
        if self.hidden_trump is not None and self.hidden_trump[0] != seat:
            unseen.add(self.hidden_trump[1])
        return frozenset(unseen) - {self.turned_up}


@dataclass(frozen=True, slots=True)
class Sweep:
    """A step at which a team took the pile, as the engine played it."""

    match_id: int
    hand: int
    """From 1, as the pages count."""
    step: int
    team: int
    cards: int
    tens: int
    trick: int
    """How many tricks are finished at the sweep (the sweep's trick included)."""


def hand_records(data: ArenaData, match_id: int) -> list[dict[str, Any]]:
    """The hand records of a match, read from the record the store keeps for it."""
    store = Store.open(data)
    try:
        with store.reading() as session:
            match = session.get(Match, match_id)
            assert match is not None and match.record_path, f"match {match_id} has no record"
            found = read_stored(session, match_id, match.record_path, 1 << 26)
            assert found is not None, f"match {match_id}: no stored record"
    finally:
        store.engine.dispose()
    lines = [json.loads(line) for line in found.content.decode("utf-8").splitlines() if line.strip()]
    hands = sorted((line for line in lines if line["type"] == "hand"), key=lambda line: line["index"])
    return [line["record"] for line in hands]


def match_ids(data: ArenaData, preset: str | None = None) -> list[int]:
    """The store's matches (of one rules preset if given), oldest first."""
    store = Store.open(data)
    try:
        with store.reading() as session:
            return sorted(match.id for match in session.query(Match).all() if preset in (None, match.preset))
    finally:
        store.engine.dispose()


def replayed(record: dict[str, Any]) -> list[TableFacts]:
    """Every step of a hand record: the table after the deal, then after each action."""
    rules = make_rules(record["rules"], context="rules")
    state = HandState(rules, Deal.from_text(rules, record["deal"]["hands"], record["deal"]["chance"]),
                      record["dealer"])
    hidden: tuple[int, str] | None = None
    facts = [_facts(state, 0, hidden, finished=False)]
    for index, entry in enumerate(record["actions"], start=1):
        action = parse_action(entry["action"])
        tricks_before = len(state.tricks)
        state.apply(action)
        if isinstance(action, HideTrump):
            hidden = (entry["seat"], str(action.card))
        if state.reveal is not None:
            hidden = None
        facts.append(_facts(state, index, hidden, finished=len(state.tricks) > tricks_before))
    return facts


def _facts(state: HandState, step: int, hidden: tuple[int, str] | None, *, finished: bool) -> TableFacts:
    if finished:
        last = state.tricks[-1]
        trick = tuple((seat, str(card)) for seat, card in zip(last.seats, last.cards, strict=True))
    else:
        trick = tuple((seat, str(card)) for seat, card in state.current_trick)
    captured = tuple(_texts(cards_of(state.captured(team))) for team in (0, 1))
    return TableFacts(
        step=step,
        hands=tuple(_texts(cards_of(state.hand(seat))) for seat in range(4)),
        undealt=tuple(_texts(cards_of(state.undealt(seat))) for seat in range(4)),
        trick=trick,
        trick_finished=finished,
        pile=_texts(cards_of(state.pile)),
        streak_holder=state.streak_holder,
        tens=(_tens(captured[0]), _tens(captured[1])),
        captured=captured,
        tricks_done=len(state.tricks),
        hidden_trump=hidden,
        turned_up=str(state.reveal.card) if state.reveal is not None else None,
    )


def _texts(cards: Iterable[Card]) -> frozenset[str]:
    return frozenset(str(card) for card in cards)


def _tens(cards: Iterable[str]) -> int:
    return sum(1 for card in cards if Card.parse(card).rank is Rank.TEN)


def sweeps(match_id: int, hand: int, steps: list[TableFacts]) -> list[Sweep]:
    """The steps where a team took a pile that held an earlier trick (two tricks in a row)."""
    found = []
    for before, after in pairwise(steps):
        for team in (0, 1):
            taken = len(after.captured[team]) - len(before.captured[team])
            if taken > 4 and after.trick_finished:
                found.append(Sweep(match_id, hand, after.step, team, taken,
                                   after.tens[team] - before.tens[team], after.tricks_done))
    return found


def card_shown(card: str) -> str:
    """A card as the viewer writes it on the table (``10♥``)."""
    return card[:-1] + SUIT_SYMBOLS[card[-1]]


def cards_in(text: str, cards: Iterable[str]) -> set[str]:
    """Which of ``cards`` occur in ``text``, as a card token (``10H`` not inside ``110H1``) or as
    the viewer writes them (``10♥``)."""
    present = set()
    for card in cards:
        token = re.compile(rf"(?<![0-9A-Za-z]){re.escape(card)}(?![0-9A-Za-z])")
        if token.search(text) or card_shown(card) in text:
            present.add(card)
    return present
