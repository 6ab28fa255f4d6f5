"""Faults: the closed set of ways a bot can fail, and what the referee does about them."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class FaultKind(StrEnum):
    """How a bot failed. Each maps from exactly one kind of evidence."""

    TIMEOUT = "timeout"
    """No reply within the per-move limit plus the remaining bank."""
    ILLEGAL_ACTION = "illegal_action"
    """A well-formed action that the rules do not allow now (incl. a card not in hand)."""
    MALFORMED_REPLY = "malformed_reply"
    """A reply that is not an action, is oversized, or echoes the wrong request id."""
    CRASH = "crash"
    """The bot's process died, closed its endpoint, raised inside its servicer or flooded its
    connection past the referee's bounds (mid-match)."""
    FAILED_START = "failed_start"
    """The bot did not become healthy and accept StartMatch within the start-up budget."""


class FaultPolicy(StrEnum):
    """``forfeit``: the faulty partnership loses the match (rated play).
    ``substitute``: the referee plays the lowest legal action, counts a strike, goes on."""

    FORFEIT = "forfeit"
    SUBSTITUTE = "substitute"


@dataclass(frozen=True, slots=True)
class Fault:
    """One recorded fault: which seat, what kind, where in the match, and the evidence.

    ``detail`` is the referee's own description, made only of what it measured (an exit code,
    a time, a size, a status name); it is what the seats are told in ``EndMatch``. ``evidence``
    is what the bot itself produced (the text of its error status, its log's tail, an id it
    echoed): it stays in the match record for the bot's author and is never sent to a seat.
    ``hand`` counts from 0 here and from 1 wherever a person or a bot reads it.
    """

    seat: int
    bot: str
    kind: FaultKind
    detail: str
    hand: int | None = None
    decision: int | None = None
    request_id: str = ""
    evidence: str = ""

    def to_json(self) -> dict[str, Any]:
        """The record's and the CLI's form: ``hand`` counts from 1, as in the protocol."""
        return {
            "seat": self.seat, "bot": self.bot, "kind": self.kind.value, "detail": self.detail,
            "hand": None if self.hand is None else self.hand + 1, "decision": self.decision,
            "request_id": self.request_id, "evidence": self.evidence,
        }


class PlatformError(RuntimeError):
    """The referee's own failure: the match is void, no bot is blamed."""
