"""A relay between the referee's gRPC channel and one bot's socket that bounds what the bot
may send on the HTTP/2 connection, enforced by the referee itself.

gRPC's client does not police the frames a server sends it: a bot can flood PINGs (each one
answered, a match slowed sevenfold) or answer with endless CONTINUATION headers before it
acknowledges the referee's SETTINGS (gRPC then buffers 16 MiB of headers per call). No channel
option bounds either, so the referee's channel dials this relay, and the relay dials the
bot's socket at exactly the address the referee was given (for a contained bot the verified
``/proc/self/fd/N``; the relay follows no other path). In the bot → referee direction it reads
only the 9-byte frame headers (length, type, flags, stream: nothing else from the bot is parsed
or trusted) and enforces two bounds:

- control frames (every frame but DATA with a payload and CONTINUATION) come from a token
  bucket per bot, shared by its connections: ``burst`` at once, refilled at ``per_second``. An
  honest gRPC server sends a few per call (response headers and trailers, WINDOW_UPDATEs, BDP
  PINGs and PING ACKs, its SETTINGS and their ACK once a connection);
- one header block (a HEADERS frame and its CONTINUATIONs) holds at most ``header_block``
  bytes, far above the 16 KiB of metadata the channel accepts once its SETTINGS are acked.

On a breach the relay records the reason in its own words, closes both sides and accepts no
further connection: the seat turns the call that fails into the bot's fault. The chunk that
broke the bound is not forwarded, so the referee never receives more than the bound.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import socket
import struct
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from arena.referee.scratch import ScratchKind, make_scratch

FRAME_HEADER = 9
_WORD = struct.Struct(">I")
"""A frame header's first word: the length (24 bits), then the type."""
CHUNK = 65536

DATA, HEADERS, CONTINUATION = 0x0, 0x1, 0x9
END_STREAM, END_HEADERS = 0x1, 0x4
FRAME_NAMES = {0x0: "empty DATA", 0x1: "HEADERS", 0x2: "PRIORITY", 0x3: "RST_STREAM", 0x4: "SETTINGS",
               0x5: "PUSH_PROMISE", 0x6: "PING", 0x7: "GOAWAY", 0x8: "WINDOW_UPDATE"}


@dataclass(frozen=True, slots=True)
class FloodLimits:
    """What a bot may send on its connection to the referee."""

    burst: int = 4096
    """Control frames allowed at once."""
    per_second: float = 4096.0
    """Control frames the allowance regains each second (up to ``burst``)."""
    header_block: int = 64 * 1024
    """Bytes in one header block (HEADERS + CONTINUATION frames)."""


