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

- control frames (every frame but DATA with a payload, HEADERS and CONTINUATION) come from a
  token bucket: ``burst`` at once, refilled at ``per_second``. An honest gRPC server sends a
  few per call (its SETTINGS and their ACK, WINDOW_UPDATEs, BDP PINGs and PING ACKs);
- one header block (a HEADERS frame and its CONTINUATIONs) holds at most ``header_block``
  bytes, far above the 16 KiB of metadata the channel accepts once its SETTINGS are acked.

On a breach the relay records the reason in its own words, closes both sides and accepts no
further connection: the seat turns the call that fails into the bot's fault. The chunk that
broke the bound is not forwarded, so the referee never receives more than the bound.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import struct
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

FRAME_HEADER = 9
CHUNK = 65536
CONNECT_TIMEOUT = 2.0
"""Seconds the relay waits to connect to the bot's socket (a unix socket answers at once)."""

DATA, HEADERS, CONTINUATION = 0x0, 0x1, 0x9
END_STREAM, END_HEADERS = 0x1, 0x4
FRAME_NAMES = {0x0: "empty DATA", 0x2: "PRIORITY", 0x3: "RST_STREAM", 0x4: "SETTINGS", 0x5: "PUSH_PROMISE",
               0x6: "PING", 0x7: "GOAWAY", 0x8: "WINDOW_UPDATE"}


@dataclass(frozen=True, slots=True)
class FloodLimits:
    """What a bot may send on its connection to the referee."""

    burst: int = 1024
    """Control frames allowed at once."""
    per_second: float = 1024.0
    """Control frames the allowance regains each second (up to ``burst``)."""
    header_block: int = 64 * 1024
    """Bytes in one header block (HEADERS + CONTINUATION frames)."""


