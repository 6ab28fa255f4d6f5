"""Positions to time things on: every decision of some random hands of the default preset."""

from __future__ import annotations

import random

from arena.engine.deal import Deal
from arena.engine.hand import HandState
from arena.engine.rules import rules_for


def random_positions(hands: int, seed: int) -> list[tuple[HandState, int, int]]:
    """``(state, seat to move, dealer)`` before every decision of ``hands`` random-play hands."""
    rules = rules_for()
    rng = random.Random(seed)
    found = []
    for number in range(hands):
        state = HandState(rules, Deal.from_seed(rules, seed + number), number % 4)
        while not state.is_over:
            seat = state.to_move
            assert seat is not None
            found.append((state.clone(), seat, number % 4))
            actions = state.legal_actions()
            state.apply(actions[rng.randrange(len(actions))])
    return found
