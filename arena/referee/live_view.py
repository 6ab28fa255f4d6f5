"""A running match's public table, published as it is played (a few times a second at most) to a
small file beside its record, for spectators (``dehla serve``'s live page).

What is published is built from the engine's view of a seat that holds no secret
(``observe`` of a seat that is neither the face-down trump's holder nor the player whose
discards lie face down: the replay's ``none`` perspective), and from that view's public fields
only: the tricks so far, the trick in progress, trump once it is in force for everyone, trick
counts, hand sizes, whose turn it is and the match score. A hand, a legal action, the face-down
trump and a face-down card are never read, so they cannot be written (``tests/referee/
test_live_view.py`` plays a match and looks for every card still held in every state written).

The file is written at most every ``WRITE_INTERVAL`` seconds (a move within it is written when it
is over, by the next move or a timer while the table waits for a seat), so a fast match does not
pay a write per move. The file (``MATCH.live.json``) is replaced atomically (a temporary file in
the same folder, then ``os.replace``): a reader sees the previous state or the next, never half of one. The
match's runner removes it when the match ends, after the record's ``match_end`` line is
written, so a reader that finds no live file and a finished record shows the replay.

While the match runs the board rewrites the file at least every ``HEARTBEAT_INTERVAL`` seconds,
moves or not (a bot thinking, a person), so a file not rewritten for ``STALE_AFTER`` seconds
belongs to a referee that died without removing it (``SIGKILL``): readers show it as abandoned,
not live. Where the file goes is the board's ``LiveOutlet``: a file (``AtomicLiveFile``), or a
channel to the machine that writes it (a Dask worker's, ``ladder.execution.live_relay``).
"""

from __future__ import annotations

import asyncio
import math
import os
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Protocol

from pydantic import BaseModel, ConfigDict, Field

from arena.engine.bidding_hand import BiddingHand
from arena.engine.bidding_observation import BiddingObservation, observe_bidding
from arena.engine.hand import HandState
from arena.engine.observation import Observation, observe
from arena.engine.outcome import Trick

LIVE_SUFFIX = ".live.json"
"""A live file's name is the match id and this: never a ``.jsonl`` record's name."""

MAX_LIVE_BYTES = 64 * 1024
"""A reader's cap on a live file (a state is a few KB; anything bigger is not one)."""

HEARTBEAT_INTERVAL = 2.0
"""Seconds between two writes of a live file at most while its match runs, moves or not."""

STALE_AFTER = 15.0
"""A live file whose state is older than this (``LiveState.updated``, seven heartbeats) is one its
referee left behind: the match is abandoned, not live (a referee's event loop is never blocked
that long: its waits for bots are awaits)."""


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class LivePlay(_Model):
    seat: int = Field(ge=0, le=3)
    card: str | None = Field(default=None, max_length=3, description="None: played face down.")


class LiveTrick(_Model):
    number: int = Field(ge=0, le=13)
    plays: list[LivePlay] = Field(max_length=4)
    winner: int = Field(ge=0, le=3)


class LiveCall(_Model):
    """One call of a bidding game's auction (``bid 16`` or ``pass``): bids are public."""

    seat: int = Field(ge=0, le=3)
    call: str = Field(max_length=8)


class LiveContract(_Model):
    seat: int = Field(ge=0, le=3)
    bid: int = Field(ge=0, le=64)


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
    calls: list[LiveCall] = Field(default_factory=list, max_length=256,
                                  description="A bidding game's auction so far.")
    contract: LiveContract | None = Field(default=None, description="A bidding game's contract, after the auction.")
    trump_face_down: bool = Field(default=False, description="A bidding game's trump is set, face down, unexposed.")
    card_points: tuple[int, int] = Field((0, 0), description="A bidding game's card points taken so far.")


class LiveState(_Model):
    """The whole live file."""

    match_id: str = Field(max_length=120)
    seats: list[str] = Field(max_length=4)
    updated: float = Field(ge=0, le=2**33, allow_inf_nan=False,
                           description="Unix time of the last write (a move, or the heartbeat).")
    delay_moves: int = Field(default=0, ge=0, le=1000, description="How many moves late the tables are shown.")
    tables: list[LiveTable] = Field(max_length=8)


def is_stale(state: LiveState, now: float) -> bool:
    """Whether ``state``'s writer stopped beating: its referee is gone (killed) or hung."""
    return now - state.updated > STALE_AFTER


class LiveOutlet(Protocol):
    """Where a board's states go: ``publish`` each whole state (a ``LiveStateText`` as JSON),
    ``withdraw`` at the match's end (spectators are sent to the replay)."""

    def publish(self, text: str) -> None: ...

    def withdraw(self) -> None: ...


