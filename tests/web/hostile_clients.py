"""Hostile HTTP clients on raw sockets (issue 23): connections that trickle headers, stall a
body, or hold uploads open. Every loop is bounded by a count or a deadline; nothing sleeps to
synchronise (answers and closures are waited for with ``select`` and a deadline)."""

from __future__ import annotations

import select
import socket
import time
from collections.abc import Callable, Iterable
from urllib.parse import urlsplit

ATTACKER = "127.0.0.2"
"""The hostile clients' address (all of 127/8 is this machine's); honest clients use 127.0.0.1."""


def address(url: str) -> tuple[str, int]:
    parts = urlsplit(url)
    assert parts.hostname is not None and parts.port is not None
    return parts.hostname, parts.port


def connect(url: str, source: str = ATTACKER) -> socket.socket:
    connection = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    connection.bind((source, 0))
    connection.settimeout(10)
    connection.connect(address(url))
    connection.setblocking(False)
    return connection


def upload_head(url: str, token: str, length: int) -> bytes:
    host, port = address(url)
    return (f"POST /api/uploads HTTP/1.1\r\nHost: {host}:{port}\r\nAuthorization: Bearer {token}\r\n"
            f"Content-Type: application/gzip\r\nContent-Length: {length}\r\n\r\n").encode()


def send(connection: socket.socket, data: bytes) -> bool:
    """Whether ``data`` was sent (False: the server closed the connection)."""
    try:
        connection.setblocking(True)
        connection.settimeout(10)
        connection.sendall(data)
        return True
    except OSError:
        return False
    finally:
        connection.setblocking(False)


def answered(connections: Iterable[socket.socket], expected: int, deadline_s: float) -> dict[socket.socket, bytes]:
    """What the server wrote to each connection that it answered or closed, waiting until
    ``expected`` of them have been (or ``deadline_s`` has passed)."""
    waiting = set(connections)
    done: dict[socket.socket, bytes] = {}
    received: dict[socket.socket, bytes] = {}
    deadline = time.monotonic() + deadline_s
    while waiting and len(done) < expected and (left := deadline - time.monotonic()) > 0:
        readable, _, _ = select.select(list(waiting), [], [], left)
        for connection in readable:
            try:
                chunk = connection.recv(65536)
            except OSError:
                chunk = b""
            received[connection] = received.get(connection, b"") + chunk
            if not chunk or complete(received[connection]):
                done[connection] = received[connection]
                waiting.discard(connection)
    return done


def complete(answer: bytes) -> bool:
    """Whether ``answer`` holds a whole response (its headers and ``content-length`` bytes)."""
    head, found, body = answer.partition(b"\r\n\r\n")
    if not found:
        return False
    for line in head.lower().split(b"\r\n"):
        if line.startswith(b"content-length:"):
            return len(body) >= int(line.split(b":", 1)[1])
    return True


def status(answer: bytes) -> int:
    """The status of a raw answer; 0 for a connection closed without one."""
    return int(answer.split(b" ", 2)[1]) if answer.startswith(b"HTTP/1.1 ") else 0


def close_all(connections: Iterable[socket.socket]) -> None:
    for connection in connections:
        connection.close()


def until(check: Callable[[], bool], deadline_s: float, every_s: float = 0.05) -> bool:
    """Whether ``check()`` became true within ``deadline_s`` (polled; a bounded loop)."""
    for _ in range(max(1, int(deadline_s / every_s))):
        if check():
            return True
        select.select([], [], [], every_s)
    return check()


HEAD_START = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n"


def trickle_until_closed(connections: list[socket.socket], seconds: float) -> tuple[int, float]:
    """Trickle one header byte on each open connection every 0.25 s (a slow-loris) until the
    server has closed them all or ``seconds`` pass: how many it closed, and when the last one
    (``time.monotonic()``)."""
    open_ = set(connections)
    last = 0.0
    for _ in range(int(seconds / 0.25)):
        closed = answered(open_, len(open_), 0.25)
        open_ -= set(closed)
        if closed:
            last = time.monotonic()
        if not open_:
            break
        open_ = {connection for connection in open_ if send(connection, b"X")}
    return len(connections) - len(open_), last
