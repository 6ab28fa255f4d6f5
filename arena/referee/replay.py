"""``dehla replay``'s view of a match record: every line checked before it is printed.

A record is untrusted (anyone can hand one over): a line missing a field or holding the wrong
type is a ``RecordError`` naming the line and the field, each hand is replayed by the engine
(its cards and result are printed from the replay, not from the file), and every text from
the file is printed literally (``arena.console.text``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console

from arena.console.errors import fail
from arena.engine.bidding_records import is_bidding_record, replay_bidding_record
from arena.engine.errors import ArenaError, RecordError
from arena.engine.hand_records import replay_record
from arena.referee.bidding_view import bidding_match_lines
from arena.referee.hand_view import ViewOptions, match_lines
from arena.referee.match_record_lines import AnyLine, HandLine, read_line
from arena.replay.frames import parse_perspective


def checked_lines(path: Path, lines: Iterable[dict[str, Any]]) -> list[AnyLine]:
    """The record's lines as models; the first bad one is a ``RecordError`` (``PATH:N: field: problem``)."""
    checked: list[AnyLine] = []
    for number, line in enumerate(lines, start=1):
        item = read_line(line, f"{path}:{number}")
        if item is None:
            continue
        if isinstance(item, HandLine):
            try:
                if is_bidding_record(item.record):
                    replay_bidding_record(item.record, require_complete=False)
                else:
                    replay_record(item.record, require_complete=False)
            except RecordError as exc:
                raise RecordError(f"{path}:{number}: hand {item.index + 1}: {exc}") from None
        checked.append(item)
    return checked


def print_replay(console: Console, lines: Sequence[AnyLine], *, hand: int | None = None,
                 seat: int | None = None) -> None:
    """The record as the hand viewer shows it (``hand_view``): all four hands, or ``seat``'s view
    only; every hand, or ``hand`` (from 1; one the record lacks is one ``error:`` line, exit 2).
    Suits are symbols unless the console cannot encode them; colour only where Rich gives it (a
    terminal, and no ``NO_COLOR``)."""
    symbols = console.encoding.lower().replace("-", "").startswith("utf")
    perspective = "all" if seat is None else parse_perspective(str(seat))
    try:
        options = ViewOptions(hand=hand, perspective=perspective, symbols=symbols)
        bidding = any(isinstance(line, HandLine) and is_bidding_record(line.record) for line in lines)
        shown = bidding_match_lines(lines, options) if bidding else match_lines(lines, options)
    except (ValueError, ArenaError) as exc:
        fail(str(exc))
    for line in shown:
        console.print(line, soft_wrap=True)
