"""Answers late: sleeps ``--seconds`` before its ``--at``-th play (and, with ``--repeat``,
every later one), then plays its first legal card."""

from __future__ import annotations

import time

from arena.engine.actions import RevealTrump
from arena.engine.cards import Card
from sdk.bot import BotView
from sdk.server import run
from tests.bots.common import ScriptedBot, arguments, first_legal


class SlowBot(ScriptedBot):
    name = "slow"

    def __init__(self, at: int, repeat: bool, seconds: float) -> None:
        super().__init__(at, repeat)
        self.seconds = seconds

    def misbehave(self, view: BotView) -> Card | RevealTrump:
        time.sleep(self.seconds)
        return first_legal(view)


if __name__ == "__main__":
    args = arguments(__doc__ or "", extra=[("--seconds", {"type": float, "required": True})])
    run(SlowBot(args.at, args.repeat, args.seconds))