class AtomicLiveFile:
    """A live file replaced atomically (a temporary file in its folder, then ``os.replace``)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def publish(self, text: str) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(prefix=".live-", suffix=".tmp", dir=self.path.parent)
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                out.write(text)
            os.replace(temporary, self.path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise

    def withdraw(self) -> None:
        self.path.unlink(missing_ok=True)


class LiveSink(Protocol):
    """What a table tells spectators: the hand as it stands after every move (and before the first)."""

    def moved(self, room: int | None, hand: int, state: HandState | BiddingHand, points: tuple[float, float],
              moves: int) -> None: ...


def secretless_view(state: HandState) -> Observation:
    """The view of a seat that holds no secret: not the face-down trump's holder, not the player
    whose discards lie face down (both are ``first_player``'s, so seat 0 unless it is that one)."""
    holder = state.first_player
    return observe(state, 1 if holder == 0 else 0)


def secretless_bidding_view(state: BiddingHand) -> BiddingObservation:
    """A bidding game's view of a seat that is not the bidder (the only seat that may know the
    face-down trump before it is exposed): seat 0 unless it is the bidder."""
    bidder = state.contract.bidder if state.contract is not None else None
    return observe_bidding(state, 1 if bidder == 0 else 0)


def public_bidding_table(room: int | None, hand: int, state: BiddingHand, points: tuple[float, float],
                         moves: int) -> LiveTable:
    """A bidding game's public table: the auction's calls, the contract, whether the trump lies
    face down and its suit once exposed, the tricks and the card points, from a non-bidder's view
    (never its hand, its legal actions or the face-down card)."""
    view = secretless_bidding_view(state)
    return LiveTable(
        room=room, game="bidding", hand=hand, moves=moves, dealer=view.dealer, to_move=view.to_move,
        decision=view.decision.value if view.decision else None,
        trump=str(view.trump) if view.trump is not None else None,
        tricks=_tricks(view.tricks),
        current_trick=[LivePlay(seat=seat, card=str(card)) for seat, card in view.current_trick],
        hand_sizes=list(view.hand_sizes), tricks_won=view.tricks_won, match_points=points,
        calls=[LiveCall(seat=seat, call=str(call)) for seat, call in view.calls],
        contract=None if view.contract is None else LiveContract(seat=view.contract.bidder, bid=view.contract.bid),
        trump_face_down=view.hidden_trump_holder is not None, card_points=view.points,
    )


def public_table(room: int | None, hand: int, state: HandState | BiddingHand, points: tuple[float, float],
                 moves: int) -> LiveTable:
    """The public state of a table, from a secretless view's public fields only."""
    if isinstance(state, BiddingHand):
        return public_bidding_table(room, hand, state, points, moves)
    view = secretless_view(state)
    return LiveTable(
        room=room, hand=hand, moves=moves, dealer=view.dealer, to_move=view.to_move,
        decision=view.decision.value if view.decision else None,
        trump=str(view.trump_in_force) if view.trump_in_force is not None else None,
        tricks=_tricks(view.tricks),
        current_trick=[LivePlay(seat=seat, card=None if card is None else str(card))
                       for seat, card in view.current_trick],
        hand_sizes=list(view.hand_sizes), tricks_won=view.tricks_won, match_points=points,
    )


def _tricks(tricks: Sequence[Trick]) -> list[LiveTrick]:
    """Finished tricks as shown: a card played face down (and not yet turned up for this view) as ``None``."""
    return [LiveTrick(number=trick.number, winner=trick.winner,
                      plays=[LivePlay(seat=seat, card=None if card is None else str(card))
                             for seat, card in zip(trick.seats, trick.cards, strict=True)])
            for trick in tricks]


TableView = Callable[[int | None, int, HandState | BiddingHand, tuple[float, float], int], BaseModel]
"""How a table's state becomes what is written (``public_table``; a test swaps in a leaky one)."""


WRITE_INTERVAL = 0.25
"""Seconds between two writes of a live file at most (4 a second): a spectator polls every 500 ms,
and a write costs 0.3-1.8 ms, which a fast on-reply match would pay at every move
(``bench/live_view.py``, docs/performance.md)."""


class LiveBoard:
    """The live file of one match: every table's latest public state, written atomically at most
    once every ``min_interval`` seconds. A move within the interval of the last write is kept and
    written when the interval is over: by the next move after it, or by a timer on the table's
    event loop, which fires while the table waits for a seat (a slow bot, a person), so the file is
    never older than the interval while the table idles. All tables of a match share one event
    loop, so the board needs no lock. ``min_interval=0`` writes every move (the leak tests).
    Once written, the state is written again every ``heartbeat`` seconds without a move (by a
    timer on the same loop), so that readers can tell a running match from one whose referee died.
    ``path`` is the live file; ``outlet`` replaces it (a worker's channel to the coordinator)."""

    def __init__(self, path: Path | None, match_id: str, seats: Sequence[str], view: TableView = public_table,
                 min_interval: float = WRITE_INTERVAL, clock: Callable[[], float] = time.monotonic,
                 outlet: LiveOutlet | None = None, heartbeat: float = HEARTBEAT_INTERVAL) -> None:
        if outlet is None:
            if path is None:
                raise ValueError("a live board needs a path or an outlet")
            outlet = AtomicLiveFile(path)
        self.path = path
        self.outlet = outlet
        self.heartbeat = heartbeat
        self.match_id = match_id
        self.seats = list(seats)
        self.view = view
        self.min_interval = min_interval
        self.clock = clock
        self.delay_moves = 0
        """How many moves late the tables are shown (set by ``delayed_live.DelayedBoard``), written in the file."""
        self.writes = 0
        """Files written so far (the benchmark's and the tests' count)."""
        self._tables: dict[int | None, BaseModel] = {}
        self._held: dict[int | None, tuple[int, HandState | BiddingHand, tuple[float, float], int]] = {}
        """Each room's newest state not yet made public (``moved``): made public when written."""
        self._last_write = -math.inf
        self._pending = False
        self._timer: asyncio.TimerHandle | None = None
        self._beat: asyncio.TimerHandle | None = None
        self._closed = False

    def moved(self, room: int | None, hand: int, state: HandState | BiddingHand, points: tuple[float, float],
              moves: int) -> None:
        """The table's state after a move: made public (``view``) only when it is written, so a move
        within the interval costs nothing. The table tells its sink of every move before it awaits
        anything (``Table.play_hand``), so the state held is the table's own until the next call,
        and the timer, which runs only while the table awaits, makes public the state it was told of."""
        if self._closed:
            return
        self._held[room] = (hand, state, points, moves)
        self._due()

    def show(self, room: int | None, table: BaseModel) -> None:
        """Show ``table`` as ``room``'s public state (a state made earlier: ``delayed_live``): written
        now if the last write is ``min_interval`` old, otherwise when the interval is over."""
        if self._closed:
            return
        self._held.pop(room, None)
        self._tables[room] = table
        self._due()

    def _due(self) -> None:
        """Write now if the interval since the last write is over, else once it is."""
        wait = self._last_write + self.min_interval - self.clock()
        if wait <= 0:
            self._write()
            return
        self._pending = True
        if self._timer is None:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:
                return  # no event loop (a test driving the board by hand): the next move or ``flush`` writes it
            self._timer = loop.call_later(wait, self._on_timer)

    def flush(self) -> None:
        """Write the newest state now if it is not written yet."""
        if self._pending and not self._closed:
            self._write()

    def _on_timer(self) -> None:
        self._timer = None
        self.flush()

    def _write(self) -> None:
        self._pending = False
        self._last_write = self.clock()
        self.writes += 1
        for room, (hand, state, points, moves) in self._held.items():
            self._tables[room] = self.view(room, hand, state, points, moves)
        self._held.clear()
        tables = [self._tables[room].model_dump(mode="json") for room in sorted(self._tables, key=lambda r: r or 0)]
        text = LiveStateText(match_id=self.match_id, seats=self.seats, updated=time.time(),
                             delay_moves=self.delay_moves, tables=tables)
        self.outlet.publish(text.model_dump_json())
        if self._beat is None:
            self._arm_heartbeat(self.heartbeat)

    def _arm_heartbeat(self, wait: float) -> None:
        """Call ``_on_heartbeat`` in ``wait`` seconds on the table's loop (none without a loop)."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        self._beat = loop.call_later(wait, self._on_heartbeat)

    def _on_heartbeat(self) -> None:
        """Write the state again if nothing was written for ``heartbeat`` seconds (its ``updated``
        says the referee is alive), else wait for the rest of the heartbeat."""
        self._beat = None
        if self._closed:
            return
        since = self.clock() - self._last_write
        if since >= self.heartbeat:
            self._write()
        else:
            self._arm_heartbeat(self.heartbeat - since)

    def close(self) -> None:
        """The match is over (its record ends): spectators are sent to the replay. A state not yet
        written is dropped and the timer cancelled, so nothing writes the file again."""
        self._closed = True
        self._pending = False
        self._held.clear()
        for timer in (self._timer, self._beat):
            if timer is not None:
                timer.cancel()
        self._timer = self._beat = None
        self.outlet.withdraw()


class LiveStateText(_Model):
    """A live file as written: the tables as the board's view made them (``LiveState`` reads it back)."""

    match_id: str
    seats: list[str]
    updated: float
    delay_moves: int
    tables: list[dict[str, object]]


def live_path(records: Path, match_id: str) -> Path:
    return records / f"{match_id}{LIVE_SUFFIX}"
