"""``dehla replay``'s view of a match record: every line checked before it is printed.

A record is untrusted (anyone can hand one over): a line missing a field or holding the wrong
type is a ``RecordError`` naming the line and the field, each hand is replayed by the engine
(its cards and result are printed from the replay, not from the file), and every text from
the file is printed literally (``arena.console.text``).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.text import Text

from arena.console.text import plain
from arena.engine.errors import RecordError
from arena.engine.hand_records import replay_record
from arena.referee.match_record_lines import AnyLine, HandLine, MatchEndLine, MatchStartLine, read_line


def checked_lines(path: Path, lines: Iterable[dict[str, Any]]) -> list[AnyLine]:
    """The record's lines as models; the first bad one is a ``RecordError`` (``PATH:N: field: problem``)."""
    checked: list[AnyLine] = []
    for number, line in enumerate(lines, start=1):
        item = read_line(line, f"{path}:{number}")
        if item is None:
            continue
        if isinstance(item, HandLine):
            try:
                replay_record(item.record, require_complete=False)
            except RecordError as exc:
                raise RecordError(f"{path}:{number}: hand {item.index + 1}: {exc}") from None
        checked.append(item)
    return checked


def print_replay(console: Console, lines: Iterable[AnyLine]) -> None:
    for line in lines:
        if isinstance(line, MatchStartLine):
            seats = ", ".join(f"{seat}={name}" for seat, name in enumerate(line.seats))
            console.print(Text.assemble(plain(line.match_id, "bold"),
                                        plain(f" {line.preset} {line.format} seed {line.seed}; seats: {seats}")))
        elif isinstance(line, HandLine):
            _print_hand(console, line)
        elif isinstance(line, MatchEndLine):
            console.print(Text.assemble(("end", "bold"), plain(f": {line.status}, winner team {line.winner_team}, "
                                                               f"score {line.score}")))
            for fault in line.faults:
                console.print(plain(f"  fault: seat {fault.seat} {fault.kind}: {fault.detail}"))


def _print_hand(console: Console, line: HandLine) -> None:
    state = replay_record(line.record, require_complete=False)
    assert state.deal is not None
    console.print()
    console.print(Text.assemble(plain(f"hand {line.index + 1}", "bold"), f" dealer {state.dealer}"))
    for seat, hand in enumerate(state.deal.hands):
        console.print(f"  seat {seat}: {' '.join(str(card) for card in hand)}", markup=False, emoji=False)
    trick: list[str] = []
    for decision in line.decisions:
        note = f" [{decision.fault}]" if decision.fault else ""
        text = f"{decision.seat}:{decision.action.removeprefix('play ')} ({decision.ms:.0f}ms){note}"
        if decision.action.startswith("play"):
            trick.append(text)
            if len(trick) == 4:
                console.print(plain("  " + "  ".join(trick)))
                trick = []
        else:
            console.print(plain(f"  {text}"))
    if trick:
        console.print(plain("  " + "  ".join(trick)))
    result = state.result
    if result is not None:
        console.print(plain(f"  result: team {result.winner} ({result.outcome.value}), tens {list(result.tens)}, "
                            f"kot {result.kot}"))