class ControlBudget:
    """The token bucket of control frames for one bot, shared by all its connections (a bot
    that drops its connection after each burst gains nothing from gRPC's reconnects)."""

    def __init__(self, limits: FloodLimits, clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits
        self._clock = clock
        self._tokens = float(limits.burst)
        self._refilled = clock()
        self._first: float | None = None  # when the bot's first control frame came
        self.controls: Counter[str] = Counter()
        """Control frames received, by type."""

    def take(self, name: str) -> str | None:
        """One ``name`` frame received: the breach, or None while the allowance lasts."""
        now = self._clock()
        if self._first is None:
            self._first = now
        limits = self.limits
        self._tokens = min(float(limits.burst), self._tokens + (now - self._refilled) * limits.per_second)
        self._refilled = now
        self.controls[name] += 1
        if self._tokens >= 1.0:
            self._tokens -= 1.0
            return None
        total = sum(self.controls.values())
        most, _ = self.controls.most_common(1)[0]
        return (f"HTTP/2 flood: {total} control frames ({most} the most) in {now - self._first:.2f} s, "
                f"over the limit of {limits.burst} at once and {limits.per_second:.0f} a second")


class FrameMeter:
    """Reads the frame headers of one bot → referee byte stream, chunk by chunk, and says
    when a bound is broken. Holds at most one partial frame header."""

    def __init__(self, budget: ControlBudget) -> None:
        self.budget = budget
        self.limits = budget.limits
        self._partial = b""
        self._skip = 0
        self._block: int | None = None  # bytes of the header block being received, if one is open
        self.header_bytes = 0
        """Header-block bytes accepted so far (what the referee's gRPC had to parse)."""

    def feed(self, data: bytes) -> str | None:
        """Account for ``data``; the breach, in the referee's words, or None."""
        if self._partial:
            data, self._partial = self._partial + data, b""
        at, size = self._skip, len(data)
        while at + FRAME_HEADER <= size:
            length_and_type = _WORD.unpack_from(data, at)[0]
            length = length_and_type >> 8
            breach = self._frame(length_and_type & 0xFF, data[at + 4], length)
            if breach:
                return breach
            at += FRAME_HEADER + length
        if at >= size:
            self._skip = at - size
        else:
            self._skip, self._partial = 0, data[at:]
        return None

    def _frame(self, kind: int, flags: int, length: int) -> str | None:
        if kind in (HEADERS, CONTINUATION):
            self._block = length if kind == HEADERS else (self._block or 0) + length
            self.header_bytes += length
            if self._block > self.limits.header_block:
                return (f"HTTP/2 flood: a header block of more than {self.limits.header_block} bytes "
                        "(HEADERS + CONTINUATION frames)")
            if flags & END_HEADERS:
                self._block = None
            if kind == CONTINUATION:
                return None  # bounded with its block
        elif kind == DATA and (length or flags & END_STREAM):
            return None  # bounded by the referee's flow-control window and message size
        return self.budget.take(FRAME_NAMES.get(kind, "unknown-type"))


class FloodGuard:
    """The relay for one seat, run by callbacks on the referee's event loop (no thread, no
    task: a relayed chunk costs one loop wake-up, which gRPC's own poller causes anyway). It
    listens on a socket in a folder of the referee's own (mode 0700) and relays each
    connection gRPC makes to the bot's ``upstream`` unix socket."""

    def __init__(self, upstream: str, limits: FloodLimits | None = None) -> None:
        if not upstream.startswith("unix:"):
            raise ValueError(f"{upstream!r}: the flood guard relays unix sockets only")
        self.upstream = upstream.removeprefix("unix:")
        self.limits = limits or FloodLimits()
        self.breach: str | None = None
        self.header_bytes = 0
        """Header-block bytes forwarded to the referee over every connection."""
        self.budget = ControlBudget(self.limits)
        self._loop = asyncio.get_running_loop()
        self._folder = str(make_scratch(ScratchKind.RELAY))
        path = os.path.join(self._folder, "relay.sock")
        self._listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._listener.bind(path)
        self._listener.listen(8)
        self._listener.setblocking(False)
        self.address = f"unix:{path}"
        self._connections: set[_Connection] = set()
        self._closed = False
        self._loop.add_reader(self._listener, self._accept)

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self._loop.remove_reader(self._listener)
        self._listener.close()
        for connection in list(self._connections):
            connection.close()
        shutil.rmtree(self._folder, ignore_errors=True)

    def _accept(self) -> None:
        try:
            referee, _ = self._listener.accept()
        except OSError:
            return
        referee.setblocking(False)
        if self.breach is not None:
            referee.close()  # the bot broke a bound: no new connection to it
            return
        bot = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        bot.setblocking(False)
        try:
            bot.connect(self.upstream)  # the address the referee was given, as gRPC would dial it
        except OSError:  # not listening (yet), or its backlog is full: gRPC dials again
            bot.close()
            referee.close()
            return
        self._connections.add(_Connection(self, referee, bot))

    def tripped(self, reason: str) -> None:
        if self.breach is None:
            self.breach = reason
        for connection in list(self._connections):
            connection.close()

    def ended(self, connection: _Connection) -> None:
        self._connections.discard(connection)

    @property
    def controls(self) -> Counter[str]:
        """Control frames received from the bot, by type."""
        return self.budget.controls


class _Connection:
    """One relayed connection: two one-way pipes; either side ending ends both."""

    def __init__(self, guard: FloodGuard, referee: socket.socket, bot: socket.socket) -> None:
        self.guard, self.loop = guard, guard._loop
        self.referee, self.bot = referee, bot
        self.meter = FrameMeter(guard.budget)
        self.closed = False
        self.up = _Pipe(self, referee, bot, None)
        self.down = _Pipe(self, bot, referee, self.meter)

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        for sock in (self.referee, self.bot):
            self.loop.remove_reader(sock)
            self.loop.remove_writer(sock)
            sock.close()
        self.guard.ended(self)


class _Pipe:
    """Bytes from ``source`` to ``target``; while ``target`` cannot take more, ``source`` is not
    read (the relay holds at most one chunk per direction). A ``meter`` checks every chunk
    before it is forwarded."""

    def __init__(self, connection: _Connection, source: socket.socket, target: socket.socket,
                 meter: FrameMeter | None) -> None:
        self.connection, self.source, self.target, self.meter = connection, source, target, meter
        self.pending = b""
        self.paused = False
        connection.loop.add_reader(source, self.readable)

    def readable(self) -> None:
        try:
            data = self.source.recv(CHUNK)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        if not data:
            self.connection.close()
            return
        if self.meter is not None:
            before = self.meter.header_bytes
            breach = self.meter.feed(data)
            if breach is not None:
                self.connection.guard.tripped(breach)
                return
            self.connection.guard.header_bytes += self.meter.header_bytes - before
        self.pending = data
        self.writable()

    def writable(self) -> None:
        try:
            sent = self.target.send(self.pending)
        except (BlockingIOError, InterruptedError):
            sent = 0
        except OSError:
            self.connection.close()
            return
        self.pending = self.pending[sent:]
        loop = self.connection.loop
        if self.pending and not self.paused:
            self.paused = True
            loop.remove_reader(self.source)
            loop.add_writer(self.target, self.writable)
        elif not self.pending and self.paused:
            self.paused = False
            loop.remove_writer(self.target)
            loop.add_reader(self.source, self.readable)
