"""A running match's public table, published after every move to a small file beside its record,
for spectators (``dehla serve``'s live page).

What is published is built from the engine's view of a seat that holds no secret
(``observe`` of a seat that is neither the face-down trump's holder nor the player whose
discards lie face down: the replay's ``none`` perspective), and from that view's public fields
only: the tricks so far, the trick in progress, trump once it is in force for everyone, trick
counts, hand sizes, whose turn it is and the match score. A hand, a legal action, the face-down
trump and a face-down card are never read, so they cannot be written (``tests/referee/
test_live_view.py`` plays a match and looks for every card still held in every state written).

The file (``MATCH.live.json``) is replaced atomically (a temporary file in the same folder,
then ``os.replace``): a reader sees the previous state or the next, never half of one. The
match's runner removes it when the match ends, after the record's ``match_end`` line is
written, so a reader that finds no live file and a finished record shows the replay.
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Protocol

from pydantic import BaseModel, ConfigDict, Field

from arena.engine.bidding_hand import BiddingHand
from arena.engine.hand import HandState
from arena.engine.observation import Observation, observe

LIVE_SUFFIX = ".live.json"
"""A live file's name is the match id and this: never a ``.jsonl`` record's name."""

MAX_LIVE_BYTES = 64 * 1024
"""A reader's cap on a live file (a state is a few KB; anything bigger is not one)."""


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class LivePlay(_Model):
    seat: int = Field(ge=0, le=3)
    card: str | None = Field(default=None, max_length=3, description="None: played face down.")


class LiveTrick(_Model):
    number: int = Field(ge=0, le=13)
    plays: list[LivePlay] = Field(max_length=4)
    winner: int = Field(ge=0, le=3)


class LiveTable(_Model):
    """One table's public state now (a duplicate match in two rooms has two)."""

    room: int | None = Field(default=None, ge=0, le=1)
    game: str = Field(default="tricks", max_length=16)
    hand: int = Field(ge=0, le=100_000, description="The hand's index in the match (from 0).")
    moves: int = Field(ge=0, le=1000, description="Moves made in this hand so far.")
    dealer: int = Field(ge=0, le=3)
    to_move: int | None = Field(default=None, ge=0, le=3)
    decision: str | None = Field(default=None, max_length=16)
    trump: str | None = Field(default=None, max_length=1, description="The trump suit once public.")
    tricks: list[LiveTrick] = Field(default_factory=list, max_length=13)
    current_trick: list[LivePlay] = Field(default_factory=list, max_length=4)
    hand_sizes: list[int] = Field(default_factory=list, max_length=4)
    tricks_won: tuple[int, int] = (0, 0)
    match_points: tuple[float, float] = Field((0, 0), description="The match's points before this hand.")


class LiveState(_Model):
    """The whole live file."""

    match_id: str = Field(max_length=120)
    seats: list[str] = Field(max_length=4)
    updated: float = Field(description="Unix time of the last move written.")
    delay_moves: int = Field(default=0, ge=0, le=1000, description="How many moves late the tables are shown.")
    tables: list[LiveTable] = Field(max_length=8)


class LiveSink(Protocol):
    """What a table tells spectators: the hand as it stands after every move (and before the first)."""

    def moved(self, room: int | None, hand: int, state: HandState | BiddingHand, points: tuple[float, float],
              moves: int) -> None: ...


def secretless_view(state: HandState) -> Observation:
    """The view of a seat that holds no secret: not the face-down trump's holder, not the player
    whose discards lie face down (both are ``first_player``'s, so seat 0 unless it is that one)."""
    holder = state.first_player
    return observe(state, 1 if holder == 0 else 0)


def public_table(room: int | None, hand: int, state: HandState | BiddingHand, points: tuple[float, float],
                 moves: int) -> LiveTable:
    """The public state of a table, from a secretless view's public fields only. A bidding game's
    table shows the hand and the score only (its view is left for later)."""
    if isinstance(state, BiddingHand):
        return LiveTable(room=room, game="bidding", hand=hand, moves=moves, dealer=state.dealer,
                         match_points=points)
    view = secretless_view(state)
    return LiveTable(
        room=room, hand=hand, moves=moves, dealer=view.dealer, to_move=view.to_move,
        decision=view.decision.value if view.decision else None,
        trump=str(view.trump_in_force) if view.trump_in_force is not None else None,
        tricks=[LiveTrick(number=trick.number, winner=trick.winner,
                          plays=[LivePlay(seat=seat, card=None if card is None else str(card))
                                 for seat, card in zip(trick.seats, trick.cards, strict=True)])
                for trick in view.tricks],
        current_trick=[LivePlay(seat=seat, card=None if card is None else str(card))
                       for seat, card in view.current_trick],
        hand_sizes=list(view.hand_sizes), tricks_won=view.tricks_won, match_points=points,
    )


TableView = Callable[[int | None, int, HandState | BiddingHand, tuple[float, float], int], BaseModel]
"""How a table's state becomes what is written (``public_table``; a test swaps in a leaky one)."""


class LiveBoard:
    """The live file of one match: every table's latest public state, rewritten atomically after
    each move. All tables of a match share one event loop, so the board needs no lock."""

    def __init__(self, path: Path, match_id: str, seats: Sequence[str], view: TableView = public_table) -> None:
        self.path = path
        self.match_id = match_id
        self.seats = list(seats)
        self.view = view
        self.delay_moves = 0
        """How many moves late the tables are shown (set by ``delayed_live.DelayedBoard``), written in the file."""
        self._tables: dict[int | None, BaseModel] = {}

    def moved(self, room: int | None, hand: int, state: HandState | BiddingHand, points: tuple[float, float],
              moves: int) -> None:
        self.show(room, self.view(room, hand, state, points, moves))

    def show(self, room: int | None, table: BaseModel) -> None:
        """Write ``table`` as ``room``'s public state (a state made earlier: ``delayed_live``)."""
        self._tables[room] = table
        self._write()

    def _write(self) -> None:
        tables = [self._tables[room].model_dump(mode="json") for room in sorted(self._tables, key=lambda r: r or 0)]
        text = LiveStateText(match_id=self.match_id, seats=self.seats, updated=time.time(),
                             delay_moves=self.delay_moves, tables=tables)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(prefix=".live-", suffix=".tmp", dir=self.path.parent)
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                out.write(text.model_dump_json())
            os.replace(temporary, self.path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise

    def close(self) -> None:
        """The match is over (its record ends): spectators are sent to the replay."""
        self.path.unlink(missing_ok=True)


class LiveStateText(_Model):
    """A live file as written: the tables as the board's view made them (``LiveState`` reads it back)."""

    match_id: str
    seats: list[str]
    updated: float
    delay_moves: int
    tables: list[dict[str, object]]


def live_path(records: Path, match_id: str) -> Path:
    return records / f"{match_id}{LIVE_SUFFIX}"
