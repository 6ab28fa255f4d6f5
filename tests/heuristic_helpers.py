"""Shared by the heuristic's tests: the decisions of seeded hands, rarer positions mixed in, and
a heuristic that notes whom it plays for."""

from __future__ import annotations

import random
from functools import cache

from arena.engine.actions import Action
from arena.engine.deal import Deal
from arena.engine.hand import HandState
from arena.engine.observation import observe
from arena.engine.rules import rules_for
from sample_bots.heuristic.bot import HeuristicBot
from sdk.bot import BotView


@cache
def positions(preset: str, hands: int = 12) -> tuple[BotView, ...]:
    """Every decision of ``hands`` seeded hands played by the heuristic with random moves mixed
    in (so that rarer positions come up too)."""
    rules = rules_for(preset)
    views = []
    for seed in range(hands):
        rng = random.Random(seed)
        state = HandState(rules, Deal.from_seed(rules, 100 + seed), seed % 4)
        while not state.is_over:
            seat = state.to_move
            assert seat is not None
            view = BotView(observe(state, seat), 1.0, 30.0)
            views.append(view)
            action = HeuristicBot().decide(view)
            state.apply(action if rng.random() < 0.8 else rng.choice(state.legal_actions()))
    return tuple(views)


class Recording(HeuristicBot):
    """The heuristic, noting the seats it is asked to play for."""

    def __init__(self) -> None:
        super().__init__()
        self.seats: list[int] = []

    def decide(self, view: BotView) -> Action:
        self.seats.append(view.observation.seat)
        return super().decide(view)
