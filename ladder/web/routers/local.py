"""The data folder's local matches (``dehla match`` records): their list, each one's page, record
and replay viewer, with the ladder's templates and the replay's frame builders.

``/local`` lists them (``/api/local-matches`` as JSON), ``/local/{id}`` is a match's page,
``/local/{id}/replay?hand=N`` its viewer (``/api/local-matches/{id}/hands/{hand}/replay`` its
data), ``/local/{id}/record`` the record, ``/local/{id}/live`` a running match's public table (its
``/live/table`` fragment polled by htmx), which turns into the replay when the match ends.
An id is the record's name without ``.jsonl`` and must match
``LOCAL_MATCH_ID``: anything else (``..``, an encoded slash) is refused before a file is named.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Request
from fastapi import Path as PathParam
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from arena.console.serving import LOCAL_MATCH_ID
from arena.replay.frames import parse_perspective
from ladder.admin.authors import AuthorView
from ladder.web.bounds import HandQuery, Number, PageQuery, PerPageQuery, StepQuery
from ladder.web.data_files import DataFileError
from ladder.web.evidence import withhold_record_evidence
from ladder.web.live_tables import Watch, Watched, local_live, watched
from ladder.web.local_matches import (
    SummaryCache,
    local_detail,
    local_file,
    local_list,
    page_of,
    read_local,
    record_bytes,
)
from ladder.web.local_models import LocalMatchDetail, LocalMatchList
from ladder.web.replay_cache import ReplayCache
from ladder.web.routers.replay import (
    UNREADABLE_STATUS,
    HandReplayBody,
    MissingReplayError,
    SeatQuery,
    ViewerLinks,
    error_page,
    replay_body,
    viewer_page,
)
from ladder.web.security.auth import MaybeAuthor, token_author
from ladder.web.security.sessions import Viewer
from ladder.web.store_access import DataDep
from ladder.web.stored_record import UnreadableRecordError
from ladder.web.templating import templates

router = APIRouter()

CHECKED_TOKEN = [Depends(token_author)]
"""As every ``/api`` route: a bearer token, if sent, must be valid (never the session cookie)."""

LocalId = Annotated[str, PathParam(pattern=f"^{LOCAL_MATCH_ID.pattern}$", max_length=120,
                                   description="A local match: its record's file name without `.jsonl`.")]


class LocalReplayResponse(HandReplayBody):
    """A local match's hand."""

    match_id: str


def summary_cache(request: Request) -> SummaryCache:
    """The service's rows already read (one per application, made on first use)."""
    cache: SummaryCache | None = getattr(request.app.state, "local_summaries", None)
    if cache is None:
        cache = request.app.state.local_summaries = SummaryCache()
    return cache


def local_replays(request: Request) -> ReplayCache[bytes]:
    cache: ReplayCache[bytes] | None = getattr(request.app.state, "local_replays", None)
    if cache is None:
        cache = request.app.state.local_replays = ReplayCache()
    return cache


def _render(request: Request, template: str, context: dict[str, Any]) -> HTMLResponse:
    return templates.TemplateResponse(request, template, context)


@router.get("/local", response_class=HTMLResponse, include_in_schema=False)
def local_matches_page(request: Request, data: DataDep, page: PageQuery = 1,
                       per_page: PerPageQuery = 50) -> HTMLResponse:
    listing = local_list(data.root, summary_cache(request), page, per_page)
    return _render(request, "local_matches.html", {"listing": listing})


@router.get("/api/local-matches", response_model=LocalMatchList, tags=["api"], dependencies=CHECKED_TOKEN)
def local_matches_api(request: Request, data: DataDep, page: PageQuery = 1,
                      per_page: PerPageQuery = 50) -> LocalMatchList:
    """The data folder's local matches (``dehla match`` records), newest first; not rated."""
    return local_list(data.root, summary_cache(request), page, per_page)


def _viewer_sees_evidence(viewer: AuthorView | None) -> bool:
    return viewer is not None and viewer.is_operator


@router.get("/local/{match_id}", response_class=HTMLResponse, include_in_schema=False)
def local_match_page(request: Request, data: DataDep, viewer: Viewer, match_id: LocalId) -> HTMLResponse:
    """Fault evidence (what a bot said) for operators only: a local match may seat an author's bot."""
    detail = local_detail(data.root, match_id, show_evidence=_viewer_sees_evidence(viewer))
    return _render(request, "local_match.html", {"detail": detail})


@router.get("/api/local-matches/{match_id}", response_model=LocalMatchDetail, tags=["api"])
def local_match_api(data: DataDep, viewer: MaybeAuthor, match_id: LocalId) -> LocalMatchDetail:
    """A local match's facts, or why its record cannot be read (``record_problem``); fault evidence
    for an operator's token only."""
    return local_detail(data.root, match_id, show_evidence=_viewer_sees_evidence(viewer))


