"""The lines of a match record as models: what the recorder writes and what readers check.

A match record is JSON Lines, one object per line with a ``type``: ``match_start``, ``hand``
and ``match_end`` (``docs/match-record.schema.json`` is generated from ``MATCH_RECORD_LINE``).
Each line carries ``schema_version`` (read as 1 where it is missing: records written before it
existed). The fields that ``dehla replay`` needs are required; every other field is always
written but optional on input, so every record an older reader accepted still loads.
Statuses are the referee's string values (``done``, ``void``); fault kinds and the fault
policy are the contract's enums, stored as their values.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, field_validator

from arena.contract.faults import FaultKind, FaultPolicy
from arena.contract.status import OutcomeStatus
from arena.contract.time_control import MoveRelease, TimeControl
from arena.engine.errors import RecordError
from arena.engine.hand_records import readable_version, validation_message

MATCH_RECORD_SCHEMA_VERSION = 1
"""The match record's schema version; the rule for raising it is in ``docs/hand-record.md``."""


class _Part(BaseModel):
    model_config = ConfigDict(frozen=True, extra="ignore")


class _Line(_Part):
    schema_version: int = Field(default=MATCH_RECORD_SCHEMA_VERSION, ge=1,
                                description="Missing in records written before it existed; read as 1.")

    @field_validator("schema_version")
    @classmethod
    def _readable(cls, value: int) -> int:
        return readable_version(value, MATCH_RECORD_SCHEMA_VERSION, "this referee reads match records")


class RecordedTimeControl(BaseModel):
    """The match's clock settings (seconds), as recorded (the contract's ``TimeControl``)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    per_move: float = Field(1.0, gt=0, description="limit for each decision before the bank is used")
    bank: float = Field(30.0, ge=0, description="extra time for the whole match")
    grace: float = Field(0.05, ge=0, description="transport slack added to the gRPC deadline only")
    startup: float = Field(10.0, gt=0, description="budget to start and answer StartMatch")
    release: MoveRelease = Field(MoveRelease.ON_REPLY,
                                 description="when the referee released each move to the table: on-reply (as "
                                             "soon as it came) or slot-end (at the end of the mover's per-move "
                                             "slot, or of its whole allowance); missing in older records, "
                                             "which were all on-reply")

    @classmethod
    def of(cls, control: TimeControl) -> RecordedTimeControl:
        """Field for field (a field the contract gains and the record lacks is refused here)."""
        return cls.model_validate(asdict(control))


class MatchStartLine(_Line):
    """Who plays what: the match id, seed, rules, format, time control, policy and seat names."""

    type: Literal["match_start"] = "match_start"
    match_id: str
    seed: int
    preset: str
    rules: dict[str, Any] | None = None
    format: str
    time_control: RecordedTimeControl | None = None
    seat_time_controls: list[RecordedTimeControl] | None = Field(
        None, min_length=4, max_length=4,
        description="Each seat's own clock, seats 0 to 3, in a match whose seats had different ones (a "
                    "person's table: the person's generous clock, the bots' the ladder's); only per_move "
                    "and bank differ from time_control. Missing: every seat played on time_control "
                    "(written only when they differ, so other records are as before)")
    policy: FaultPolicy | None = None
    seats: list[str]

    def time_control_of(self, seat: int) -> RecordedTimeControl | None:
        """The clock ``seat`` played on: its own where the record has one, else the match's."""
        if self.seat_time_controls is None:
            return self.time_control
        return self.seat_time_controls[seat]


class DecisionEntry(_Part):
    """One decision of a hand: its request id, the action, its time, the bank left and any fault."""

    seat: int
    request_id: str | None = None
    decision: str | None = None
    legal: int | None = None
    action: str
    ms: float
    bank_left: float | None = None
    fault: FaultKind | None = None
    substituted: bool | None = None


class HandLine(_Line):
    """One hand: its index (from 0), whether it finished, its hand record, every decision and its room."""

    type: Literal["hand"] = "hand"
    index: int
    complete: bool | None = None
    record: dict[str, Any] = Field(description="A hand record (hand-record.schema.json), replayed when read.")
    decisions: list[DecisionEntry]
    room: Literal[0, 1] | None = Field(None, description="Which room's bots played the hand in a duplicate match "
                                                        "played in two rooms (0: every deal's first play, hand 2N; "
                                                        "1: its second, 2N + 1); null or missing: the match had one "
                                                        "room (other formats, and records written before rooms)")


class FaultEntry(_Part):
    """One fault as the record keeps it; ``hand`` counts from 1 here, as in the protocol."""

    seat: int
    bot: str | None = None
    kind: FaultKind
    detail: str
    hand: int | None = None
    decision: int | None = None
    request_id: str | None = None
    evidence: str | None = None


class MatchEndLine(_Line):
    """The outcome: status (``done`` or ``void``), winner, score, faults and substitutions."""

    type: Literal["match_end"] = "match_end"
    match_id: str | None = None
    status: OutcomeStatus
    winner_team: int | None
    score: list[float]
    hands_played: int | None = None
    hand_values: list[float] | None = None
    deal_scores: list[float] | None = None
    faults: list[FaultEntry]
    forfeit_team: int | None = None
    substitutions: list[int] | None = None
    void_reason: str | None = None


AnyLine = MatchStartLine | HandLine | MatchEndLine
MATCH_RECORD_LINE: TypeAdapter[AnyLine] = TypeAdapter(Annotated[AnyLine, Field(discriminator="type")])
"""One line of a match record, told apart by ``type``; ``tools/gen_schemas.py`` publishes its schema."""
LINE_MODELS: dict[str, type[MatchStartLine] | type[HandLine] | type[MatchEndLine]] = {
    "match_start": MatchStartLine, "hand": HandLine, "match_end": MatchEndLine,
}
"""The line types a reader checks; lines of other types are skipped."""


def read_line(line: dict[str, Any], where: str) -> AnyLine | None:
    """``line`` as its model (``None`` for a type no reader knows); a bad one is a ``RecordError``."""
    model = LINE_MODELS.get(str(line.get("type")))
    if model is None:
        return None
    try:
        return model.model_validate(line)
    except ValidationError as exc:
        problem = validation_message(exc.errors()[0], bracket_indexes=False)
        raise RecordError(f"{where}: {line['type']} line: {problem}") from None


def written(model: type[_Part], data: dict[str, Any]) -> dict[str, Any]:
    """``data`` as the model writes it; a key the model lacks, or a field ``data`` lacks, is a bug."""
    extra = set(data) - set(model.model_fields)
    missing = {name for name in model.model_fields if name not in data} - {"type", "schema_version"}
    if extra or missing:
        raise TypeError(f"{model.__name__} and the data written disagree: extra {sorted(extra)}, "
                        f"missing {sorted(missing)}")
    return model.model_validate(data).model_dump(mode="json")
