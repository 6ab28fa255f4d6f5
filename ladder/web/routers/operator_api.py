"""The operator's API (``/api/operator/...``): the switches of ``dehla operator`` and the author
management of ``dehla author``, for a bearer token of an operator (``docs/operating.md``).

No token or a bad one: 401; an author's token: 403 (``ladder/web/security/auth.py``). A refusal is one
line in ``detail``: 404 for an unknown bot, version, match or author, 409 for an author who exists
already, 400 for a malformed target or reason or a match that was never rated. A new token is in
the one response that issues it, marked ``Cache-Control: no-store``, and in nothing else.
These are the only routes of the service that write the store.
"""

from __future__ import annotations

from fastapi import APIRouter, HTTPException, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from ladder.admin.authors import (
    AuthorError,
    AuthorView,
    IssuedToken,
    add_author,
    find_author,
    list_authors,
    revoke_token,
    rotate_token,
)
from ladder.admin.operator import (
    OperatorError,
    Switched,
    Target,
    UnknownError,
    disable,
    enable,
    switched_line,
    void_match,
)
from ladder.rating.ratings import RatingEnv
from ladder.store.database import Store
from ladder.store.schema import Role
from ladder.web.board_cache import board_cache
from ladder.web.bounds import Number, RowId
from ladder.web.models import Problem
from ladder.web.request_models import RequestModel
from ladder.web.security.auth import ApiOperator
from ladder.web.store_access import StoreDep, service_store

router = APIRouter(prefix="/api/operator", tags=["operator"],
                   responses={400: {"model": Problem}, 401: {"model": Problem}, 403: {"model": Problem},
                              404: {"model": Problem}})


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SwitchModel(_Model):
    target: str = Field(description="`BOT` (every version) or `BOT@N`.")
    changed: bool = Field(description="False: it was already so; nothing changed.")
    cancelled: list[int] = Field(description="Queued matches cancelled (void, never played, not rated).")
    message: str


class VoidRequest(RequestModel):
    reason: str = Field(description="Why (one line, up to 500 characters); shown with the match.")


class VoidModel(_Model):
    match_id: int
    reason: str
    voided_at: str
    already: bool = Field(description="True: it had been voided before (this reason kept); nothing changed.")
    later_matches: int | None = Field(description="Rated matches recorded after it.")
    recomputed: int | None = Field(description="Of those, the ones whose ratings moved.")


class AuthorRequest(RequestModel):
    name: str
    email: str | None = None
    operator: bool = False


class AuthorListed(_Model):
    """An author as the operator sees them: never a token or its hash."""

    name: str
    email: str | None
    role: Role
    token: str = Field(description="`active` or `revoked`.")


class IssuedModel(_Model):
    author: AuthorListed
    token: str = Field(description="The new API token: shown in this response only; keep it safe.")


def _listed(author: AuthorView) -> AuthorListed:
    return AuthorListed(name=author.name, email=author.email, role=author.role,
                        token="active" if author.has_token else "revoked")


def _issued(issued: IssuedToken, response: Response) -> IssuedModel:
    response.headers["Cache-Control"] = "no-store"
    return IssuedModel(author=_listed(issued.author), token=issued.token)


def _refusal(exc: OperatorError | AuthorError, status: int = 400) -> HTTPException:
    return HTTPException(404 if isinstance(exc, UnknownError) else status, str(exc))




def _switch(request: Request, spec: str, on: bool) -> SwitchModel:
    try:
        target = Target.parse(spec)
        done: Switched = (enable if on else disable)(service_store(request), target)
    except OperatorError as exc:
        raise _refusal(exc) from None
    board_cache(request).clear()  # the leaderboard marks it at once (the generation cannot see it)
    return SwitchModel(target=str(target), changed=done.changed, cancelled=list(done.cancelled),
                       message=switched_line(done, "enabled" if on else "disabled"))


@router.post("/bots/{name}/disable")
def disable_bot(request: Request, operator: ApiOperator, name: str) -> SwitchModel:
    """Never schedule the bot (any version) again; its queued matches are cancelled."""
    return _switch(request, name, on=False)


@router.post("/bots/{name}/enable")
def enable_bot(request: Request, operator: ApiOperator, name: str) -> SwitchModel:
    """Schedule the bot again (cancelled matches stay cancelled)."""
    return _switch(request, name, on=True)


@router.post("/bots/{name}/versions/{number}/disable")
def disable_version(request: Request, operator: ApiOperator, name: str, number: Number) -> SwitchModel:
    """Never schedule this version again; its queued matches are cancelled."""
    return _switch(request, f"{name}@{number}", on=False)


@router.post("/bots/{name}/versions/{number}/enable")
def enable_version(request: Request, operator: ApiOperator, name: str, number: Number) -> SwitchModel:
    return _switch(request, f"{name}@{number}", on=True)


@router.post("/matches/{match_id}/void")
def void(request: Request, operator: ApiOperator, match_id: RowId, body: VoidRequest) -> VoidModel:
    """Void a played match: its rating changes are undone (every later rating re-computed)."""
    try:
        done = void_match(service_store(request), RatingEnv(), match_id, body.reason)
    except OperatorError as exc:
        raise _refusal(exc) from None
    board_cache(request).clear()
    return VoidModel(match_id=done.match_id, reason=done.reason, voided_at=done.voided_at.isoformat(timespec="seconds"),
                     already=done.already, later_matches=done.rerated.later_matches if done.rerated else None,
                     recomputed=done.rerated.recomputed if done.rerated else None)


@router.get("/authors")
def authors(store: StoreDep, operator: ApiOperator) -> list[AuthorListed]:
    return [_listed(author) for author in list_authors(store)]


@router.post("/authors", status_code=201, responses={409: {"model": Problem}})
def add(store: StoreDep, operator: ApiOperator, body: AuthorRequest, response: Response) -> IssuedModel:
    """Create an author; the response carries their first token (and nothing else ever will)."""
    if any(author.name == body.name for author in list_authors(store)):
        raise HTTPException(409, f"author {body.name!r} exists already (a new token: POST "
                                 f"/api/operator/authors/{body.name}/rotate)")
    try:
        issued = add_author(store, body.name, body.email, Role.OPERATOR if body.operator else Role.AUTHOR)
    except AuthorError as exc:
        raise HTTPException(400, str(exc)) from None
    return _issued(issued, response)


def _known(store: Store, name: str) -> None:
    try:
        find_author(store, name)
    except AuthorError as exc:
        raise HTTPException(404, str(exc)) from None


@router.post("/authors/{name}/rotate")
def rotate(store: StoreDep, operator: ApiOperator, name: str, response: Response) -> IssuedModel:
    """A new token for the author (in this response only); the old one stops working."""
    _known(store, name)
    try:
        issued = rotate_token(store, name)
    except AuthorError as exc:
        raise HTTPException(404, str(exc)) from None
    return _issued(issued, response)


@router.post("/authors/{name}/revoke")
def revoke(store: StoreDep, operator: ApiOperator, name: str) -> AuthorListed:
    """End the author's token (an operator revoking their own ends their access too)."""
    _known(store, name)
    try:
        return _listed(revoke_token(store, name))
    except AuthorError as exc:
        raise HTTPException(404, str(exc)) from None