@router.get("/local/{match_id}/record", include_in_schema=False)
def local_match_record(data: DataDep, viewer: Viewer, match_id: LocalId) -> Response:
    """The record as written, with a fixed name, less the fault evidence unless an operator asks."""
    try:
        content = record_bytes(data.root, match_id)
        if not _viewer_sees_evidence(viewer):
            content = withhold_record_evidence(content, frozenset())
    except (UnreadableRecordError, DataFileError) as exc:
        raise HTTPException(404, f"local match {match_id}: {exc}") from None
    return Response(content, media_type="application/x-ndjson",
                    headers={"Content-Disposition": f'attachment; filename="{match_id}.jsonl"',
                             "Cache-Control": "private, no-cache", "Vary": "Cookie"})


@router.get("/api/local-matches/{match_id}/hands/{hand}/replay", response_model=LocalReplayResponse, tags=["api"],
            dependencies=CHECKED_TOKEN,
            responses={404: {"description": "No such local match or hand"},
                       UNREADABLE_STATUS: {"description": "A bad seat, or the record cannot be read"}})
def local_replay_data(request: Request, data: DataDep, match_id: LocalId, hand: Number,
                      seat: SeatQuery = "all") -> Response:
    """A local match's hand, step by step, for the perspective ``seat`` (as the ladder's replays)."""
    file = local_file(data.root, match_id)

    def compute() -> bytes:
        record = read_local(data.root, match_id)
        body = replay_body(f"local match {match_id}", record, hand, parse_perspective(seat))
        return LocalReplayResponse(match_id=match_id, **dict(body)).model_dump_json().encode()

    try:
        return Response(local_replays(request).get(file.identity, hand, seat, compute), media_type="application/json")
    except UnreadableRecordError as exc:
        raise HTTPException(UNREADABLE_STATUS, str(exc)) from None
    except MissingReplayError as exc:
        raise HTTPException(404, exc.what) from None


@router.get("/local/{match_id}/replay", response_class=HTMLResponse, include_in_schema=False)
def local_replay_page(request: Request, data: DataDep, match_id: LocalId, hand: HandQuery = 1, step: StepQuery = 0,
                      seat: SeatQuery = "all", duplicate: bool = False) -> HTMLResponse:
    """The ladder's viewer over a local match's record."""
    try:
        record = read_local(data.root, match_id)
    except UnreadableRecordError as exc:
        return error_page(request, 200, "This match's record cannot be read", str(exc), page_of(match_id))
    return viewer_page(request, record, hand, step, seat, duplicate, ViewerLinks(
        match_id=match_id, label=f"local match {match_id}", heading=f"Local match {match_id}",
        page=page_of(match_id), data=f"/api/local-matches/{match_id}/hands/"))


def _watched(request: Request, root: Path, match_id: str) -> Watched:
    row = summary_cache(request).row(root, local_file(root, match_id))
    return watched(root, local_live(match_id), ended=row.status not in ("unfinished", None))


def _replay_of(match_id: str) -> str:
    return f"{page_of(match_id)}/replay?hand=1"


@router.get("/local/{match_id}/live", response_class=HTMLResponse, include_in_schema=False, response_model=None)
def local_live_page(request: Request, data: DataDep, match_id: LocalId) -> HTMLResponse | RedirectResponse:
    """A running match's public table, polled (htmx) from ``/live/table``; a match that has ended
    is its replay."""
    seen = _watched(request, data.root, match_id)
    if seen.watch is Watch.ENDED:
        return RedirectResponse(_replay_of(match_id), status_code=303)
    return _render(request, "live.html", {"heading": f"Live: local match {match_id}", "match_id": match_id,
                                          "page": page_of(match_id), "list": "/local",
                                          "poll": f"{page_of(match_id)}/live/table", "seen": seen})


@router.get("/local/{match_id}/live/table", response_class=HTMLResponse, include_in_schema=False)
def local_live_table(request: Request, data: DataDep, match_id: LocalId) -> HTMLResponse:
    """The table fragment the live page polls; when the match has ended, htmx is sent to the replay."""
    seen = _watched(request, data.root, match_id)
    if seen.watch is Watch.ENDED:
        return HTMLResponse("", headers={"HX-Redirect": _replay_of(match_id), "Cache-Control": "no-store"})
    response = _render(request, "fragments/live_table.html", {"poll": f"{page_of(match_id)}/live/table", "seen": seen})
    response.headers["Cache-Control"] = "no-store"
    return response
