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

from pydantic import BaseModel, ConfigDict, ValidationError
from rich.console import Console
from rich.text import Text

from arena.console.text import plain
from arena.engine.errors import RecordError
from arena.engine.record import replay_record


class _Line(BaseModel):
    model_config = ConfigDict(frozen=True, extra="ignore")


class StartLine(_Line):
    match_id: str
    preset: str
    format: str
    seed: int
    seats: list[str]


class DecisionLine(_Line):
    seat: int
    action: str
    ms: float
    fault: str | None = None


class HandLine(_Line):
    index: int
    record: dict[str, Any]
    decisions: list[DecisionLine]


class FaultLine(_Line):
    seat: int
    kind: str
    detail: str


class EndLine(_Line):
    status: str
    winner_team: int | None
    score: list[float]
    faults: list[FaultLine]


LINE_MODELS: dict[str, type[_Line]] = {"match_start": StartLine, "hand": HandLine, "match_end": EndLine}
"""The line types that ``dehla replay`` prints; lines of other types are skipped."""


def checked_lines(path: Path, lines: Iterable[dict[str, Any]]) -> list[_Line]:
    """The record's lines as models; the first bad one is a ``RecordError`` (``PATH:N: field: problem``)."""
    checked: list[_Line] = []
    for number, line in enumerate(lines, start=1):
        model = LINE_MODELS.get(str(line["type"]))
        if model is None:
            continue
        try:
            item = model.model_validate(line)
        except ValidationError as exc:
            err = exc.errors()[0]
            where = ".".join(str(p) for p in err["loc"]) or "(line)"
            problem = "missing" if err["type"] == "missing" else str(err["msg"])
            raise RecordError(f"{path}:{number}: {line['type']} line: {where}: {problem}") from None
        if isinstance(item, HandLine):
            try:
                replay_record(item.record, require_complete=False)
            except RecordError as exc:
                raise RecordError(f"{path}:{number}: hand {item.index + 1}: {exc}") from None
        checked.append(item)
    return checked


def print_replay(console: Console, lines: Iterable[_Line]) -> None:
    for line in lines:
        if isinstance(line, StartLine):
            seats = ", ".join(f"{seat}={name}" for seat, name in enumerate(line.seats))
            console.print(Text.assemble(plain(line.match_id, "bold"),
                                        plain(f" {line.preset} {line.format} seed {line.seed}; seats: {seats}")))
        elif isinstance(line, HandLine):
            _print_hand(console, line)
        elif isinstance(line, EndLine):
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

