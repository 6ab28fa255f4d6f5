"""Positions to time things on: every decision of some random hands of the default preset."""

from __future__ import annotations

import random

from arena.contract.messages import DecisionRequest
from arena.contract.time_control import TimeControl
from arena.engine.deal import Deal
from arena.engine.hand import HandState
from arena.engine.observation import observe
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


def mid_hand_request(control: TimeControl) -> DecisionRequest:
    """One mid-hand play decision of the default preset (trumps called, a few tricks played),
    the request a referee sends for it under ``control``."""
    rules = rules_for()
    state = HandState(rules, Deal.from_seed(rules, 5), 0)
    for _ in range(9):
        state.apply(state.legal_actions()[0])
    seat = state.to_move
    assert seat is not None
    return DecisionRequest("bench", 0, observe(state, seat), control.per_move, control.bank)
