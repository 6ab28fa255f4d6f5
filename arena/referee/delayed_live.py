"""A live board that shows spectators a table as it was some moves ago: the table of a person
(``ladder.web.seats``), whose spectators should not follow the play as it happens.

The delay is counted in moves, not seconds: a person's table moves at the person's pace (a
minute a move, or a tenth of a second), so a delay in seconds would either show the trick in
progress while the person thinks or hold the table still for a long while after a fast run of
moves; and the board is told of moves only, so it needs no timer. What a spectator sees is the
newest state after which at least ``moves`` moves have been made (``SPECTATOR_DELAY_MOVES``: a
trick's four plays; of a hand's end and the next deal, which no move separates, the hand's end,
so its last trick is seen whole), so the trick being played now and the last moves are never shown until that
many more have been made. Nothing is shown before then (the page waits), and the end of the match
is never shown live: ``close`` removes the file when the record ends, so the page turns into the
replay, which has the final state.

Each state is made public (``LiveBoard.view``) at the move it belongs to, and only the public
state is kept until it is shown: the engine's state changes with every move and is never kept.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from pydantic import BaseModel

from arena.engine.bidding_hand import BiddingHand
from arena.engine.hand import HandState
from arena.referee.live_view import LiveBoard

SPECTATOR_DELAY_MOVES = 4
"""Moves a spectator of a person's table is behind: one trick's plays."""


@dataclass(frozen=True, slots=True)
class _Held:
    """A public state not yet shown, and how many moves the room had made when it was taken."""

    made: int
    table: BaseModel


@dataclass(slots=True)
class _Room:
    hand: int
    moves: int
    made: int
    """Moves made at this room's table since the match began (every hand's)."""
    held: deque[_Held]


class DelayedBoard:
    """A ``LiveSink`` that passes each room's public state to ``board`` once ``moves`` more moves
    have been made at that room's table (and has the board's file say so: ``delay_moves``)."""

    def __init__(self, board: LiveBoard, moves: int = SPECTATOR_DELAY_MOVES) -> None:
        if moves < 1:
            raise ValueError(f"a delay of {moves} moves: at least 1 (an undelayed table uses LiveBoard)")
        self.board = board
        self.moves = moves
        board.delay_moves = moves
        self._rooms: dict[int | None, _Room] = {}

    def moved(self, room: int | None, hand: int, state: HandState | BiddingHand, points: tuple[float, float],
              moves: int) -> None:
        table = self.board.view(room, hand, state, points, moves)
        now = self._rooms.get(room)
        if now is None:
            now = self._rooms[room] = _Room(hand, moves, moves, deque())
        else:
            now.made += moves - now.moves if hand == now.hand else moves
            now.hand, now.moves = hand, moves
        now.held.append(_Held(now.made, table))
        ripe: _Held | None = None
        while now.held and now.held[0].made <= now.made - self.moves:
            held = now.held.popleft()
            if ripe is None or held.made > ripe.made:
                ripe = held  # of two states between the same moves, the earlier: a hand's end, not the next deal
        if ripe is not None:
            self.board.show(room, ripe.table)

    def flush(self) -> None:
        """Write the state due now if the board holds it back (its writes are limited: ``LiveBoard``)."""
        self.board.flush()

    def close(self) -> None:
        """The match is over: the states still held are dropped and spectators sent to the replay."""
        self._rooms.clear()
        self.board.close()
