"""Exits in the middle of a hand: ``os._exit(--code)`` at its ``--at``-th play, while the
referee's Decide call is in flight (no reply, no clean shutdown). With ``--secret TEXT`` it
first prints TEXT and its hand to stderr, as a bot's debug log would."""

from __future__ import annotations

import os
import sys

from arena.engine.actions import RevealTrump
from arena.engine.cards import Card
from sdk.bot import BotView
from sdk.server import run
from tests.bots.common import ScriptedBot, arguments


class ExitingBot(ScriptedBot):
    name = "exit-at"

    def __init__(self, at: int, code: int, secret: str = "") -> None:
        super().__init__(at)
        self.code = code
        self.secret = secret

    def misbehave(self, view: BotView) -> Card | RevealTrump:
        if self.secret:
            print(f"{self.secret} my hand: {' '.join(map(str, view.hand))}", file=sys.stderr, flush=True)
        print(f"exit_at: leaving at play {self.plays} with code {self.code}", file=sys.stderr, flush=True)
        os._exit(self.code)


if __name__ == "__main__":
    args = arguments(__doc__ or "", extra=[("--code", {"type": int, "default": 17}), ("--secret", {"default": ""})])
    run(ExitingBot(args.at, args.code, args.secret))
