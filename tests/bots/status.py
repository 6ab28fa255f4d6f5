"""Answers its ``--at``-th play (every later one too with ``--repeat``) at once with the gRPC
status ``--code`` and the text ``--details``: a bot that names its own fault, hoping to be
recorded as a timeout or an oversized reply rather than what it is."""

from __future__ import annotations

from typing import Any

import grpc

from arena.engine.actions import RevealTrump
from arena.engine.cards import Card
from sdk.bot import BotView
from sdk.server import BotServicer, run
from tests.bots.common import ScriptedBot, arguments, first_legal


class MarkingBot(ScriptedBot):
    name = "status"

    def __init__(self, at: int, repeat: bool) -> None:
        super().__init__(at, repeat)
        self.answer_with_status = False

    def misbehave(self, view: BotView) -> Card | RevealTrump:
        self.answer_with_status = True
        return first_legal(view)


class StatusServicer(BotServicer):
    def __init__(self, bot: MarkingBot, on_match_end: Any, code: grpc.StatusCode, details: str) -> None:
        super().__init__(bot, on_match_end)
        self.marking = bot
        self.code = code
        self.details = details

    def Decide(self, request: Any, context: Any) -> Any:  # noqa: N802
        self.marking.answer_with_status = False
        response = super().Decide(request, context)
        if self.marking.answer_with_status:
            context.abort(self.code, self.details)
        return response


if __name__ == "__main__":
    args = arguments(__doc__ or "", extra=[("--code", {"required": True}), ("--details", {"default": ""})])
    bot = MarkingBot(args.at, args.repeat)
    code = grpc.StatusCode[args.code]
    run(None, servicer=lambda on_end: StatusServicer(bot, on_end, code, args.details))
