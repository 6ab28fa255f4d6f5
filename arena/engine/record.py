"""The JSON hand record: enough to replay a hand exactly, and nothing that needs trusting.

Format (``docs/hand-record.md`` documents every field)::

    {"format": "dehla-hand-record", "version": 1,
     "rules": {...every option...}, "dealer": 0,
     "deal": {"hands": [["AS", ...13 cards in deal order], ...4 seats], "chance": 7},
     "actions": [{"seat": 1, "action": "call S"}, {"seat": 1, "action": "play AS"}, ...],
     "result": {...}}

``result`` is written for readers; on replay it is checked, never trusted.
"""

from __future__ import annotations

import json
from typing import Any

from arena.engine.actions import parse_action
from arena.engine.deal import Deal
from arena.engine.errors import ArenaError, RecordError
from arena.engine.hand import HandState
from arena.engine.outcome import HandResult
from arena.engine.rules import make_rules

RECORD_FORMAT = "dehla-hand-record"
RECORD_VERSION = 1


def hand_record(state: HandState) -> dict[str, Any]:
    """The record of a hand so far (complete once the hand is over)."""
    if state.deal is None:
        raise RecordError("a resampled (imagined) hand has no deal and cannot be recorded")
    return {
        "format": RECORD_FORMAT,
        "version": RECORD_VERSION,
        "rules": state.rules.options(),
        "dealer": state.dealer,
        "deal": state.deal.to_json(),
        "actions": [{"seat": seat, "action": str(action)} for seat, action in state.history],
        "result": state.result.to_json() if state.result else None,
    }


def replay_record(data: Any, *, require_complete: bool = True) -> HandState:
    """Rebuild the hand from a record, checking every field and action on the way."""
    if not isinstance(data, dict):
        raise RecordError("record: expected a JSON object")
    for field in ("rules", "dealer", "deal", "actions"):
        if field not in data:
            raise RecordError(f"record: missing field {field!r}")
    if data.get("format", RECORD_FORMAT) != RECORD_FORMAT:
        raise RecordError(f"format: expected {RECORD_FORMAT!r}, got {data['format']!r}")
    if data.get("version", RECORD_VERSION) != RECORD_VERSION:
        raise RecordError(f"version: this engine reads version {RECORD_VERSION}, got {data['version']!r}")
    if not isinstance(data["rules"], dict):
        raise RecordError("rules: expected an object of options")
    try:
        rules = make_rules(data["rules"], context="rules")
    except ArenaError as exc:
        raise RecordError(str(exc)) from None
    dealer = data["dealer"]
    if not isinstance(dealer, int) or isinstance(dealer, bool) or dealer not in range(4):
        raise RecordError(f"dealer: expected a seat 0..3, got {dealer!r}")
    deal_data = data["deal"]
    if not isinstance(deal_data, dict) or "hands" not in deal_data:
        raise RecordError("deal: expected an object with 'hands'")
    chance = deal_data.get("chance", 0)
    if not isinstance(chance, int) or isinstance(chance, bool):
        raise RecordError(f"deal.chance: expected an integer, got {chance!r}")
    try:
        deal = Deal.from_text(rules, deal_data["hands"], chance)
    except ArenaError as exc:
        raise RecordError(str(exc)) from None
    state = HandState(rules, deal, dealer)
    actions = data["actions"]
    if not isinstance(actions, list):
        raise RecordError("actions: expected a list")
    for index, entry in enumerate(actions):
        _apply_entry(state, index, entry)
    if require_complete and not state.is_over:
        raise RecordError(
            f"actions: the hand is not finished after {len(actions)} actions "
            f"(seat {state.to_move} is to {state.decision})"
        )
    recorded = data.get("result")
    if recorded is not None and state.result is not None:
        _check_result(recorded, state.result)
    return state


def _apply_entry(state: HandState, index: int, entry: Any) -> None:
    where = f"actions[{index}]"
    if not isinstance(entry, dict) or "action" not in entry or "seat" not in entry:
        raise RecordError(f"{where}: expected an object with 'seat' and 'action'")
    seat, text = entry["seat"], entry["action"]
    try:
        action = parse_action(text)
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


def _check_result(recorded: Any, actual: HandResult) -> None:
    expected = actual.to_json()
    if not isinstance(recorded, dict):
        raise RecordError("result: expected an object")
    for key, value in recorded.items():
        if key in expected and expected[key] != value:
            raise RecordError(
                f"result.{key}: the record says {value!r} but the replay gives {expected[key]!r}"
            )


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
