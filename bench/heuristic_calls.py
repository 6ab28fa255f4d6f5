"""What the ceiling's searching bots share: they search the card play only."""

from __future__ import annotations

import random

from arena.engine.actions import DeclineTrump
from arena.engine.cards import Card, Suit
from sample_bots.heuristic.bot import HeuristicBot
from sdk import MatchStart
from sdk.bot import BotView, seeded_rng


class HeuristicCalls:
    """The heuristic's trump calls and face-down card (the ceiling found the calls worth
    little), and a generator seeded afresh by each match."""

    seed: int
    rng: random.Random
    _heuristic: HeuristicBot

    def on_match_start(self, start: MatchStart) -> None:
        self.rng = seeded_rng(start, self.seed)

    def call_trump(self, view: BotView) -> Suit | DeclineTrump:
        return self._heuristic.call_trump(view)

    def hide_trump(self, view: BotView) -> Card:
        return self._heuristic.hide_trump(view)
