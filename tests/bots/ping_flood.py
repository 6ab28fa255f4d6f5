"""A hostile bot on a raw HTTP/2 server (the ``h2`` library, no gRPC): it answers the
referee's calls correctly (health SERVING, StartMatch, the first legal card, the
acknowledgements) while it sends PING frames without pause on the same connection, as fast as
the socket takes them, each of which the referee's HTTP/2 stack must answer.

``--pings N`` stops after N frames (0: no limit); ``--frame`` picks the flood (PING, PING ACK,
SETTINGS, WINDOW_UPDATE); ``--read-chunk N`` reads only N bytes of the referee's connection per
batch (the referee's answers pile up and its transport stalls); ``--headers`` answers the first
call with headers that never end, ``--no-ack-settings`` without acknowledging the referee's
SETTINGS; ``--after-calls N`` floods only once it has answered N calls (a flood mid-match).
It prints how many frames it sent to stderr when the connection ends.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import struct
import sys
from typing import Any

from grpc_health.v1 import health_pb2
from h2.config import H2Configuration
from h2.connection import H2Connection
from h2.events import DataReceived, RequestReceived, StreamEnded
from h2.exceptions import ProtocolError
from hpack import Encoder

from arena.contract.messages import DecisionReply
from arena.engine.actions import PlayCard
from protocol import ADDRESS_ENV, convert
from protocol.gen.dehla.arena.v1 import arena_pb2 as pb

PING_BATCH = 4096
REPORT_EVERY = 1_000_000


def frame(kind: int, payload: bytes, flags: int = 0, stream: int = 0) -> bytes:
    return struct.pack(">I", len(payload))[1:] + bytes((kind, flags)) + struct.pack(">I", stream) + payload


FRAMES = {
    "ping": lambda n: frame(6, struct.pack(">Q", n)),
    "ping-ack": lambda n: frame(6, struct.pack(">Q", n), flags=1),
    "settings": lambda n: frame(4, struct.pack(">HI", 4, 65535)),
    "window": lambda n: frame(8, struct.pack(">I", 1)),
}
"""Frames pre-built in batches: the h2 library would make them a hundred times slower."""


def answer(path: str, body: bytes) -> bytes:
    """The protobuf reply to one unary call (the 5-byte gRPC prefix stripped from ``body``)."""
    message = body[5:]
    if path.endswith("/Check"):
        return bytes(health_pb2.HealthCheckResponse(status=health_pb2.HealthCheckResponse.SERVING).SerializeToString())
    if path.endswith("/StartMatch"):
        return bytes(convert.start_response("ping-flood", "1").SerializeToString())
    if path.endswith("/Decide"):
        decision = convert.decision_from_pb(pb.DecideRequest.FromString(message))
        legal = decision.observation.legal_actions
        action = next((a for a in legal if isinstance(a, PlayCard)), legal[0])
        return bytes(convert.reply_to_pb(DecisionReply(decision.request_id, action)).SerializeToString())
    return b""  # EndHand, EndMatch: empty acknowledgements


class Connection:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, args: argparse.Namespace) -> None:
        self.reader, self.writer = reader, writer
        self.h2 = H2Connection(H2Configuration(client_side=False, header_encoding="utf-8"))
        self.paths: dict[int, str] = {}
        self.bodies: dict[int, bytearray] = {}
        self.limit = args.pings
        self.batch = b"".join(FRAMES[args.frame](n) for n in range(PING_BATCH))
        self.read_chunk = args.read_chunk
        self.batches = asyncio.Event()
        self.answered = asyncio.Event()
        self.after_calls = args.after_calls
        self.flooding = not args.after_calls
        self.sent = 0
        self.headers = args.headers
        self.ack_settings = args.ack_settings
        if self.headers:
            self.batch = b""  # nothing to flood until the first call arrives

    def start_header_flood(self, stream: int) -> None:
        """Answer ``stream`` with response headers that never end: HEADERS without END_HEADERS,
        then CONTINUATION frames of empty ``x`` headers, each of which a receiver that keeps
        the headers it parsed must store."""
        if self.ack_settings:
            self.flush()  # the SETTINGS ACK: the referee's header limits apply from here on
        block = Encoder().encode([(":status", "200"), ("content-type", "application/grpc")])
        self.writer.write(frame(1, block, stream=stream))
        fields = b"\x00\x01x\x00" * 256  # literal header "x: " (not indexed), 1 KB a frame
        self.batch = b"".join(frame(9, fields, stream=stream) for _ in range(64))
        self.flush = lambda: None  # type: ignore[method-assign]  # only CONTINUATION may follow

    def flush(self) -> None:
        self.writer.write(self.h2.data_to_send())

    async def flood(self) -> None:
        if self.after_calls:
            await self.answered.wait()
            self.flooding = True
        while not self.limit or self.sent < self.limit:
            self.flush()  # whole frames only: h2's own output goes out between batches
            self.writer.write(self.batch)
            self.sent += PING_BATCH
            if self.sent % REPORT_EVERY < PING_BATCH:
                print(f"ping_flood: {self.sent} frames sent", file=sys.stderr, flush=True)
            await self.writer.drain()
            self.batches.set()
            await asyncio.sleep(0)  # let the calls be read and answered between batches

    async def read(self) -> bytes:
        if not self.read_chunk or not self.flooding:
            return await self.reader.read(65536)
        self.batches.clear()  # a slow reader: a few bytes per batch sent
        await self.batches.wait()
        return await self.reader.read(self.read_chunk)

    def reply(self, stream: int) -> None:
        if self.headers and not self.batch:
            self.start_header_flood(stream)
            return
        payload = answer(self.paths.pop(stream), bytes(self.bodies.pop(stream, b"")))
        self.after_calls -= 1
        if self.after_calls <= 0:
            self.answered.set()
        self.h2.send_headers(stream, [(":status", "200"), ("content-type", "application/grpc")])
        self.h2.send_data(stream, b"\0" + struct.pack(">I", len(payload)) + payload)
        self.h2.send_headers(stream, [("grpc-status", "0")], end_stream=True)

    async def serve(self) -> None:
        self.h2.initiate_connection()
        self.writer.write(self.h2.data_to_send())  # the server's own SETTINGS only
        if not self.ack_settings:
            self.flush = lambda: None  # type: ignore[method-assign]  # never a SETTINGS ACK
        flooding = asyncio.create_task(self.flood())
        try:
            while data := await self.read():
                for event in self.h2.receive_data(data):
                    self.handle(event)
                self.flush()
        except (ProtocolError, ConnectionError):
            return  # the referee closed the connection on us: the flood is over, as the test wants
        finally:
            flooding.cancel()
            print(f"ping_flood: sent {self.sent} frames", file=sys.stderr, flush=True)

    def handle(self, event: Any) -> None:
        if isinstance(event, RequestReceived):
            self.paths[event.stream_id] = dict(event.headers)[":path"]
        elif isinstance(event, DataReceived):
            self.bodies.setdefault(event.stream_id, bytearray()).extend(event.data)
            self.h2.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
        elif isinstance(event, StreamEnded) and event.stream_id in self.paths:
            self.reply(event.stream_id)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--address", default=os.environ.get(ADDRESS_ENV, ""))
    parser.add_argument("--pings", type=int, default=0)
    parser.add_argument("--frame", choices=sorted(FRAMES), default="ping")
    parser.add_argument("--after-calls", type=int, default=0, help="flood once this many calls are answered")
    parser.add_argument("--read-chunk", type=int, default=0)
    parser.add_argument("--headers", action="store_true",
                        help="flood the first reply's headers (CONTINUATION frames) instead")
    parser.add_argument("--ack-settings", action=argparse.BooleanOptionalAction, default=True,
                        help="acknowledge the referee's SETTINGS (its header limits) before")
    args = parser.parse_args()
    path = args.address.removeprefix("unix:")

    async def connected(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await Connection(reader, writer, args).serve()

    server = await asyncio.start_unix_server(connected, path)
    async with server:
        await server.serve_forever()


if __name__ == "__main__":
    asyncio.run(main())
