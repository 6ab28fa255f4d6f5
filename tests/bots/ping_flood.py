"""A hostile bot on a raw HTTP/2 server (the ``h2`` library, no gRPC): it answers the
referee's calls correctly (health SERVING, StartMatch, the first legal card, the
acknowledgements) while it sends PING frames without pause on the same connection, as fast as
the socket takes them, each of which the referee's HTTP/2 stack must answer.

``--pings N`` stops after N pings (0: no limit); it prints how many it sent to stderr when the
connection ends.
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

from arena.contract.messages import DecisionReply
from arena.engine.actions import PlayCard
from protocol import ADDRESS_ENV, convert
from protocol.gen.dehla.arena.v1 import arena_pb2 as pb

PING_BATCH = 4096
REPORT_EVERY = 1_000_000
PINGS = b"".join(struct.pack(">I", 8)[1:] + b"\x06\x00" + struct.pack(">I", 0) + struct.pack(">Q", n)
                 for n in range(PING_BATCH))
"""A batch of PING frames (length 8, type 6, no flags, stream 0, 8 bytes of data), pre-built:
the h2 library would make them a hundred times slower."""


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
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, pings: int) -> None:
        self.reader, self.writer = reader, writer
        self.h2 = H2Connection(H2Configuration(client_side=False, header_encoding="utf-8"))
        self.paths: dict[int, str] = {}
        self.bodies: dict[int, bytearray] = {}
        self.limit = pings
        self.sent = 0

    def flush(self) -> None:
        self.writer.write(self.h2.data_to_send())

    async def flood(self) -> None:
        while not self.limit or self.sent < self.limit:
            self.flush()  # whole frames only: h2's own output goes out between batches
            self.writer.write(PINGS)
            self.sent += PING_BATCH
            if self.sent % REPORT_EVERY < PING_BATCH:
                print(f"ping_flood: {self.sent} pings sent", file=sys.stderr, flush=True)
            await self.writer.drain()
            await asyncio.sleep(0)  # let the calls be read and answered between batches

    def reply(self, stream: int) -> None:
        payload = answer(self.paths.pop(stream), bytes(self.bodies.pop(stream, b"")))
        self.h2.send_headers(stream, [(":status", "200"), ("content-type", "application/grpc")])
        self.h2.send_data(stream, b"\0" + struct.pack(">I", len(payload)) + payload)
        self.h2.send_headers(stream, [("grpc-status", "0")], end_stream=True)

    async def serve(self) -> None:
        self.h2.initiate_connection()
        self.flush()
        flooding = asyncio.create_task(self.flood())
        try:
            while data := await self.reader.read(65536):
                for event in self.h2.receive_data(data):
                    self.handle(event)
                self.flush()
        except (ProtocolError, ConnectionError):
            pass
        finally:
            flooding.cancel()
            print(f"ping_flood: sent {self.sent} pings", file=sys.stderr, flush=True)

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
    args = parser.parse_args()
    path = args.address.removeprefix("unix:")

    async def connected(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await Connection(reader, writer, args.pings).serve()

    server = await asyncio.start_unix_server(connected, path)
    async with server:
        await server.serve_forever()


if __name__ == "__main__":
    asyncio.run(main())
