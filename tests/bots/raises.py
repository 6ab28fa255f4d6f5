"""Raises inside its ``play`` at its ``--at``-th play (and every later one with ``--repeat``);
the SDK turns that into an error status on the Decide call."""

from __future__ import annotations

from arena.engine.actions import RevealTrump
from arena.engine.cards import Card
from sdk.bot import BotView
from sdk.server import run
from tests.bots.common import ScriptedBot, arguments


class RaisingBot(ScriptedBot):
    name = "raises"

    def __init__(self, at: int, repeat: bool, message: str) -> None:
        super().__init__(at, repeat)
        self.message = message

    def misbehave(self, view: BotView) -> Card | RevealTrump:
        raise RuntimeError(f"{self.message} (play {self.plays})")


if __name__ == "__main__":
    args = arguments(__doc__ or "", extra=[("--message", {"default": "bug in my bot"})])
    run(RaisingBot(args.at, args.repeat, args.message))
