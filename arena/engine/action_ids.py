"""One integer per action of ``arena.engine.actions``: the action space of learning code.

The batched engine (``arena.batch``) and the learning environments (``sdk.learn``) share it, so
it lives below both. A fixed layout for every preset, so a policy's output layer and an action
mask have one shape whatever the rules: ``0..51`` play a card, ``52..55`` call a suit, ``56`` decline, ``57`` reveal,
``58..109`` hide a card, ``110..161`` play a card face down. ``NO_ACTION`` (-1) leaves a table
as it is in a step.
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

PLAY_BASE = 0
CALL_BASE = 52
DECLINE_ID = 56
REVEAL_ID = 57
HIDE_BASE = 58
DOWN_BASE = 110
NUM_ACTIONS = 162
NO_ACTION = -1


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
