"""A bot with (almost) no work per call, for ``bench/referee.py``: what the referee costs alone.

It is served exactly like an SDK bot (same ``grpc.server``, thread pool, options, health
service and shutdown as ``sdk.server``) but its ``Decide`` never decodes the observation: it
answers the first legal action straight from the protobuf message, and ``EndHand`` is
acknowledged without decoding. A table of these bots shows the referee's side of a decision
(encoding, transport, decoding the reply) without the SDK's decoding of the request.

Run: ``DEHLA_BOT_ADDRESS=unix:/tmp/b.sock python bench/lean_bot.py``.
"""

from __future__ import annotations

import signal
import threading
from concurrent import futures
from typing import Any

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

from arena.referee.messages import DecisionReply
from protocol import SERVICE_NAME, convert
from sdk.bot import Bot, BotView
from sdk.server import BotServicer, parse_address


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
    address = parse_address()
    done = threading.Event()
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4), options=[("grpc.so_reuseport", 0)])
    convert.add_bot_service(LeanServicer(FirstLegal(), done.set), server)
    health_servicer = health.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    server.add_insecure_port(address)
    server.start()
    for name in ("", SERVICE_NAME):
        health_servicer.set(name, health_pb2.HealthCheckResponse.SERVING)
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: done.set())
    done.wait()
    server.stop(grace=0.5).wait()


if __name__ == "__main__":
    main()
