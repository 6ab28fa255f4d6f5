"""Plays its first legal card and writes every request the referee sends it, as the raw bytes
that arrived, to ``--dump PATH`` (one ``METHOD <length>`` line before each message): what a
seat can learn from the referee, byte for byte."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from arena.engine.actions import RevealTrump
from arena.engine.cards import Card
from sdk.bot import Bot, BotView
from sdk.server import BotServicer, run
from tests.bots.common import arguments, first_legal


class FirstLegalBot(Bot):
    name = "listener"

    def play(self, view: BotView) -> Card | RevealTrump:
        return first_legal(view)


class DumpingServicer(BotServicer):
    def __init__(self, bot: Bot, on_match_end: Callable[[], None], dump: Path) -> None:
        super().__init__(bot, on_match_end)
        self.dump = dump

    def _keep(self, method: str, request: Any) -> None:
        data = request.SerializeToString()
        with self.dump.open("ab") as out:
            out.write(f"{method} {len(data)}\n".encode() + data + b"\n")

    def StartMatch(self, request: Any, context: Any) -> Any:  # noqa: N802
        self._keep("StartMatch", request)
        return super().StartMatch(request, context)

    def Decide(self, request: Any, context: Any) -> Any:  # noqa: N802
        self._keep("Decide", request)
        return super().Decide(request, context)

    def EndHand(self, request: Any, context: Any) -> Any:  # noqa: N802
        self._keep("EndHand", request)
        return super().EndHand(request, context)

    def EndMatch(self, request: Any, context: Any) -> Any:  # noqa: N802
        self._keep("EndMatch", request)
        return super().EndMatch(request, context)


if __name__ == "__main__":
    args = arguments(__doc__ or "", extra=[("--dump", {"type": Path, "required": True})])
    bot = FirstLegalBot()
    run(None, servicer=lambda on_end: DumpingServicer(bot, on_end, args.dump))
