"""CSRF protection for every state-changing request a browser makes with the session cookie.

A synchronizer token: each session holds a random ``csrf`` value (an anonymous session gets one
when the sign-in form is shown, so signing in is protected too), every form carries it in a
hidden ``csrf_token`` field, and ``CsrfGuard`` refuses any POST, PUT, PATCH or DELETE outside
``/api`` whose token (that field of a url-encoded form, or the ``X-CSRF-Token`` header) is not the
session's. A page on another site can make the browser send the cookie (where SameSite lets it)
but cannot read the token. ``/api`` takes bearer tokens only, never the cookie, so it needs none.
"""

from __future__ import annotations

import hmac
import secrets
from typing import Any
from urllib.parse import parse_qs

from fastapi import Request
from starlette.responses import PlainTextResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

CSRF_KEY = "csrf"
CSRF_FIELD = "csrf_token"
CSRF_HEADER = b"x-csrf-token"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
MAX_FORM_BYTES = 64 * 1024
"""A form here is a few short fields; a larger body is refused before it is parsed."""
REFUSED = ("refused: this form is out of date or was not sent from this site's own page (CSRF check); "
           "reload the page and try again")


def csrf_token(request: Request) -> str:
    """The session's CSRF token, made on first use (the form's hidden field)."""
    session: dict[str, Any] = request.session
    token = session.get(CSRF_KEY)
    if not isinstance(token, str):
        token = secrets.token_urlsafe(32)
        session[CSRF_KEY] = token
    return token


def _is_api(path: str) -> bool:
    return path == "/api" or path.startswith("/api/")


class CsrfGuard:
    """ASGI middleware, inside the session middleware (it reads ``scope["session"]``). ``enabled``
    is False only in a test that shows what the check stops."""

    def __init__(self, app: ASGIApp, enabled: bool = True) -> None:
        self.app, self.enabled = app, enabled

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (not self.enabled or scope["type"] != "http" or scope["method"] in SAFE_METHODS
                or _is_api(scope["path"])):
            await self.app(scope, receive, send)
            return
        body, complete = await _read_body(receive)
        if not complete:
            await PlainTextResponse("refused: a form here is at most 64 KiB", 413)(scope, receive, send)
            return
        expected = scope.get("session", {}).get(CSRF_KEY)
        sent = _sent_token(scope, body)
        if not isinstance(expected, str) or sent is None or not hmac.compare_digest(sent.encode(), expected.encode()):
            await PlainTextResponse(REFUSED, 403)(scope, receive, send)
            return
        await self.app(scope, _replay(body, receive), send)


def _sent_token(scope: Scope, body: bytes) -> str | None:
    headers: dict[bytes, bytes] = dict(scope["headers"])
    if CSRF_HEADER in headers:
        return headers[CSRF_HEADER].decode("latin-1")
    content_type = headers.get(b"content-type", b"").split(b";")[0].strip().lower()
    if content_type != b"application/x-www-form-urlencoded":
        return None
    try:
        values = parse_qs(body.decode("latin-1"), max_num_fields=32).get(CSRF_FIELD, [])
    except ValueError:  # too many fields
        return None
    return values[0] if len(values) == 1 else None


async def _read_body(receive: Receive) -> tuple[bytes, bool]:
    """The request's body, and False if it is larger than ``MAX_FORM_BYTES`` (not read further)."""
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return b"".join(chunks), True
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > MAX_FORM_BYTES:
            return b"", False
        chunks.append(chunk)
        if not message.get("more_body", False):
            return b"".join(chunks), True


def _replay(body: bytes, then: Receive) -> Receive:
    """A ``receive`` that hands the application the body already read, then the real one (which
    reports the disconnect)."""
    sent = False

    async def receive() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await then()

    return receive
