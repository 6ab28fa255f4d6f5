"""The JSON hand record of a Twenty-eight or Twenty-nine hand: replayable, nothing trusted.

The same envelope as ``hand_records`` (``format``, ``schema_version``, ``rules``, ``dealer``,
``deal``, ``actions``), told apart by ``game: "bidding"``; the rules are a bidding game's
options, the actions add ``bid N`` and ``pass`` (``docs/hand-record.md``), and ``result`` is a
``BiddingResult`` (the contract, the card points each team took, the game points), checked on
replay like any other record's.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import ConfigDict, Field, ValidationError

from arena.engine.actions import parse_action
from arena.engine.auction import parse_call
from arena.engine.bidding_hand import BiddingAction, BiddingHand
from arena.engine.bidding_rules import make_bidding_rules
from arena.engine.deal import Deal
from arena.engine.errors import ArenaError, RecordError
from arena.engine.hand_records import (
    HAND_RECORD_SCHEMA_VERSION,
    RECORD_FORMAT,
    RECORD_VERSION,
    RecordedAction,
    RecordedDeal,
    _Part,
    apply_entry,
    check_result,
    readable_version,
    validation_message,
)

BIDDING_GAME: Literal["bidding"] = "bidding"
"""``game`` of a bidding hand's record (absent from the trick-taking games' records)."""


class RecordedBiddingResult(_Part):
    """``BiddingResult`` as written; every field given is checked on replay."""

    bidder: int | None = None
    bid: int | None = None
    points: list[int] | None = None
    void: bool | None = None
    made: bool | None = None
    game_points: int | None = None
    tricks_played: int | None = None


class BiddingHandRecord(_Part):
    """One Twenty-eight or Twenty-nine hand (``docs/hand-record.md``)."""

    model_config = ConfigDict(title="Dehla bidding hand record")

    format: Literal["dehla-hand-record"] = RECORD_FORMAT
    version: Literal[1] = RECORD_VERSION
    schema_version: int = Field(default=HAND_RECORD_SCHEMA_VERSION, ge=1)
    game: Literal["bidding"]
    rules: dict[str, Any]
    dealer: int = Field(ge=0, le=3)
    deal: RecordedDeal
    actions: list[RecordedAction]
    result: RecordedBiddingResult | None = None


def is_bidding_record(data: Any) -> bool:
    """Whether ``data`` claims to be a bidding hand's record (it is still checked when read)."""
    return isinstance(data, dict) and data.get("game") == BIDDING_GAME


def bidding_hand_record(state: BiddingHand) -> dict[str, Any]:
    """The record of a bidding hand so far, as plain JSON data."""
    deal = state.deal.to_json()
    record = BiddingHandRecord(
        game=BIDDING_GAME, rules=state.rules.options(), dealer=state.dealer,
        deal=RecordedDeal(hands=deal["hands"], chance=deal["chance"]),
        actions=[RecordedAction(seat=seat, action=str(action)) for seat, action in state.history],
        result=RecordedBiddingResult(**state.result.to_json()) if state.result else None,
    )
    return record.model_dump(mode="json")


def replay_bidding_record(data: Any, *, require_complete: bool = True) -> BiddingHand:
    """Rebuild a bidding hand from its record, checking every field and action on the way."""
    if not isinstance(data, dict):
        raise RecordError("record: expected a JSON object")
    try:
        record = BiddingHandRecord.model_validate(data)
        readable_version(record.schema_version, HAND_RECORD_SCHEMA_VERSION, "this engine reads hand records")
    except ValidationError as exc:
        raise RecordError(validation_message(exc.errors()[0], bracket_indexes=True)) from None
    except ValueError as exc:
        raise RecordError(f"schema_version: {exc}") from None
    try:
        rules = make_bidding_rules(record.rules, context="rules")
        state = BiddingHand(rules, Deal.from_text(rules.deal_rules, record.deal.hands, record.deal.chance),
                            record.dealer)
    except ArenaError as exc:
        raise RecordError(str(exc)) from None
    for index, entry in enumerate(record.actions):
        apply_entry(state, index, entry, parse_bidding_action)
    if require_complete and not state.is_over:
        raise RecordError(f"actions: the hand is not finished after {len(record.actions)} actions")
    if record.result is not None and state.result is not None:
        check_result(record.result, state.result.to_json())
    return state


def parse_bidding_action(text: str) -> BiddingAction:
    """``bid 16``, ``pass``, ``hide JH``, ``reveal`` or ``play 9S``."""
    words = text.lower().split()
    if words[:1] in (["bid"], ["pass"]):
        return parse_call(text)
    action = parse_action(text)
    if not isinstance(action, BiddingAction):
        raise RecordError(f"{text!r} is not an action of a bidding game")
    return action
