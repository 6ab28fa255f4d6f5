"""How long a client may take and how many connections it may hold (``dehla serve`` options);
``connection_guard.py`` applies them. Here without the web stack, for the command's defaults."""

from __future__ import annotations

from dataclasses import dataclass

DEFAULT_HEADER_TIMEOUT = 10.0
"""Seconds from a request's first byte to the end of its headers."""
DEFAULT_BODY_TIMEOUT = 30.0
"""Seconds a request body may pause."""
DEFAULT_MAX_CONNECTIONS = 512
DEFAULT_PER_CLIENT = 64
"""Open connections from one address (a proxy on the same host is one address: docs/deploy.md)."""
KEEP_ALIVE_S = 5
"""Seconds an idle kept-alive connection stays open (uvicorn's default, said here)."""
GRACEFUL_S = 5
"""Seconds a stopping service waits for requests in progress (a held upload body would otherwise
keep it up until its client gives up)."""
MAX_HEAD_BYTES = 16 * 1024
"""A request line and headers larger than this are a 400 (h11's default, said here)."""


@dataclass(frozen=True, slots=True)
class ConnectionLimits:
    """``dehla serve --header-timeout --body-timeout --max-connections --max-connections-per-client``."""

    header_timeout: float = DEFAULT_HEADER_TIMEOUT
    body_timeout: float = DEFAULT_BODY_TIMEOUT
    max_connections: int = DEFAULT_MAX_CONNECTIONS
    per_client: int = DEFAULT_PER_CLIENT
