"""A seat endpoint that talks to a bot over gRPC (the bot serves, the referee calls).

Every call has a deadline; every failure becomes one typed ``BotFault``, classified by what
the referee measured, never by the status a bot chose to send: a call that ran out its
deadline on the referee's clock is a timeout, a reply the referee counted over the size limit
or could not decode is malformed, and anything else (a lost connection, an error status of
any name, a process that exited) is a crash. The fault's detail is in the referee's own words
(it is sent to every seat); the text the bot attached and the tail of its log are kept apart
as evidence for the match record. The channel reaches a bot through the referee's flood guard
(``flood_guard``), which bounds the HTTP/2 frames the bot sends: a bot over its bounds is at
fault whatever the call it cut off says.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from arena.contract.faults import FaultKind
from arena.contract.messages import (
    AnyDecisionRequest,
    AnyHandEnd,
    BotFault,
    DecisionReply,
    MatchEnd,
    MatchStart,
)
from arena.referee.flood_guard import FloodGuard, FloodLimits
from arena.referee.launcher import BotProcess
from arena.sandbox.sockets import UntrustedSocket
from protocol import PROTOCOL_VERSION, SERVICE_NAME, convert

MAX_REPLY_BYTES = 64 * 1024
"""Largest reply accepted from a bot; a bigger one (as the referee counts it) is malformed."""

TRANSPORT_MAX_REPLY_BYTES = 4 * MAX_REPLY_BYTES
"""What gRPC itself lets through, so that a reply over ``MAX_REPLY_BYTES`` reaches the referee
to be measured; anything larger is dropped by gRPC unread (memory stays bounded)."""

DEADLINE_SLACK = 0.002
"""Seconds before its deadline at which a DEADLINE_EXCEEDED call still counts as run out
(gRPC starts the deadline a moment after the referee starts its clock)."""

LOG_EVIDENCE = 600
"""Characters of a bot's log tail kept as a fault's evidence."""

STALL_GRACE = 0.25
"""Seconds past a call's deadline after which the referee gives up on gRPC and ends the call
itself: a bot that stalls its connection (it stops reading while it floods frames) keeps
gRPC's own deadline from ever firing, which would hang the match."""

MAX_METADATA_BYTES = 16 * 1024
"""Largest response headers (or trailers) accepted from a bot: bots send only a status."""

FLOOD_LIMITS = FloodLimits()
"""What a bot may send on its HTTP/2 connection (``flood_guard``): its breach is the bot's fault."""

