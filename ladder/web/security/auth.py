"""Who is asking: an author named by an API token (``Authorization: Bearer dehla_...``).

Three roles (``docs/operating.md``): public (no credentials), author, operator. A request with a
token that is malformed, unknown, revoked or rotated away is refused with 401 and the same one
line whatever the reason, so a caller learns nothing about other authors' tokens. The token is
never logged, echoed or put in an error.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, HTTPException, Request

from ladder.admin.authors import AuthorView, authenticate
from ladder.web.store_access import service_store

BEARER = "bearer"
NOT_A_TOKEN = "not a valid API token (missing, wrong, revoked or replaced by a newer one)"
NOT_AN_OPERATOR = "this needs an operator's token"


def _refused(detail: str = NOT_A_TOKEN) -> HTTPException:
    return HTTPException(401, detail, headers={"WWW-Authenticate": 'Bearer realm="dehla-arena"'})


def token_author(request: Request) -> AuthorView | None:
    """The author of the request's bearer token; ``None`` without an Authorization header."""
    header = request.headers.get("authorization")
    if header is None:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != BEARER or not token:
        raise _refused()
    author = authenticate(service_store(request), token.strip())
    if author is None:
        raise _refused()
    return author


def required_author(author: Annotated[AuthorView | None, Depends(token_author)]) -> AuthorView:
    if author is None:
        raise _refused()
    return author


def required_operator(author: Annotated[AuthorView, Depends(required_author)]) -> AuthorView:
    if not author.is_operator:
        raise HTTPException(403, NOT_AN_OPERATOR)
    return author


MaybeAuthor = Annotated[AuthorView | None, Depends(token_author)]
"""Public when ``None``; a bad token is still refused, never treated as public."""
ApiAuthor = Annotated[AuthorView, Depends(required_author)]
ApiOperator = Annotated[AuthorView, Depends(required_operator)]