class FrameMeter:
    """Reads the frame headers of the bot → referee byte stream, chunk by chunk, and says
    when a bound is broken. Holds at most one partial frame header."""

    def __init__(self, limits: FloodLimits, clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits
        self._clock = clock
        self._tokens = float(limits.burst)
        self._refilled = clock()
        self._started = self._refilled
        self._partial = b""
        self._skip = 0
        self._block: int | None = None  # bytes of the header block being received, if one is open
        self.controls: Counter[str] = Counter()
        self.header_bytes = 0
        """Header-block bytes accepted so far (what the referee's gRPC had to parse)."""

    def feed(self, data: bytes) -> str | None:
        """Account for ``data``; the breach, in the referee's words, or None."""
        view = memoryview(data)
        at, size = 0, len(view)
        while at < size:
            if self._skip:
                step = min(self._skip, size - at)
                self._skip -= step
                at += step
                continue
            need = FRAME_HEADER - len(self._partial)
            header = self._partial + bytes(view[at:at + need])
            at += len(header) - len(self._partial)
            if len(header) < FRAME_HEADER:
                self._partial = header
                break
            self._partial = b""
            length = int.from_bytes(header[:3], "big")
            kind, flags = header[3], header[4]
            self._skip = length
            breach = self._frame(kind, flags, length)
            if breach:
                return breach
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
            return None
        if kind == DATA and (length or flags & END_STREAM):
            return None
        return self._control(FRAME_NAMES.get(kind, "unknown-type"))

    def _control(self, name: str) -> str | None:
        now = self._clock()
        limits = self.limits
        self._tokens = min(float(limits.burst), self._tokens + (now - self._refilled) * limits.per_second)
        self._refilled = now
        self.controls[name] += 1
        if self._tokens >= 1.0:
            self._tokens -= 1.0
            return None
        total = sum(self.controls.values())
        most, _ = self.controls.most_common(1)[0]
        return (f"HTTP/2 flood: {total} control frames ({most} the most) in {now - self._started:.2f} s, "
                f"over the limit of {limits.burst} at once and {limits.per_second:.0f} a second")


class FloodGuard:
    """The relay for one seat: listens on a socket in a folder of the referee's own (mode
    0700) and relays each connection gRPC makes to the bot's ``upstream`` unix socket."""

    def __init__(self, upstream: str, limits: FloodLimits | None = None) -> None:
        if not upstream.startswith("unix:"):
            raise ValueError(f"{upstream!r}: the flood guard relays unix sockets only")
        self.upstream = upstream.removeprefix("unix:")
        self.limits = limits or FloodLimits()
        self.breach: str | None = None
        self.header_bytes = 0
        """Header-block bytes forwarded to the referee over every connection."""
        self.controls: Counter[str] = Counter()
        """Control frames received, by type, over every connection that has ended."""
        self._folder = tempfile.mkdtemp(prefix="dehla-relay-")
        path = os.path.join(self._folder, "relay.sock")
        self._listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._listener.bind(path)
        self._listener.listen(8)
        self.address = f"unix:{path}"
        self._lock = threading.Lock()
        self._sockets: set[socket.socket] = set()
        self._closed = False
        threading.Thread(target=self._accept, name="flood-guard-accept", daemon=True).start()

    def close(self) -> None:
        with self._lock:
            if self._closed:
                return
            self._closed = True
            held = [self._listener, *self._sockets]
        for sock in held:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)  # wakes the threads blocked on it; they close it
        shutil.rmtree(self._folder, ignore_errors=True)

    # ------------------------------------------------------------------ threads
    def _accept(self) -> None:
        try:
            while True:
                try:
                    referee, _ = self._listener.accept()
                except OSError:
                    return  # closed
                if not self._adopt(referee):
                    referee.close()
                    continue
                bot = self._dial()
                if bot is None:
                    self._drop(referee)
                    continue
                meter = FrameMeter(self.limits)
                threading.Thread(target=self._pump_up, args=(referee, bot), daemon=True).start()
                threading.Thread(target=self._pump_down, args=(bot, referee, meter), daemon=True).start()
        finally:
            self._listener.close()

    def _adopt(self, sock: socket.socket) -> bool:
        with self._lock:
            if self._closed or self.breach is not None:
                return False
            self._sockets.add(sock)
            return True

    def _drop(self, *socks: socket.socket) -> None:
        for sock in socks:
            with self._lock:
                self._sockets.discard(sock)
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            sock.close()

    def _dial(self) -> socket.socket | None:
        bot = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        if not self._adopt(bot):
            bot.close()
            return None
        try:
            bot.settimeout(CONNECT_TIMEOUT)
            bot.connect(self.upstream)  # the address the referee was given, as gRPC would dial it
            bot.settimeout(None)
        except OSError:
            self._drop(bot)
            return None
        return bot

    def _pump_up(self, referee: socket.socket, bot: socket.socket) -> None:
        """Referee → bot: the referee's own frames, relayed as they are."""
        try:
            while data := referee.recv(CHUNK):
                bot.sendall(data)
        except OSError:
            pass
        finally:
            with contextlib.suppress(OSError):
                bot.shutdown(socket.SHUT_WR)

    def _pump_down(self, bot: socket.socket, referee: socket.socket, meter: FrameMeter) -> None:
        """Bot → referee: frame headers metered, a chunk forwarded only within the bounds."""
        try:
            while data := bot.recv(CHUNK):
                before = meter.header_bytes
                breach = meter.feed(data)
                if breach is not None:
                    self._trip(breach)
                    return
                referee.sendall(data)
                with self._lock:
                    self.header_bytes += meter.header_bytes - before
        except OSError:
            pass
        finally:
            with self._lock:
                self.controls.update(meter.controls)
            self._drop(bot, referee)

    def _trip(self, reason: str) -> None:
        with self._lock:
            if self.breach is None:
                self.breach = reason
            held = list(self._sockets)
        for sock in held:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)


def frame_header(length: int, kind: int, flags: int = 0, stream: int = 0) -> bytes:
    """A frame header as HTTP/2 lays it out (for tests and probes)."""
    return struct.pack(">I", length)[1:] + bytes((kind, flags)) + struct.pack(">I", stream)
