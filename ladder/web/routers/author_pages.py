"""Signing in and out, and an author's own pages: their bots, uploads and bots' logs.

Every form carries the session's CSRF token (``csrf.py`` checks it); the sign-in form posts the
API token, which is checked as the API checks it and never echoed, logged or kept (the session
keeps the author's id and a fingerprint of the token's hash, ``sessions.py``).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response

from ladder.admin.authors import TOKEN_PATTERN, authenticate, hash_secret
from ladder.store.read_model import ranking
from ladder.submission.intake import uploads_of
from ladder.web.author_models import BotLogModel
from ladder.web.author_queries import my_bots, my_matches
from ladder.web.bot_logs import ValidationCheck, match_log, upload_output, validation_log
from ladder.web.bounds import RowId, SeatIndex
from ladder.web.models import MatchSummary
from ladder.web.security.csrf import CSRF_FIELD, csrf_token
from ladder.web.security.sessions import Viewer, sign_in, sign_out
from ladder.web.store_access import DataDep, SessionDep, service_store
from ladder.web.templating import templates

router = APIRouter(include_in_schema=False)

PRIVATE = {"Cache-Control": "private, no-store", "X-Frame-Options": "DENY"}
"""An author's own pages are never kept by a shared cache, nor framed by another site (whose page
could then trick a click on the sign-out button)."""
RAW_LOG_HEADERS = {**PRIVATE, "X-Content-Type-Options": "nosniff", "Content-Security-Policy": "default-src 'none'",
                   "Content-Disposition": "inline"}
WRONG_TOKEN = "That is not a valid API token (wrong, revoked, or replaced by a newer one)."
MAX_TOKEN_CHARS = 200


def _render(request: Request, template: str, context: dict[str, Any], status_code: int = 200) -> HTMLResponse:
    return templates.TemplateResponse(request, template, {"csrf": csrf_token(request), "csrf_field": CSRF_FIELD,
                                                          **context}, status_code=status_code, headers=PRIVATE)


@router.get("/signin", response_class=HTMLResponse)
def signin_form(request: Request, viewer: Viewer) -> HTMLResponse:
    return _render(request, "signin.html", {"viewer": viewer, "problem": None})


@router.post("/signin", response_class=HTMLResponse)
def signin(request: Request, token: Annotated[str, Form(max_length=MAX_TOKEN_CHARS)] = "") -> Response:
    """A valid token starts a new session and goes to the author's page; anything else is the form
    again with one line (the same whatever was wrong), and no session."""
    token = token.strip()
    author = authenticate(service_store(request), token)
    match = TOKEN_PATTERN.fullmatch(token)
    if author is None or match is None:
        return _render(request, "signin.html", {"viewer": None, "problem": WRONG_TOKEN}, status_code=401)
    sign_in(request, author.id, hash_secret(match.group(2)))
    return RedirectResponse("/me", status_code=303)


@router.post("/signout")
def signout(request: Request) -> Response:
    sign_out(request)
    return RedirectResponse("/", status_code=303)


@router.get("/me", response_class=HTMLResponse)
def my_page(request: Request, session: SessionDep, viewer: Viewer) -> Response:
    if viewer is None:
        return RedirectResponse("/signin", status_code=303)
    bots = my_bots(session, viewer)
    matches = my_matches(session, viewer)
    board = {row.version_id: row for row in ranking(session)}
    every = {row.version_id: row for row in ranking(session, all_versions=True)}
    mine = {bot.name for bot in bots}
    return _render(request, "me.html", {"viewer": viewer, "bots": bots, "board": board, "ratings": every,
                                        "uploads": uploads_of(service_store(request), viewer.id),
                                        "matches": matches,
                                        "results": {mm.match.match_id: result_for(mine, mm.match) for mm in matches},
                                        "server": str(request.base_url)})


def result_for(mine: set[str], match: MatchSummary) -> str:
    """The match's result for the author's bots: ``win``, ``loss``, ``draw``, ``both sides`` (their
    bots on each team), or ``–`` (not rated)."""
    sides = {team for team, seats in (("A", match.team_a), ("B", match.team_b)) if any(s.bot in mine for s in seats)}
    if match.winner is None or not sides:
        return "–"
    if len(sides) == 2:
        return "both sides"
    if match.winner == "draw":
        return "draw"
    return "win" if match.winner in sides else "loss"


def _log_page(request: Request, log: BotLogModel, raw: str) -> HTMLResponse:
    return _render(request, "bot_log.html", {"log": log, "raw": raw})


def _raw(log: BotLogModel) -> PlainTextResponse:
    """The log as text/plain (UTF-8, nosniff): a browser never renders it as a page."""
    return PlainTextResponse(log.text, headers=RAW_LOG_HEADERS)


@router.get("/matches/{match_id}/logs/{seat}", response_class=HTMLResponse)
def match_log_page(request: Request, session: SessionDep, viewer: Viewer, match_id: RowId,
                   seat: SeatIndex) -> HTMLResponse:
    return _log_page(request, match_log(session, viewer, match_id, seat),
                     f"/matches/{match_id}/logs/{seat}/raw")


@router.get("/matches/{match_id}/logs/{seat}/raw")
def match_log_raw(session: SessionDep, viewer: Viewer, match_id: RowId, seat: SeatIndex) -> PlainTextResponse:
    return _raw(match_log(session, viewer, match_id, seat))


@router.get("/versions/{version_id}/validation/{check}/{seat}", response_class=HTMLResponse)
def validation_log_page(request: Request, session: SessionDep, data: DataDep, viewer: Viewer, version_id: RowId,
                        check: ValidationCheck, seat: SeatIndex) -> HTMLResponse:
    return _log_page(request, validation_log(session, data, viewer, version_id, check, seat),
                     f"/versions/{version_id}/validation/{check.value}/{seat}/raw")


@router.get("/versions/{version_id}/validation/{check}/{seat}/raw")
def validation_log_raw(session: SessionDep, data: DataDep, viewer: Viewer, version_id: RowId, check: ValidationCheck,
                       seat: SeatIndex) -> PlainTextResponse:
    return _raw(validation_log(session, data, viewer, version_id, check, seat))


@router.get("/me/uploads/{upload_id}/log", response_class=HTMLResponse)
def upload_log_page(request: Request, viewer: Viewer, upload_id: RowId) -> Response:
    if viewer is None:
        return RedirectResponse("/signin", status_code=303)
    return _log_page(request, upload_output(service_store(request), viewer, upload_id),
                     f"/me/uploads/{upload_id}/log/raw")


@router.get("/me/uploads/{upload_id}/log/raw")
def upload_log_raw(request: Request, viewer: Viewer, upload_id: RowId) -> Response:
    if viewer is None:
        return RedirectResponse("/signin", status_code=303)
    return _raw(upload_output(service_store(request), viewer, upload_id))
