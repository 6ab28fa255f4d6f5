"""A trivial gRPC service for ``bench/referee.py``: the raw round trip the referee is held to.

It is served exactly like a bot (``sdk.server.serve``): a synchronous ``grpc.server`` with a
4-thread pool and the same server options, in its own process, on a unix socket. The methods
take and return raw bytes (no protobuf parsing on either side), so a call costs only the
transport:

- ``/bench.Echo/Echo`` returns the request unchanged;
- ``/bench.Echo/Reply`` returns ``--reply-bytes`` bytes whatever the request (a Decide-shaped
  call: a DecideRequest-sized request, a DecideResponse-sized reply).

Run: ``python bench/echo_server.py --address unix:/tmp/echo.sock [--reply-bytes 24]``. It serves
until SIGTERM/SIGINT or until its stdin closes (so it never outlives the bench).
"""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from concurrent import futures
from typing import Any

import grpc

SERVICE = "bench.Echo"
ECHO = f"/{SERVICE}/Echo"
REPLY = f"/{SERVICE}/Reply"
SERVER_OPTIONS = [("grpc.so_reuseport", 0)]
"""The options ``sdk.server.serve`` gives its server."""


def serve(address: str, reply_bytes: int) -> grpc.Server:
    reply = b"r" * reply_bytes

    def echo(request: bytes, context: Any) -> bytes:
        return request

    def fixed(request: bytes, context: Any) -> bytes:
        return reply

    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4), options=SERVER_OPTIONS)
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(SERVICE, {
        "Echo": grpc.unary_unary_rpc_method_handler(echo),
        "Reply": grpc.unary_unary_rpc_method_handler(fixed),
    }),))
    if server.add_insecure_port(address) == 0 and not address.startswith("unix:"):
        raise SystemExit(f"cannot serve on {address}")
    server.start()
    return server


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--address", required=True, help="unix:PATH or HOST:PORT")
    parser.add_argument("--reply-bytes", type=int, default=24, help="size of the /Reply answer")
    args = parser.parse_args()
    server = serve(args.address, args.reply_bytes)
    done = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: done.set())

    def watch_stdin() -> None:
        sys.stdin.buffer.read()
        done.set()

    threading.Thread(target=watch_stdin, daemon=True).start()
    print("serving", flush=True)
    done.wait()
    server.stop(grace=0.2).wait()


if __name__ == "__main__":
    main()
