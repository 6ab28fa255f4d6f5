"""A first-legal SDK bot that answers StartMatch announcing an older minor version of protocol 1
(``--minor N``, default 4): a bot written before seed 003's trump variants (protocol 1.5).

The SDK's servicer builds the reply; only its ``protocol_version.minor`` is changed, on the
protobuf message ``protocol.convert`` returns (no generated code imported).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from arena.engine.actions import RevealTrump
from arena.engine.cards import Card
from sdk.bot import BotView
from sdk.server import BotServicer, run
from tests.bots.common import ScriptedBot, arguments, first_legal


class FirstLegal(ScriptedBot):
    name = "old-minor"

    def misbehave(self, view: BotView) -> Card | RevealTrump:
        return first_legal(view)


class OldMinorServicer(BotServicer):
    def __init__(self, bot: FirstLegal, on_match_end: Callable[[], None], minor: int) -> None:
        super().__init__(bot, on_match_end)
        self.minor = minor

    def StartMatch(self, request: Any, context: Any) -> Any:  # noqa: N802
        response = super().StartMatch(request, context)
        response.protocol_version.minor = self.minor
        return response


def main() -> None:
    args = arguments(__doc__ or "", extra=[("--minor", {"type": int, "default": 4})])
    bot = FirstLegal(args.at, args.repeat)
    run(None, servicer=lambda on_end: OldMinorServicer(bot, on_end, args.minor))


if __name__ == "__main__":
    main()
