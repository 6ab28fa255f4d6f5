"""Slow clients cut, connections capped: uvicorn's HTTP/1.1 protocol with the timeouts it lacks.

uvicorn (0.54, h11) times out only an idle kept-alive connection: a client that connects and
trickles its headers a byte at a time, or declares a body and never sends it, holds its
connection (and, for an upload, a staged file) for ever; 250 such clients were all still open
after 40 s (issue 23). This protocol adds, per connection:

- a header deadline: the request line and headers must be complete ``header_timeout`` s after
  their first byte (after the connection opens, for the first request), however they trickle:
  then ``408`` and the connection is closed;
- a body idle timeout: a request body that stops arriving for ``body_timeout`` s is cut (the
  application sees the client gone, and an upload's staged file is removed);
- caps on open connections, in all and per client address: one over either is answered ``503``
  and closed at once, before anything is read.

It is the service's own defence; in production a reverse proxy in front (docs/deploy.md) is the
first one. A body trickled just under the idle timeout is still held until it is complete: the
per-address cap, the body-size caps and the proxy's ``client_body_timeout`` bound that.
"""

from __future__ import annotations

import asyncio
from typing import Any, ClassVar

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from ladder.web.connection_limits import ConnectionLimits


def _answer(status: str, text: str, extra: str = "") -> bytes:
    """A whole response written before (or instead of) reading a request: h11 cannot send it."""
    body = text.encode() + b"\r\n"
    return (f"HTTP/1.1 {status}\r\ncontent-type: text/plain; charset=utf-8\r\nconnection: close\r\n{extra}"
            f"content-length: {len(body)}\r\n\r\n").encode() + body


_TIMEOUT = _answer("408 Request Timeout", "the request's headers came in too slowly")
_FULL = _answer("503 Service Unavailable", "too many connections; try again later", "retry-after: 5\r\n")


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with the deadlines and caps of ``ConnectionLimits``."""

    limits: ClassVar[ConnectionLimits] = ConnectionLimits()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._header_timer: asyncio.TimerHandle | None = None
        self._body_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if self._over_caps():
            transport.write(_FULL)
            transport.close()
            return
        self._watch()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_header()
        self._cancel_body()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        self._watch()

    def on_response_complete(self) -> None:
        """Between requests uvicorn's keep-alive timeout watches; the header deadline starts again
        with the next request's first byte."""
        self._cancel_header()
        self._cancel_body()
        super().on_response_complete()

    def _over_caps(self) -> bool:
        host = self.client[0] if self.client else None
        peers = [getattr(other, "client", None) for other in self.connections]
        same = sum(1 for peer in peers if peer is not None and peer[0] == host)
        return len(self.connections) > self.limits.max_connections or (host is not None
                                                                         and same > self.limits.per_client)

    def _watch(self) -> None:
        """Arm or disarm the deadlines for where the client is in its request."""
        if self.transport is None or self.transport.is_closing():
            return
        state = self.conn.their_state
        if state is h11.IDLE and self.timeout_keep_alive_task is not None:
            return  # kept alive after a response, nothing of a next request yet: uvicorn's timeout
        if state is h11.IDLE:
            self._cancel_body()
            if self._header_timer is None:  # from the first byte (or the connection): never pushed back
                self._header_timer = self.loop.call_later(self.limits.header_timeout, self._headers_too_slow)
        elif state is h11.SEND_BODY:
            self._cancel_header()
            self._cancel_body()  # pushed back by every piece of the body
            self._body_timer = self.loop.call_later(self.limits.body_timeout, self._body_too_slow)
        else:
            self._cancel_header()
            self._cancel_body()

    def _headers_too_slow(self) -> None:
        self._header_timer = None
        if self.transport.is_closing() or self.conn.their_state is not h11.IDLE:
            return
        if self.conn.our_state is h11.IDLE:
            self.transport.write(_TIMEOUT)
        self.transport.close()

    def _body_too_slow(self) -> None:
        self._body_timer = None
        if self.transport.is_closing() or self.conn.their_state is not h11.SEND_BODY:
            return
        if self.flow.read_paused:  # the application is behind, not the client
            self._body_timer = self.loop.call_later(self.limits.body_timeout, self._body_too_slow)
            return
        self.transport.close()

    def _cancel_header(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _cancel_body(self) -> None:
        if self._body_timer is not None:
            self._body_timer.cancel()
            self._body_timer = None


def guarded_protocol(limits: ConnectionLimits) -> type[GuardedH11Protocol]:
    """The protocol class for uvicorn's ``Config(http=...)``, with these limits."""
    return type("ServiceProtocol", (GuardedH11Protocol,), {"limits": limits})
