"""The expert's levels: how long it may think per move, from almost the heuristic to the clock.

A level caps the search's move budget (``SearchBudget.max_per_move``, which includes the 4 ms
kept for the reply); the search is the same at every level, so a lower level sees fewer worlds
and overrides the heuristic's card less often. Level 1's cap is under that reserve: it searches
no world and plays the heuristic's card. ``docs/bots.md`` gives each level's strength against
``heuristic``.
"""

from __future__ import annotations

from enum import IntEnum

from sample_bots.search.bot import SearchBudget


class Level(IntEnum):
    """``--level N``: 1 plays the heuristic's card, 5 (the default) thinks as long as the clock allows."""

    ONE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FULL = 5


MOVE_SECONDS: dict[Level, float | None] = {
    Level.ONE: 0.001,
    Level.TWO: 0.005,
    Level.THREE: 0.015,
    Level.FOUR: 0.05,
    Level.FULL: None,
}
"""The cap on a move's thinking time per level (``None``: the search bot's budget rule alone)."""


def budget_for(level: Level, move_ms: float | None = None, confidence: float | None = None) -> SearchBudget:
    """The search budget of ``level``; ``move_ms`` (milliseconds), when given, caps a move instead."""
    cap = move_ms / 1000 if move_ms else MOVE_SECONDS[level]
    if confidence is None:
        return SearchBudget(max_per_move=cap)
    return SearchBudget(max_per_move=cap, confidence=confidence)
