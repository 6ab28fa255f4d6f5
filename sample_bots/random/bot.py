"""The random sample bot, built on the SDK."""

from __future__ import annotations

import random

from arena.actions import REVEAL, RevealTrump
from arena.cards import Card, Suit
from arena.referee.messages import MatchStart
from sdk.bot import Bot, BotView


class RandomBot(Bot):
    """Uniform over legal actions, seeded per match and seat so a match replays exactly."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    def on_match_start(self, start: MatchStart) -> None:
        self.rng = random.Random(f"{self.seed}/{start.match_id}/{start.seat}")

    def call_trump(self, view: BotView) -> Suit:
        return self.rng.choice(list(Suit))

    def hide_trump(self, view: BotView) -> Card:
        return self.rng.choice(view.legal_cards)

    def play(self, view: BotView) -> Card | RevealTrump:
        options: list[Card | RevealTrump] = list(view.legal_cards)
        if view.may_reveal:
            options.append(REVEAL)
        return self.rng.choice(options)
