"""The JSON hand record: enough to replay a hand exactly, and nothing that needs trusting.

Format (``docs/hand-record.md`` documents every field, ``docs/hand-record.schema.json`` is
generated from ``HandRecord``)::

    {"format": "dehla-hand-record", "version": 1, "schema_version": 1,
     "rules": {...every option...}, "dealer": 0,
     "deal": {"hands": [["AS", ...13 cards in deal order], ...4 seats], "chance": 7},
     "actions": [{"seat": 1, "action": "call S"}, {"seat": 1, "action": "play AS"}, ...],
     "result": {...}}

A record is first validated against ``HandRecord`` (shape and types), then replayed by the
engine (the rules, the cards and every action). ``result`` is written for readers; on replay it
is checked, never trusted.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, Literal, Protocol, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator
from pydantic_core import ErrorDetails

from arena.engine.actions import parse_action
from arena.engine.deal import Deal
from arena.engine.errors import ArenaError, RecordError
from arena.engine.hand import HandState
from arena.engine.rules import make_rules

RECORD_FORMAT: Literal["dehla-hand-record"] = "dehla-hand-record"
RECORD_VERSION: Literal[1] = 1
"""The original version field, frozen at 1 for readers written before ``schema_version``."""
HAND_RECORD_SCHEMA_VERSION = 1
"""The hand record's schema version; the rule for raising it is in ``docs/hand-record.md``."""
_ActionT_contra = TypeVar("_ActionT_contra", contravariant=True)



def readable_version(value: int, newest: int, reader: str) -> int:
    """A record's ``schema_version`` if this code can read it: a newer one is refused by name
    (``reader`` says who reads what), never half-read."""
    if value > newest:
        raise ValueError(f"{reader} up to schema version {newest}, got {value}")
    return value

class _Part(BaseModel):
    """Strict (no ``"1"`` for 1, no ``true`` for a seat) and tolerant of fields it does not know."""

    model_config = ConfigDict(frozen=True, strict=True, extra="ignore")


class RecordedAction(_Part):
    """One decision: the seat that made it and the action's text (``play 10H``)."""

    seat: int
    action: str


class RecordedDeal(_Part):
    """The four hands as card texts in deal order, seat 0 first, and the hand's chance seed."""

    hands: list[list[str]]
    chance: int = 0


class RecordedResult(_Part):
    """``HandResult`` as written; every field is optional and each one given is checked on replay."""

    winner: int | None = None
    outcome: str | None = None
    tens: list[int] | None = None
    tricks_won: list[int] | None = None
    tricks_captured: list[int] | None = None
    tricks_played: int | None = None
    kot: bool | None = None
    mendikot: bool | None = None
    all_aces: bool | None = None
    points: int | None = None


class HandRecord(_Part):
    """One hand record. ``format``, ``version`` and ``schema_version`` are optional on input."""

    model_config = ConfigDict(title="Dehla hand record")

    format: Literal["dehla-hand-record"] = RECORD_FORMAT
    version: Literal[1] = RECORD_VERSION
    schema_version: int = Field(default=HAND_RECORD_SCHEMA_VERSION, ge=1,
                                description="Missing in records written before it existed; read as 1.")
    rules: dict[str, Any] = Field(description="Every option that applies, as `dehla rules` lists them.")
    dealer: int = Field(json_schema_extra={"minimum": 0, "maximum": 3})
    deal: RecordedDeal
    actions: list[RecordedAction]
    result: RecordedResult | None = None

    @field_validator("schema_version")
    @classmethod
    def _readable(cls, value: int) -> int:
        return readable_version(value, HAND_RECORD_SCHEMA_VERSION, "this engine reads hand records")

    @field_validator("dealer")
    @classmethod
    def _seat(cls, value: int) -> int:
        if value not in range(4):
            raise ValueError(f"expected a seat 0..3, got {value!r}")
        return value


def record_of(state: HandState) -> HandRecord:
    """The record of a hand so far (complete once the hand is over)."""
    if state.deal is None:
        raise RecordError("a resampled (imagined) hand has no deal and cannot be recorded")
    deal = state.deal.to_json()
    return HandRecord(
        rules=state.rules.options(),
        dealer=state.dealer,
        deal=RecordedDeal(hands=deal["hands"], chance=deal["chance"]),
        actions=[RecordedAction(seat=seat, action=str(action)) for seat, action in state.history],
        result=RecordedResult(**state.result.to_json()) if state.result else None,
    )


