"""A seat endpoint that talks to a bot over gRPC (the bot serves, the referee calls).

Every call has a deadline; every failure becomes one typed ``BotFault``:
DEADLINE_EXCEEDED is a timeout, an oversized or undecodable reply is malformed, a lost
connection or an error status from the bot is a crash (whatever text the bot attaches). If the
bot runs as a local process, its exit code and the tail of its log go into the fault's detail.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from arena.referee.faults import FaultKind
from arena.referee.launcher import BotProcess
from arena.referee.messages import (
    BotFault,
    DecisionReply,
    DecisionRequest,
    HandEnd,
    MatchEnd,
    MatchStart,
)
from arena.sandbox.sockets import UntrustedSocket
from protocol import PROTOCOL_VERSION, SERVICE_NAME, convert

MAX_REPLY_BYTES = 64 * 1024
"""Largest reply accepted from a bot; a bigger one is a malformed reply."""

CHANNEL_OPTIONS = [
    ("grpc.max_receive_message_length", MAX_REPLY_BYTES),
    ("grpc.initial_reconnect_backoff_ms", 20),
    ("grpc.min_reconnect_backoff_ms", 20),
    ("grpc.max_reconnect_backoff_ms", 100),
    ("grpc.enable_retries", 0),
]


class GrpcSeat:
    """One bot, reached at ``address``; optionally a local process this seat starts and stops."""

    def __init__(self, name: str, address: str, process: BotProcess | None = None) -> None:
        self.name = name
        self.address = address
        self.process = process
        self.match_id = ""
        self.bot_name = ""
        self._channel: grpc.aio.Channel | None = None
        self._stub: Any = None

    # -------------------------------------------------------------------- calls
    async def start(self, start: MatchStart, timeout: float) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        self.match_id = start.match_id
        if self.process is not None:
            try:
                await self.process.start()
            except OSError as exc:
                program = self.process.command.argv[0]
                raise BotFault(FaultKind.FAILED_START, f"cannot start {program!r}: {exc}") from None
        self._channel = grpc.aio.insecure_channel(await self._dial_address(deadline), options=CHANNEL_OPTIONS)
        self._stub = convert.BotServiceStub(self._channel)
        try:
            await self._wait_healthy(deadline)
            response = await self._stub.StartMatch(convert.start_to_pb(start),
                                                   timeout=max(0.001, deadline - loop.time()))
        except grpc.aio.AioRpcError as exc:
            raise BotFault(FaultKind.FAILED_START, self._explain(exc)) from None
        if response is None:  # grpc.aio hands back None for a reply that does not decode
            raise BotFault(FaultKind.FAILED_START, "StartMatch reply is not a StartMatchResponse")
        major, self.bot_name, _ = convert.start_response_from_pb(response)
        if major != PROTOCOL_VERSION[0]:
            raise BotFault(FaultKind.FAILED_START, f"bot speaks protocol {major}, referee {PROTOCOL_VERSION[0]}")

    async def _dial_address(self, deadline: float) -> str:
        """A started bot is dialled only where its runner says (for a contained bot, the socket
        its own process bound: never by following the names in its folder)."""
        if self.process is None:
            return self.address
        try:
            address = await self.process.dial_address(deadline)
        except UntrustedSocket as exc:
            raise BotFault(FaultKind.FAILED_START, str(exc)) from None
        if address is None:
            why = "exited before serving" if self.process.exited else "no socket within the start-up budget"
            raise BotFault(FaultKind.FAILED_START, f"{why}{self._exit_note()}")
        return address

    async def _wait_healthy(self, deadline: float) -> None:
        loop = asyncio.get_running_loop()
        health = health_pb2_grpc.HealthStub(self._channel)
        request = health_pb2.HealthCheckRequest(service=SERVICE_NAME)
        while True:
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise BotFault(FaultKind.FAILED_START, f"not SERVING within the start-up budget{self._exit_note()}")
            if self.process is not None and self.process.exited:
                raise BotFault(FaultKind.FAILED_START, f"exited before serving{self._exit_note()}")
            try:
                reply = await health.Check(request, timeout=min(remaining, 0.25), wait_for_ready=True)
            except grpc.aio.AioRpcError as exc:
                if exc.code() in (grpc.StatusCode.DEADLINE_EXCEEDED, grpc.StatusCode.UNAVAILABLE):
                    continue
                raise
            if reply.status == health_pb2.HealthCheckResponse.SERVING:
                return
            await asyncio.sleep(0.02)  # served but not ready yet: poll again shortly

    async def decide(self, request: DecisionRequest, timeout: float) -> DecisionReply:
        try:
            response = await self._stub.Decide(convert.decision_to_pb(request, self.match_id), timeout=timeout)
        except grpc.aio.AioRpcError as exc:
            raise self._fault(exc) from None
        if response is None:  # grpc.aio hands back None for a reply that does not decode
            raise BotFault(FaultKind.MALFORMED_REPLY, "reply is not a DecideResponse")
        try:
            return convert.reply_from_pb(response)
        except convert.ConversionError as exc:
            raise BotFault(FaultKind.MALFORMED_REPLY, str(exc)) from None

    async def end_hand(self, end: HandEnd, timeout: float) -> None:
        try:
            await self._stub.EndHand(convert.hand_end_to_pb(end, self.match_id), timeout=timeout)
        except grpc.aio.AioRpcError as exc:
            raise self._fault(exc) from None

    async def end_match(self, end: MatchEnd, timeout: float) -> None:
        if self._stub is None:
            return
        try:
            await self._stub.EndMatch(convert.match_end_to_pb(end, self.match_id), timeout=timeout)
        except grpc.aio.AioRpcError as exc:
            raise self._fault(exc) from None

    async def close(self) -> None:
        if self._channel is not None:
            with contextlib.suppress(Exception):
                await self._channel.close()
        if self.process is not None:
            await self.process.stop()

    # ------------------------------------------------------------------- faults
    def _fault(self, exc: grpc.aio.AioRpcError) -> BotFault:
        code = exc.code()
        if code is grpc.StatusCode.DEADLINE_EXCEEDED:
            return BotFault(FaultKind.TIMEOUT, "no reply before the deadline")
        if code is grpc.StatusCode.RESOURCE_EXHAUSTED:
            return BotFault(FaultKind.MALFORMED_REPLY, f"reply larger than {MAX_REPLY_BYTES} bytes")
        return BotFault(FaultKind.CRASH, self._explain(exc))

    def _explain(self, exc: grpc.aio.AioRpcError) -> str:
        return f"{exc.code().name}: {exc.details()}{self._exit_note()}"

    def _exit_note(self) -> str:
        process = self.process
        if process is None or process.process is None:
            return ""
        note = ""
        if process.exited:
            note = f"; process exited with code {process.process.returncode}"
        tail = process.log_tail(600).strip()
        return f"{note}; log tail: {tail[-600:]}" if tail else note
