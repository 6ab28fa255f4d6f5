"""Seats, teams and the order of play around the table.

Seats are 0..3; partners sit opposite, so seats 0 and 2 are team 0 and seats 1 and 3 team 1.
"""

from __future__ import annotations

from typing import TypeAlias

from arena.engine.rules import Direction

Seat: TypeAlias = int
Team: TypeAlias = int

SEATS: tuple[Seat, ...] = (0, 1, 2, 3)
NEXT_CLOCKWISE: tuple[Seat, ...] = (1, 2, 3, 0)
NEXT_ANTICLOCKWISE: tuple[Seat, ...] = (3, 0, 1, 2)


def team_of(seat: Seat) -> Team:
    return seat & 1


def partner_of(seat: Seat) -> Seat:
    return seat ^ 2


def next_seats(direction: Direction) -> tuple[Seat, ...]:
    """``next_seats(d)[s]`` is the player after ``s`` in play direction ``d``."""
    return NEXT_CLOCKWISE if direction is Direction.CLOCKWISE else NEXT_ANTICLOCKWISE


def play_order(start: Seat, direction: Direction) -> tuple[Seat, ...]:
    nxt = next_seats(direction)
    order = [start]
    while len(order) < 4:
        order.append(nxt[order[-1]])
    return tuple(order)


def play_orders(direction: Direction) -> tuple[tuple[Seat, ...], ...]:
    """``play_orders(d)[leader]``: the four seats of a trick in play order."""
    return _ORDERS[direction]


_ORDERS = {d: tuple(play_order(s, d) for s in SEATS) for d in Direction}
