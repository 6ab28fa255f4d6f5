"""Serving a ``Bot`` over gRPC: the address, the health service, the calls, and shutdown.

``run(bot)`` serves on ``--address`` or ``$DEHLA_BOT_ADDRESS`` (``unix:PATH`` or
``HOST:PORT``), reports SERVING on the standard health service, answers the referee's calls
one at a time, and exits after EndMatch or on SIGTERM/SIGINT. An exception in the bot's code
becomes an error status on that call (the referee records a crash); it never hangs the call.
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
import threading
import traceback
from collections.abc import Callable, Sequence
from concurrent import futures
from typing import Any, TypeVar

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

from arena.contract.messages import BiddingDecisionRequest, BiddingHandEnd, DecisionReply, Move
from arena.engine.errors import ArenaError
from protocol import ADDRESS_ARG, ADDRESS_ENV, PROTOCOL_VERSION, SERVICE_NAME, convert
from sdk.bot import BiddingView, Bot, BotView

log = logging.getLogger("dehla.bot")
R = TypeVar("R")


class BotServicer(convert.BotServiceServicer):
    """Thin: convert, call the bot, convert back."""

    def __init__(self, bot: Bot, on_match_end: Callable[[], None]) -> None:
        self.bot = bot
        self.on_match_end = on_match_end
        self.lock = threading.Lock()

    def StartMatch(self, request: Any, context: Any) -> Any:  # noqa: N802
        major = PROTOCOL_VERSION[0]
        if convert.protocol_major(request) != major:
            context.abort(grpc.StatusCode.FAILED_PRECONDITION,
                          f"this bot speaks protocol {major}.x, not {convert.protocol_major(request)}")
        start = self._decode(context, convert.start_from_pb, request)
        self._call_bot(context, self.bot.on_match_start, start)
        return convert.start_response(self.bot.name, getattr(self.bot, "version", ""))

    def Decide(self, request: Any, context: Any) -> Any:  # noqa: N802
        decision = self._decode(context, convert.decision_from_pb, request)
        action: Move
        if isinstance(decision, BiddingDecisionRequest):
            bidding = BiddingView(decision.observation, decision.per_move, decision.bank_left)
            action = self._call_bot(context, self.bot.decide_bidding, bidding)
        else:
            view = BotView(decision.observation, decision.per_move, decision.bank_left)
            action = self._call_bot(context, self.bot.decide, view)
        return convert.reply_to_pb(DecisionReply(decision.request_id, action))

    def EndHand(self, request: Any, context: Any) -> Any:  # noqa: N802
        end = self._decode(context, convert.hand_end_from_pb, request)
        if isinstance(end, BiddingHandEnd):
            self._call_bot(context, self.bot.on_bidding_hand_end, end)
        else:
            self._call_bot(context, self.bot.on_hand_end, end)
        return convert.end_hand_response()

    def EndMatch(self, request: Any, context: Any) -> Any:  # noqa: N802
        end = self._decode(context, convert.match_end_from_pb, request)
        try:
            self._call_bot(context, self.bot.on_match_end, end)
        finally:
            self.on_match_end()
        return convert.end_match_response()

    @staticmethod
    def _decode(context: Any, decode: Callable[[Any], R], message: Any) -> R:
        try:
            return decode(message)
        except ArenaError as exc:
            context.abort(grpc.StatusCode.INVALID_ARGUMENT, f"cannot read the request: {exc}")
            raise  # unreachable: abort raises

    def _call_bot(self, context: Any, method: Callable[[Any], R], argument: Any) -> R:
        with self.lock:
            try:
                return method(argument)
            except Exception as exc:
                log.error("bot raised in %s:\n%s", getattr(method, "__name__", "?"), traceback.format_exc())
                context.abort(grpc.StatusCode.INTERNAL, f"the bot raised {type(exc).__name__}: {exc}")
                raise  # unreachable: abort raises


def parse_address(argv: Sequence[str] | None = None) -> str:
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument(ADDRESS_ARG)
    known, _ = parser.parse_known_args(argv)
    address = known.address or os.environ.get(ADDRESS_ENV)
    if not address:
        raise SystemExit(f"no address to serve on: pass {ADDRESS_ARG} or set {ADDRESS_ENV}")
    return str(address)


ServicerFactory = Callable[[Callable[[], None]], Any]
"""Builds the BotService servicer from the callback it must call at EndMatch."""


def serve(
    bot: Bot | None,
    address: str,
    *,
    servicer: ServicerFactory | None = None,
    interceptors: Sequence[Any] = (),
) -> tuple[grpc.Server, threading.Event]:
    """Start serving on ``address``; returns the server and an event set at EndMatch.

    ``servicer`` replaces the SDK's own servicer (test and benchmark bots that speak the
    protocol at a lower level); ``interceptors`` go in front of it.
    """
    done = threading.Event()
    if servicer is None:
        if bot is None:
            raise ValueError("serve needs a bot or a servicer")
        servicer = lambda on_end: BotServicer(bot, on_end)  # noqa: E731
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4), interceptors=list(interceptors),
                         options=[("grpc.so_reuseport", 0)])
    convert.add_bot_service(servicer(done.set), server)
    health_servicer = health.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    if server.add_insecure_port(address) == 0 and not address.startswith("unix:"):
        raise SystemExit(f"cannot serve on {address}")
    server.start()
    for name in ("", SERVICE_NAME):
        health_servicer.set(name, health_pb2.HealthCheckResponse.SERVING)
    return server, done


def run(
    bot: Bot | None,
    argv: Sequence[str] | None = None,
    *,
    servicer: ServicerFactory | None = None,
    interceptors: Sequence[Any] = (),
) -> None:
    """Serve until the match ends or the referee stops the process."""
    logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="%(asctime)s %(name)s %(message)s")
    address = parse_address(argv)
    server, done = serve(bot, address, servicer=servicer, interceptors=interceptors)
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: done.set())
    log.info("%s serving on %s", bot.name if bot else "bot", address)
    done.wait()
    server.stop(grace=0.5).wait()
