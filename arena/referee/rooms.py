"""The two rooms of a duplicate match (``arena.referee.deal_pairs``): which room plays a hand and
what its bots' logs are called. Names only (no gRPC), so the ladder finds a room's log cheaply."""

from __future__ import annotations


def hand_room(hand: int) -> int:
    """The room whose bots play hand ``hand`` (from 0) of a duplicate match in two rooms: deal N's
    first play, hand ``2N``, is room 0's; its second, ``2N + 1``, room 1's."""
    return hand % 2


def room_tag(room: int, table: int = 0) -> str:
    """What a table's bot logs carry after the match id: nothing for room 0's first table (the
    names a one-table match has), ``tableK`` for room 0's others, ``room1`` and ``room1.tableK``
    for room 1's."""
    return ".".join(([f"room{room}"] if room else []) + ([f"table{table}"] if table else []))


def seat_log_name(match_id: str, seat: int, room: int = 0, table: int = 0) -> str:
    """The log file of the bot at ``seat`` of a room's table: ``MATCH.seatN.log``,
    ``MATCH.room1.seatN.log``, ``MATCH.room1.table2.seatN.log``, ..."""
    tag = room_tag(room, table)
    return f"{match_id}{'.' + tag if tag else ''}.seat{seat}.log"
