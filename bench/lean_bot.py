"""A bot with (almost) no work per call, for ``bench/referee.py``: what the referee costs alone.

It is served exactly like an SDK bot (same ``grpc.server``, thread pool, options, health
service and shutdown as ``sdk.server``) but its ``Decide`` never decodes the observation: it
answers the first legal action straight from the protobuf message, and ``EndHand`` is
acknowledged without decoding. A table of these bots shows the referee's side of a decision
(encoding, transport, decoding the reply) without the SDK's decoding of the request.

Run: ``DEHLA_BOT_ADDRESS=unix:/tmp/b.sock python bench/lean_bot.py``.
"""

from __future__ import annotations

from typing import Any

from arena.contract.messages import DecisionReply
from protocol import convert
from sdk.bot import Bot, BotView
from sdk.server import BotServicer, run


class FirstLegal(Bot):
    name = "lean"

    def play(self, view: BotView) -> Any:
        return view.legal_cards[0]


class LeanServicer(BotServicer):
    def Decide(self, request: Any, context: Any) -> Any:  # noqa: N802
        action = convert.action_from_pb(request.observation.legal_actions[0])
        return convert.reply_to_pb(DecisionReply(request.request_id, action))

    def EndHand(self, request: Any, context: Any) -> Any:  # noqa: N802
        return convert.end_hand_response()


def main() -> None:
    run(None, servicer=lambda on_end: LeanServicer(FirstLegal(), on_end))


if __name__ == "__main__":
    main()
