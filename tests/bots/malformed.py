"""Sends a malformed DecideResponse at its ``--at``-th play (every later one too with
``--repeat``). Modes:

- ``no-action``: the reply has no action set;
- ``unspecified-card``: ``play_card { card: CARD_UNSPECIFIED }``;
- ``oversized``: a request_id of 70 KiB, so the reply exceeds the referee's 64 KiB limit;
- ``wrong-id``: echoes another request id;
- ``garbage``: bytes that do not decode as a DecideResponse at all;
- ``garbage-start``: plays legally, but answers StartMatch with such bytes.

The bot itself is an SDK bot; the reply is spoiled after the SDK's servicer built it, by
editing the protobuf message that ``protocol.convert`` returns (no generated code imported).
The ``garbage`` modes wrap the SDK's handler in one that returns raw bytes instead.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import grpc

from arena.engine.actions import RevealTrump
from arena.engine.cards import Card
from sdk.bot import BotView
from sdk.server import BotServicer, run
from tests.bots.common import ScriptedBot, arguments, first_legal

MODES = ("no-action", "unspecified-card", "oversized", "wrong-id", "garbage", "garbage-start")
OVERSIZED_ID = "x" * (70 * 1024)
GARBAGE = b"\x0a\x05ab"
"""Field 1 announces 5 bytes and only 2 follow: not a decodable message."""


class MarkingBot(ScriptedBot):
    """Plays legally and marks the plays whose reply the servicer must spoil."""

    name = "malformed"

    def __init__(self, at: int, repeat: bool) -> None:
        super().__init__(at, repeat)
        self.spoil = False

    def misbehave(self, view: BotView) -> Card | RevealTrump:
        self.spoil = True
        return first_legal(view)


class SpoilingServicer(BotServicer):
    def __init__(self, bot: MarkingBot, on_match_end: Callable[[], None], mode: str) -> None:
        super().__init__(bot, on_match_end)
        self.marking = bot
        self.mode = mode

    def Decide(self, request: Any, context: Any) -> Any:  # noqa: N802
        self.marking.spoil = False
        response = super().Decide(request, context)
        if not self.marking.spoil:
            return response
        if self.mode == "no-action":
            response.ClearField("action")
        elif self.mode == "unspecified-card":
            response.action.play_card.card = 0
        elif self.mode == "oversized":
            response.request_id = OVERSIZED_ID
        elif self.mode == "wrong-id":
            response.request_id = "stale-" + response.request_id
        return response


class GarbageReply(grpc.ServerInterceptor):  # type: ignore[misc]
    """Answers ``method`` with undecodable bytes when ``spoil()`` says so after the call."""

    def __init__(self, method: str, spoil: Callable[[], bool]) -> None:
        self.method = method
        self.spoil = spoil

    def intercept_service(self, continuation: Any, details: Any) -> Any:
        handler = continuation(details)
        if not details.method.endswith(f"/{self.method}"):
            return handler
        call = handler.unary_unary
        deserialize = handler.request_deserializer
        serialize = handler.response_serializer

        def spoiled(raw: bytes, context: Any) -> bytes:
            response = call(deserialize(raw), context)
            return GARBAGE if self.spoil() else bytes(serialize(response))

        return grpc.unary_unary_rpc_method_handler(spoiled)


def main() -> None:
    args = arguments(__doc__ or "", extra=[("mode", {"choices": MODES})])
    bot = MarkingBot(args.at, args.repeat)
    interceptors = {
        "garbage": [GarbageReply("Decide", lambda: bot.spoil)],
        "garbage-start": [GarbageReply("StartMatch", lambda: True)],
    }.get(args.mode, [])
    run(None, servicer=lambda on_end: SpoilingServicer(bot, on_end, args.mode), interceptors=interceptors)


if __name__ == "__main__":
    main()
