"""Plays a well-formed but illegal card at its ``--at``-th play (or the first play after it
where that is possible): ``off-suit`` discards while it could follow the led suit;
``not-in-hand`` plays a card it does not hold."""

from __future__ import annotations

from arena.engine.actions import RevealTrump
from arena.engine.cards import CARDS, Card
from sdk.bot import BotView
from sdk.server import run
from tests.bots.common import ScriptedBot, arguments


class IllegalBot(ScriptedBot):
    name = "illegal"

    def __init__(self, at: int, repeat: bool, mode: str) -> None:
        super().__init__(at, repeat)
        self.mode = mode

    def can_misbehave(self, view: BotView) -> bool:
        if self.mode == "not-in-hand":
            return True
        return bool(self._off_suit(view))

    def misbehave(self, view: BotView) -> Card | RevealTrump:
        if self.mode == "not-in-hand":
            return next(c for c in CARDS if c not in view.hand)
        return self._off_suit(view)[0]

    @staticmethod
    def _off_suit(view: BotView) -> list[Card]:
        """Cards of another suit than the led one, when the seat holds the led suit."""
        trick = view.observation.current_trick
        if not trick:
            return []
        led = trick[0][1].suit
        if not any(c.suit == led for c in view.hand):
            return []
        return [c for c in view.hand if c.suit != led]


if __name__ == "__main__":
    args = arguments(__doc__ or "", extra=[("mode", {"choices": ["off-suit", "not-in-hand"]})])
    run(IllegalBot(args.at, args.repeat, args.mode))