CHANNEL_OPTIONS = [
    ("grpc.max_receive_message_length", TRANSPORT_MAX_REPLY_BYTES),
    ("grpc.max_metadata_size", MAX_METADATA_BYTES // 2),
    ("grpc.absolute_max_metadata_size", MAX_METADATA_BYTES),
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
        self._guard: FloodGuard | None = None

    @property
    def flood_guard(self) -> FloodGuard | None:
        """The relay this seat's connection runs through, once started (its counts stay after close)."""
        return self._guard

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
                why = exc.strerror or type(exc).__name__
                raise BotFault(FaultKind.FAILED_START, f"cannot start the bot's program ({why})",
                               f"{program!r}: {exc}") from None
        address = self._guarded(await self._dial_address(deadline))
        self._channel = grpc.aio.insecure_channel(address, options=CHANNEL_OPTIONS)
        self._stub = convert.BotServiceStub(self._channel)
        try:
            await self._wait_healthy(deadline)
            budget = max(0.001, deadline - loop.time())
            response = await _bounded(self._stub.StartMatch(convert.start_to_pb(start), timeout=budget), budget)
        except _StalledError:
            self._check_flood(FaultKind.FAILED_START)
            raise BotFault(FaultKind.FAILED_START, f"connection stalled: no StartMatch reply{_STALLED}") from None
        except grpc.aio.AioRpcError as exc:
            self._check_flood(FaultKind.FAILED_START)
            raise BotFault(FaultKind.FAILED_START, self._status_note(exc) + self._exit_note(),
                           await self._evidence(exc)) from None
        if response is None:  # grpc.aio hands back None for a reply that does not decode
            raise BotFault(FaultKind.FAILED_START, "StartMatch reply is not a StartMatchResponse")
        (major, minor), self.bot_name, _ = convert.start_response_from_pb(response)
        if major != PROTOCOL_VERSION[0]:
            raise BotFault(FaultKind.FAILED_START, f"bot speaks protocol {major}, referee {PROTOCOL_VERSION[0]}")
        needed = convert.minor_needed(start.rules, start.preset)
        if needed is not None and minor < needed[0]:
            raise BotFault(
                FaultKind.FAILED_START,
                f"bot speaks protocol {major}.{minor}; these rules ({needed[1]}) need {major}.{needed[0]} or later",
            )

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
            raise BotFault(FaultKind.FAILED_START, f"{why}{self._exit_note()}", await self._evidence())
        return address

    def _guarded(self, address: str) -> str:
        """The bot's connection runs through the referee's flood guard (a unix socket: every
        runner's; a bot reached over TCP is dialled as it is)."""
        if not address.startswith("unix:"):
            return address
        self._guard = FloodGuard(address, FLOOD_LIMITS)
        return self._guard.address

    def _check_flood(self, kind: FaultKind) -> None:
        """The bot broke the flood guard's bounds: that, not the call's end, is its fault."""
        if self._guard is not None and self._guard.breach is not None:
            raise BotFault(kind, self._guard.breach) from None

    async def _wait_healthy(self, deadline: float) -> None:
        loop = asyncio.get_running_loop()
        health = health_pb2_grpc.HealthStub(self._channel)
        request = health_pb2.HealthCheckRequest(service=SERVICE_NAME)
        stalled = False  # a poll cut off on our clock: slow start or stalled connection, told apart by the budget
        while True:
            self._check_flood(FaultKind.FAILED_START)
            remaining = deadline - loop.time()
            if remaining <= 0:
                why = "connection stalled: no health reply" if stalled else "not SERVING"
                raise BotFault(FaultKind.FAILED_START, f"{why} within the start-up budget{self._exit_note()}",
                               await self._evidence())
            if self.process is not None and self.process.exited:
                raise BotFault(FaultKind.FAILED_START, f"exited before serving{self._exit_note()}",
                               await self._evidence())
            budget = min(remaining, 0.25)
            try:
                reply = await _bounded(health.Check(request, timeout=budget, wait_for_ready=True), budget)
            except _StalledError:
                stalled = True  # on a loaded host a starting bot's poll can overrun too: poll until the budget
                continue
            except grpc.aio.AioRpcError as exc:
                if exc.code() in (grpc.StatusCode.DEADLINE_EXCEEDED, grpc.StatusCode.UNAVAILABLE):
                    continue
                raise
            if reply.status == health_pb2.HealthCheckResponse.SERVING:
                return
            await asyncio.sleep(0.02)  # served but not ready yet: poll again shortly

    async def decide(self, request: AnyDecisionRequest, timeout: float) -> DecisionReply:
        # The reply arrives as bytes so that the referee counts its size itself.
        assert self._channel is not None
        decide = self._channel.unary_unary(convert.DECIDE_METHOD, request_serializer=convert.serialize,
                                           response_deserializer=None)
        self._check_flood(FaultKind.CRASH)
        started = asyncio.get_running_loop().time()
        try:
            data = await _bounded(decide(convert.decision_to_pb(request, self.match_id), timeout=timeout), timeout)
        except _StalledError:
            self._check_flood(FaultKind.CRASH)
            raise _stalled(timeout) from None
        except grpc.aio.AioRpcError as exc:
            raise await self._fault(exc, started, timeout) from None
        if len(data) > MAX_REPLY_BYTES:
            raise BotFault(FaultKind.MALFORMED_REPLY,
                           f"reply of {len(data)} bytes is larger than {MAX_REPLY_BYTES} bytes")
        try:
            return convert.reply_from_bytes(data)
        except convert.ConversionError as exc:
            raise BotFault(FaultKind.MALFORMED_REPLY, str(exc)) from None

    async def end_hand(self, end: AnyHandEnd, timeout: float) -> None:
        self._check_flood(FaultKind.CRASH)
        started = asyncio.get_running_loop().time()
        try:
            await _bounded(self._stub.EndHand(convert.hand_end_to_pb(end, self.match_id), timeout=timeout), timeout)
        except _StalledError:
            self._check_flood(FaultKind.CRASH)
            raise _stalled(timeout) from None
        except grpc.aio.AioRpcError as exc:
            raise await self._fault(exc, started, timeout) from None

    async def end_match(self, end: MatchEnd, timeout: float) -> None:
        if self._stub is None:
            return
        self._check_flood(FaultKind.CRASH)
        started = asyncio.get_running_loop().time()
        try:
            await _bounded(self._stub.EndMatch(convert.match_end_to_pb(end, self.match_id), timeout=timeout), timeout)
        except _StalledError:
            self._check_flood(FaultKind.CRASH)
            raise _stalled(timeout) from None
        except grpc.aio.AioRpcError as exc:
            raise await self._fault(exc, started, timeout) from None

    async def close(self) -> None:
        if self._channel is not None:
            with contextlib.suppress(Exception):
                await self._channel.close()
        if self._guard is not None:
            self._guard.close()
        if self.process is not None:
            await self.process.stop()

    # ------------------------------------------------------------------- faults
    async def _fault(self, exc: grpc.aio.AioRpcError, started: float, timeout: float) -> BotFault:
        """Classify a failed call by the referee's clock, not by the status's name (and a
        call that the flood guard cut off by the bound the bot broke)."""
        self._check_flood(FaultKind.CRASH)
        elapsed = asyncio.get_running_loop().time() - started
        if exc.code() is grpc.StatusCode.DEADLINE_EXCEEDED and elapsed >= timeout - DEADLINE_SLACK:
            return BotFault(FaultKind.TIMEOUT, f"no reply before the call's deadline of {timeout:.3f} s")
        note = f"{self._status_note(exc)} after {elapsed:.3f} s"
        return BotFault(FaultKind.CRASH, note + self._exit_note(), await self._evidence(exc))

    @staticmethod
    def _status_note(exc: grpc.aio.AioRpcError) -> str:
        """The status's name only: a closed set, whoever sent it (its text is the bot's)."""
        return f"call ended with status {exc.code().name}"

    def _exit_note(self) -> str:
        process = self.process
        if process is None or process.process is None or not process.exited:
            return ""
        return f"; process exited with code {process.process.returncode}"

    async def _evidence(self, exc: grpc.aio.AioRpcError | None = None) -> str:
        """What the bot said: its status text and the tail of its log (record only)."""
        parts = []
        if exc is not None and exc.details():
            text = exc.details()  # gRPC's own text can quote the bot's headers: megabytes of them
            parts.append(f"status text: {text[:LOG_EVIDENCE]}" + (" ..." if len(text) > LOG_EVIDENCE else ""))
        process = self.process
        if process is not None and process.process is not None:
            tail = (await process.settled_log_tail(LOG_EVIDENCE)).strip()
            if tail:
                parts.append(f"log tail: {tail[-LOG_EVIDENCE:]}")
        return "; ".join(parts)


_STALLED = f" within its deadline + {STALL_GRACE:.2f} s (the bot stopped reading the referee's connection)"


class _StalledError(Exception):
    """A call that gRPC did not end by its own deadline: the connection is stalled."""


async def _bounded(call: Any, timeout: float) -> Any:
    """Await a gRPC call on the referee's own clock as well as gRPC's: the call is cancelled
    ``STALL_GRACE`` after its deadline whatever the connection is doing."""
    try:
        return await asyncio.wait_for(call, timeout + STALL_GRACE)
    except TimeoutError:
        raise _StalledError from None


def _stalled(timeout: float) -> BotFault:
    return BotFault(FaultKind.TIMEOUT, f"no reply before the call's deadline of {timeout:.3f} s{_STALLED}")
