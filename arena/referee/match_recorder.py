"""Match records: one JSON Lines file per match, written as the match goes.

Lines, each an object with a ``type``:
- ``match_start``: match id, seed, preset, rules, format, time control, policy, seat names;
- ``hand``: index, the full hand record (replayable by ``dehla score``), every decision
  with its request id, action, time taken, remaining bank and fault, and the room that played it;
- ``match_end``: the outcome (status, winner, score, faults, substitutions).
Each line is written through its model (``arena.referee.match_record_lines``), so what is written is
what the published schema says. A match that dies midway still leaves every finished hand on disk.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from arena.console.files import read_record_text
from arena.engine.bidding_hand import BiddingHand
from arena.engine.bidding_records import bidding_hand_record
from arena.engine.errors import RecordError
from arena.engine.hand import HandState
from arena.engine.hand_records import hand_record, parse_json
from arena.referee.match_record_lines import (
    DecisionEntry,
    HandLine,
    MatchEndLine,
    MatchStartLine,
    RecordedTimeControl,
    written,
)

if TYPE_CHECKING:
    from arena.referee.table_values import DecisionLog, MatchOutcome, TableConfig


class HandRecorder(Protocol):
    """What a table tells the record as a match goes (``MatchRecorder``, or a deal-pair table's share of one)."""

    def match_start(self, config: TableConfig, seats: Sequence[str]) -> None: ...

    def hand(self, index: int, state: HandState | BiddingHand, decisions: Sequence[DecisionLog]) -> None: ...

    def match_end(self, outcome: MatchOutcome) -> None: ...


def hand_line(index: int, state: HandState | BiddingHand, decisions: Sequence[DecisionLog],
              room: int | None = None) -> dict[str, Any]:
    """A record's ``hand`` line: the hand (finished or not), every decision in it, and the room
    whose bots played it (a duplicate match's two rooms; None: the match has one)."""
    record = bidding_hand_record(state) if isinstance(state, BiddingHand) else hand_record(state)
    return written(HandLine, {
        "type": "hand", "index": index, "complete": state.is_over, "record": record,
        "decisions": [written(DecisionEntry, d.to_json()) for d in decisions], "room": room,
    })


def match_start_line(config: TableConfig, seats: Sequence[str]) -> dict[str, Any]:
    """A record's ``match_start`` line. Each seat's clock is written only where the table gave
    seats clocks of their own, so every other record stays byte for byte as it was."""
    controls = config.seat_time_controls
    line = MatchStartLine(
        match_id=config.match_id, seed=config.seed, preset=config.preset, rules=config.rules.options(),
        format=str(config.match_format), time_control=RecordedTimeControl.of(config.time_control),
        seat_time_controls=None if controls is None else [RecordedTimeControl.of(c) for c in controls],
        policy=config.policy, seats=list(seats),
    )
    return line.model_dump(mode="json", exclude=set() if controls else {"seat_time_controls"})


class MatchRecorder:
    """Appends the lines of one match record to ``path``."""

    def __init__(self, path: Path) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        self._file = path.open("w", encoding="utf-8")

    def _write(self, line: dict[str, Any]) -> None:
        self._file.write(json.dumps(line, separators=(",", ":")) + "\n")
        self._file.flush()

    def match_start(self, config: TableConfig, seats: Sequence[str]) -> None:
        self._write(match_start_line(config, seats))

    def hand(self, index: int, state: HandState | BiddingHand, decisions: Sequence[DecisionLog]) -> None:
        self._write(hand_line(index, state, decisions))

    def hand_line(self, line: dict[str, Any]) -> None:
        """Write a hand line made earlier (``hand_line``): a deal-pair match writes them in deal order."""
        self._write(line)

    def match_end(self, outcome: MatchOutcome) -> None:
        self._write(written(MatchEndLine, {"type": "match_end", **outcome.to_json()}))
        self._file.close()


def read_match_record(path: Path) -> Iterator[dict[str, Any]]:
    """The lines of a match record; a bad line is a ``RecordError`` naming its number."""
    return match_record_lines(read_record_text(path), str(path))


def match_record_lines(content: str, where: str) -> Iterator[dict[str, Any]]:
    """The lines of a match record's text (read from ``where``); a bad line is a ``RecordError``."""
    for number, text in enumerate(content.splitlines(), start=1):
        line = parse_json(text, f"{where}:{number}")
        if not isinstance(line, dict) or "type" not in line:
            raise RecordError(f"{where}:{number}: expected an object with a 'type'")
        yield line
