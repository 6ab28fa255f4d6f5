"""Request bodies under ``/api`` capped before the application reads them (issue 23).

FastAPI reads a JSON body whole, before the route's token is checked: anyone could make the
service hold a gigabyte in memory by posting it to ``/api/operator/...``. Every body here is at
most ``MAX_JSON_BYTES``, but an upload's (``POST /api/uploads``, streamed to disk under its own
limits, ``uploads.py``). A declared length over it is refused before a byte is read; a chunked
body is counted as it arrives. (Forms outside ``/api`` are capped by ``csrf.py``.)
"""

from __future__ import annotations

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

MAX_JSON_BYTES = 64 * 1024
STREAMED = ("/api/uploads",)
"""Paths whose bodies the route streams and caps itself."""


class TooLargeError(Exception):
    """A chunked body grew past the cap while the application read it (FastAPI turns it into a
    400 "error parsing the body"; ``app.py`` says 413 and this message instead)."""


def _too_large(limit: int) -> str:
    return f"the body is larger than {limit // 1024} KiB (the limit of this endpoint)"


class BodyLimit:
    """ASGI middleware: ``413`` for an ``/api`` body over ``MAX_JSON_BYTES``."""

    def __init__(self, app: ASGIApp, limit: int = MAX_JSON_BYTES) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "")
        if scope["type"] != "http" or not path.startswith("/api/") or path in STREAMED:
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length", b"0")
        if not declared.isdigit() or len(declared) > 19 or int(declared) > self.limit:
            await self._refuse(scope, receive, send)
            return
        seen = 0
        started = False

        async def counted() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    raise TooLargeError(_too_large(self.limit))
            return message

        async def watched(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, counted, watched)
        except TooLargeError:
            if started:
                raise
            await self._refuse(scope, receive, send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        refusal = JSONResponse({"detail": _too_large(self.limit)}, status_code=413, headers={"Connection": "close"})
        await refusal(scope, receive, send)
