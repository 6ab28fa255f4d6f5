"""One integer per action of ``arena.engine.actions``: the action space of learning code.

The batched engine (``arena.batch``) and the learning environments (``sdk.learn``) share it, so
it lives below both. A fixed layout for every preset, so a policy's output layer and an action
mask have one shape whatever the rules: ``0..51`` play a card, ``52..55`` call a suit, ``56`` decline, ``57`` reveal,
``58..109`` hide a card, ``110..161`` play a card face down. ``NO_ACTION`` (-1) leaves a table
as it is in a step.

The bidding games (Twenty-eight, Twenty-nine) extend it: ``162`` pass, ``163 + n`` bid ``n``
(``NUM_BIDDING_ACTIONS`` in all); their cards, hides and reveal keep the ids above.
"""

from __future__ import annotations

from arena.engine.actions import (
    CALL,
    DECLINE,
    DOWN,
    HIDE,
    PLAY,
    REVEAL,
    Action,
    CallTrump,
    DeclineTrump,
    HideTrump,
    PlayCard,
    RevealTrump,
)
from arena.engine.auction import BID, MAX_AMOUNT, PASS, Bid, Call, Pass

PLAY_BASE = 0
CALL_BASE = 52
DECLINE_ID = 56
REVEAL_ID = 57
HIDE_BASE = 58
DOWN_BASE = 110
NUM_ACTIONS = 162
NO_ACTION = -1
PASS_ID = 162
BID_BASE = 163
NUM_BIDDING_ACTIONS = BID_BASE + MAX_AMOUNT + 1


def action_id(action: Action) -> int:
    """The integer of an engine action."""
    if isinstance(action, PlayCard):
        return (DOWN_BASE if action.face_down else PLAY_BASE) + action.card
    if isinstance(action, CallTrump):
        return CALL_BASE + action.suit
    if isinstance(action, HideTrump):
        return HIDE_BASE + action.card
    if isinstance(action, RevealTrump):
        return REVEAL_ID
    if isinstance(action, DeclineTrump):
        return DECLINE_ID
    raise TypeError(f"{action!r} is not an action")


def action_of(number: int) -> Action:
    """The engine action of an integer in ``0..NUM_ACTIONS - 1`` (``ValueError`` outside)."""
    if not 0 <= number < NUM_ACTIONS:
        raise ValueError(f"action {number} is out of range (0..{NUM_ACTIONS - 1})")
    if number < CALL_BASE:
        return PLAY[number]
    if number < DECLINE_ID:
        return CALL[number - CALL_BASE]
    if number == DECLINE_ID:
        return DECLINE
    if number == REVEAL_ID:
        return REVEAL
    if number < DOWN_BASE:
        return HIDE[number - HIDE_BASE]
    return DOWN[number - DOWN_BASE]


def describe_action_id(number: int) -> str:
    """An action's text for messages (``play 10H``), or why the number is none."""
    try:
        return str(action_of(number))
    except ValueError as exc:
        return str(exc)


def bidding_action_id(action: Action | Call) -> int:
    """The integer of an action of the bidding games (a call, or an action of ``action_id``)."""
    if isinstance(action, Pass):
        return PASS_ID
    if isinstance(action, Bid):
        return BID_BASE + action.amount
    return action_id(action)


def bidding_action_of(number: int) -> Action | Call:
    """The action of an integer in ``0..NUM_BIDDING_ACTIONS - 1`` (``ValueError`` outside)."""
    if not 0 <= number < NUM_BIDDING_ACTIONS:
        raise ValueError(f"action {number} is out of range (0..{NUM_BIDDING_ACTIONS - 1})")
    if number == PASS_ID:
        return PASS
    if number >= BID_BASE:
        return BID[number - BID_BASE]
    return action_of(number)
