"""The random sample bot, built on the SDK."""

from __future__ import annotations

import random

from arena.engine.actions import DECLINE, REVEAL, DeclineTrump, RevealTrump
from arena.engine.bidding_hand import BiddingAction
from arena.engine.cards import Card, Suit
from sdk import MatchStart
from sdk.bot import BiddingView, Bot, BotView, seeded_rng


class RandomBot(Bot):
    """Uniform over legal actions, seeded by the seat seed so a match with the same seed replays exactly."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    def on_match_start(self, start: MatchStart) -> None:
        self.rng = seeded_rng(start, self.seed)

    def call_trump(self, view: BotView) -> Suit | DeclineTrump:
        options: list[Suit | DeclineTrump] = list(Suit)
        if view.may_decline:  # seed 003's decline, where the rules allow it
            options.append(DECLINE)
        return self.rng.choice(options)

    def hide_trump(self, view: BotView) -> Card:
        return self.rng.choice(view.legal_cards)

    def play(self, view: BotView) -> Card | RevealTrump:
        options: list[Card | RevealTrump] = list(view.legal_cards)
        if view.may_reveal:
            options.append(REVEAL)
        return self.rng.choice(options)

    def decide_bidding(self, view: BiddingView) -> BiddingAction:
        """Twenty-eight: any legal call, card or call for the trump, uniformly."""
        return self.rng.choice(view.observation.legal_actions)