def hand_record(state: HandState) -> dict[str, Any]:
    """``record_of(state)`` as plain JSON data."""
    return record_of(state).model_dump(mode="json")


def read_hand_record(data: Any) -> HandRecord:
    """``data`` checked against ``HandRecord``; the first problem is a ``RecordError`` naming its field."""
    if not isinstance(data, dict):
        raise RecordError("record: expected a JSON object")
    try:
        return HandRecord.model_validate(data)
    except ValidationError as exc:
        raise RecordError(validation_message(exc.errors()[0], bracket_indexes=True)) from None


def replay_record(data: Any, *, require_complete: bool = True) -> HandState:
    """Rebuild the hand from a record, checking every field and action on the way."""
    record = read_hand_record(data)
    try:
        rules = make_rules(record.rules, context="rules")
        deal = Deal.from_text(rules, record.deal.hands, record.deal.chance)
    except ArenaError as exc:
        raise RecordError(str(exc)) from None
    state = HandState(rules, deal, record.dealer)
    for index, entry in enumerate(record.actions):
        apply_entry(state, index, entry, parse_action)
    if require_complete and not state.is_over:
        raise RecordError(
            f"actions: the hand is not finished after {len(record.actions)} actions "
            f"(seat {state.to_move} is to {state.decision})"
        )
    if record.result is not None and state.result is not None:
        check_result(record.result, state.result.to_json())
    return state


class _Replayable(Protocol[_ActionT_contra]):
    """A hand a record's actions are replayed on (a trick-taking game's or a bidding game's)."""

    @property
    def is_over(self) -> bool: ...

    @property
    def to_move(self) -> int | None: ...

    def apply(self, action: _ActionT_contra, /) -> None: ...


def apply_entry(state: _Replayable[_ActionT_contra], index: int, entry: RecordedAction,
                parse: Callable[[str], _ActionT_contra]) -> None:
    """Replay the record's action ``index`` (read by ``parse``) on ``state``; any problem is a
    ``RecordError`` naming the action."""
    where = f"actions[{index}]"
    seat, text = entry.seat, entry.action
    try:
        action = parse(text)
    except ArenaError as exc:
        raise RecordError(f"{where}: {exc}") from None
    if state.is_over:
        raise RecordError(f"{where} (seat {seat}, {text!r}): the hand is already over")
    if seat != state.to_move:
        raise RecordError(f"{where} (seat {seat}, {text!r}): seat {state.to_move} is to move")
    try:
        state.apply(action)
    except ArenaError as exc:
        raise RecordError(f"{where} (seat {seat}, {text!r}): {exc}") from None


def check_result(recorded: BaseModel, expected: dict[str, Any]) -> None:
    """Every field the record's ``result`` gives (in the model's order) against the replay's."""
    fields = list(type(recorded).model_fields)
    for key in sorted(recorded.model_fields_set, key=fields.index):
        value = getattr(recorded, key)
        if expected[key] != value:
            raise RecordError(
                f"result.{key}: the record says {value!r} but the replay gives {expected[key]!r}"
            )


def validation_message(error: ErrorDetails, *, bracket_indexes: bool) -> str:
    """One pydantic error as ``field: problem`` (``deal.hands[1][0]: ...`` or ``decisions.0.seat: ...``)."""
    loc = error["loc"]
    if error["type"] == "missing":
        if bracket_indexes:
            return f"{_path(loc[:-1], bracket_indexes) or 'record'}: missing field {str(loc[-1])!r}"
        return f"{_path(loc, bracket_indexes)}: missing"
    ctx = error.get("ctx") or {}
    if error["type"] == "value_error" and "error" in ctx:
        problem = str(ctx["error"])
    else:
        problem = error["msg"] + (f", got {_short(error['input'])}" if bracket_indexes else "")
    return f"{_path(loc, bracket_indexes) or 'record'}: {problem}"


def _path(loc: tuple[int | str, ...], bracket_indexes: bool) -> str:
    where = ""
    for part in loc:
        if isinstance(part, int) and bracket_indexes:
            where += f"[{part}]"
        else:
            where += f".{part}" if where else str(part)
    return where


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def parse_json(text: str, where: str) -> Any:
    """``text`` as JSON; malformed, too deeply nested or oversized numbers are a ``RecordError``."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"{where}: not JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") from None
    except RecursionError:
        raise RecordError(f"{where}: JSON nested too deeply") from None
    except ValueError:  # an integer beyond Python's conversion limit (4300 digits)
        raise RecordError(f"{where}: a number with too many digits") from None
