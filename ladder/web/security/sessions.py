"""Signing in on the web pages: a signed session cookie that names an author and their token.

The cookie is Starlette's ``SessionMiddleware`` (itsdangerous: signed with the service's secret,
timestamped; HttpOnly, SameSite=Lax; Secure over https). It holds the author's id and a
fingerprint of their current token's hash, never the token: each request looks the author up and
compares the fingerprint, so rotating or revoking the token ends every session made with it at
once. Nothing is written to the store: the session lives only in the cookie.
"""

from __future__ import annotations

import hashlib
import hmac
import time
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import Depends, Request
from starlette.middleware.sessions import SessionMiddleware
from starlette.types import ASGIApp, Receive, Scope, Send

from ladder.admin.authors import AuthorView
from ladder.store.schema import Author
from ladder.web.store_access import service_store

SESSION_COOKIE = "dehla_session"
SESSION_SECONDS = 12 * 60 * 60
"""A session lasts 12 hours from sign-in (the signature's timestamp and the cookie's Max-Age)."""
AUTHOR_KEY, FINGERPRINT_KEY, SINCE_KEY = "author", "token", "since"


@dataclass(frozen=True, slots=True)
class CookiePolicy:
    """How the session cookie is set: ``secure_always`` for a service reached only over https
    (behind a proxy that does not say so, ``dehla serve --secure-cookies``)."""

    secret: str
    secure_always: bool = False


class SessionCookies:
    """Starlette's session middleware, with the Secure flag whenever the request came over https
    (directly, or through a trusted proxy's ``X-Forwarded-Proto``, which uvicorn applies)."""

    def __init__(self, app: ASGIApp, policy: CookiePolicy) -> None:
        def middleware(secure: bool) -> SessionMiddleware:
            return SessionMiddleware(app, policy.secret, session_cookie=SESSION_COOKIE, max_age=SESSION_SECONDS,
                                     same_site="lax", https_only=secure)

        self._secure = middleware(True)
        self._plain = self._secure if policy.secure_always else middleware(False)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        chosen = self._secure if scope.get("scheme") in ("https", "wss") else self._plain
        await chosen(scope, receive, send)


def token_fingerprint(secret: str, token_hash: str) -> str:
    """What the cookie keeps of the author's current token: a keyed hash of its stored hash."""
    return hmac.new(secret.encode(), token_hash.encode(), hashlib.sha256).hexdigest()[:32]


def _secret(request: Request) -> str:
    policy: CookiePolicy = request.app.state.cookie_policy
    return policy.secret


def sign_in(request: Request, author_id: int, token_hash: str) -> None:
    """A new session for the author (whatever the old one held, its CSRF token included)."""
    session: dict[str, Any] = request.session
    session.clear()
    session.update({AUTHOR_KEY: author_id, FINGERPRINT_KEY: token_fingerprint(_secret(request), token_hash),
                    SINCE_KEY: int(time.time())})


def sign_out(request: Request) -> None:
    request.session.clear()


def session_author(request: Request) -> AuthorView | None:
    """The signed-in author, or ``None``; a session whose token was rotated or revoked since, or
    whose author is gone, is ended here (the cookie is cleared in the response)."""
    session: dict[str, Any] = request.session
    author_id, fingerprint = session.get(AUTHOR_KEY), session.get(FINGERPRINT_KEY)
    if author_id is None:
        return None
    view = None
    if isinstance(author_id, int) and isinstance(fingerprint, str):
        with service_store(request).reading() as db:
            row = db.get(Author, author_id)
            if row is not None and row.token_hash is not None and hmac.compare_digest(
                    token_fingerprint(_secret(request), row.token_hash), fingerprint):
                view = AuthorView(row.id, row.name, row.email, row.role, True)
    if view is None:
        session.clear()
    return view


Viewer = Annotated[AuthorView | None, Depends(session_author)]
"""Who is looking at a page: the signed-in author, or ``None`` for the public."""
