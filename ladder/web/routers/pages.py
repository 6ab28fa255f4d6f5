"""The server-rendered pages, and the fragments their live tables poll (htmx, every 3 s)."""

from __future__ import annotations

from typing import Annotated, Any
from urllib.parse import urlencode

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, Response
from sqlalchemy.orm import Session

from ladder.store.read_model import PartnershipSort, StandingSort, presets
from ladder.web.board_cache import CacheDep, GenerationCache, cached_leaderboard, generation
from ladder.web.bot_logs import viewer_log_links
from ladder.web.bounds import DEFAULT_TOP, PageQuery, PerPageQuery, RowId, TopQuery
from ladder.web.chart import rating_chart
from ladder.web.evidence import viewed_match_detail, viewed_record
from ladder.web.live_tables import abandoned_ladder_matches
from ladder.web.queries import NotFoundError, bot_page, head_to_head_table, match_list, partnership_list
from ladder.web.security.sessions import Viewer
from ladder.web.store_access import DataDep, SessionDep
from ladder.web.stored_record import UnreadableRecordError
from ladder.web.templating import templates

router = APIRouter(include_in_schema=False)

AllVersions = Annotated[bool, Query(alias="all")]
Descending = Annotated[bool, Query(alias="desc")]
REFRESH_SECONDS = 3


def query_string(**params: Any) -> str:
    """``?a=1&b=x`` of the params that are set (False, None and the default sort are left out)."""
    kept = {key: int(value) if isinstance(value, bool) else value for key, value in params.items()
            if value not in (None, False, "") and not (key == "sort" and value == "rank")}
    return "?" + urlencode(kept) if kept else ""


templates.env.globals["qs"] = query_string


def _render(request: Request, template: str, context: dict[str, Any], status_code: int = 200) -> HTMLResponse:
    return templates.TemplateResponse(request, template, {"refresh": REFRESH_SECONDS, **context},
                                      status_code=status_code)


def _board(request: Request, session: Session, cache: GenerationCache, template: str, all_versions: bool,
           preset: str | None, sort: StandingSort, descending: bool) -> HTMLResponse:
    """The leaderboard page or its polled fragment, rendered once per store generation (``board_cache``)."""
    now = generation(session)

    def rendered() -> bytes:
        board = cached_leaderboard(cache, session, now, all_versions=all_versions, preset=preset, sort=sort,
                                   descending=descending)
        return bytes(_render(request, template, {"board": board, "tab": "versions"}).body)

    page = (template, str(request.base_url), all_versions, preset, sort, descending)  # links are absolute (url_for)
    return HTMLResponse(cache.get(page, now, rendered))


@router.get("/", response_class=HTMLResponse)
def leaderboard_page(request: Request, session: SessionDep, cache: CacheDep, all_versions: AllVersions = False,
                     preset: str | None = None, sort: StandingSort = StandingSort.RANK,
                     descending: Descending = False) -> HTMLResponse:
    return _board(request, session, cache, "leaderboard.html", all_versions, preset, sort, descending)


@router.get("/fragments/leaderboard", response_class=HTMLResponse)
def leaderboard_fragment(request: Request, session: SessionDep, cache: CacheDep, all_versions: AllVersions = False,
                         preset: str | None = None, sort: StandingSort = StandingSort.RANK,
                         descending: Descending = False) -> HTMLResponse:
    return _board(request, session, cache, "fragments/leaderboard.html", all_versions, preset, sort, descending)


def _partnerships(request: Request, session: Session, template: str, sort: PartnershipSort,
                  descending: bool, page: int, per_page: int) -> HTMLResponse:
    listing = partnership_list(session, page, per_page, sort=sort, descending=descending)
    return _render(request, template, {"listing": listing, "rows": listing.partnerships, "sort": sort.value,
                                       "descending": descending, "presets": presets(session),
                                       "tab": "partnerships"})


@router.get("/partnerships", response_class=HTMLResponse)
def partnerships_page(request: Request, session: SessionDep, sort: PartnershipSort = PartnershipSort.RANK,
                      descending: Descending = False, page: PageQuery = 1, per_page: PerPageQuery = 50) -> HTMLResponse:
    return _partnerships(request, session, "partnerships.html", sort, descending, page, per_page)


@router.get("/fragments/partnerships", response_class=HTMLResponse)
def partnerships_fragment(request: Request, session: SessionDep, sort: PartnershipSort = PartnershipSort.RANK,
                          descending: Descending = False, page: PageQuery = 1,
                          per_page: PerPageQuery = 50) -> HTMLResponse:
    return _partnerships(request, session, "fragments/partnerships.html", sort, descending, page, per_page)


@router.get("/head-to-head", response_class=HTMLResponse)
def head_to_head_page(request: Request, session: SessionDep, top: TopQuery = DEFAULT_TOP) -> HTMLResponse:
    """The cross table: each pair of bots' record against each other (``read_model.head_to_head``)."""
    table = head_to_head_table(session, top)
    cells = {(row.bot, row.opponent): row for row in table.pairs}
    return _render(request, "head_to_head.html", {"table": table, "cells": cells, "tab": "head-to-head"})


@router.get("/bots/{name}", response_class=HTMLResponse)
def bot_page_view(request: Request, session: SessionDep, data: DataDep, name: str) -> HTMLResponse:
    page = bot_page(session, name)
    return _render(request, "bot.html", {"bot": page, "chart": rating_chart(page.series),
                                         "abandoned": abandoned_ladder_matches(data.root, page.recent_matches)})


@router.get("/matches", response_class=HTMLResponse)
def matches_page(request: Request, session: SessionDep, data: DataDep, page: PageQuery = 1,
                 per_page: PerPageQuery = 50) -> HTMLResponse:
    listing = match_list(session, page, per_page)
    return _render(request, "matches.html", {"listing": listing,
                                             "abandoned": abandoned_ladder_matches(data.root, listing.matches)})


@router.get("/fragments/matches", response_class=HTMLResponse)
def matches_fragment(request: Request, session: SessionDep, data: DataDep, page: PageQuery = 1,
                     per_page: PerPageQuery = 50) -> HTMLResponse:
    listing = match_list(session, page, per_page)
    abandoned = abandoned_ladder_matches(data.root, listing.matches)
    return _render(request, "fragments/matches.html", {"listing": listing, "abandoned": abandoned})


@router.get("/matches/{match_id}", response_class=HTMLResponse)
def match_page(request: Request, session: SessionDep, viewer: Viewer, match_id: RowId) -> HTMLResponse:
    """Fault evidence (bot output) only for the signed-in owner of that seat's bot (``bot_logs``)."""
    return _render(request, "match.html", {"detail": viewed_match_detail(session, match_id, viewer),
                                           "logs": viewer_log_links(session, match_id, viewer)})


@router.get("/matches/{match_id}/record")
def match_record(session: SessionDep, viewer: Viewer, match_id: RowId) -> Response:
    """The record as stored, as an attachment with a fixed name, less the fault evidence of the
    bots the viewer does not own."""
    try:
        content = viewed_record(session, match_id, viewer)
    except UnreadableRecordError as exc:
        raise NotFoundError(str(exc)) from None
    return Response(content, media_type="application/x-ndjson",
                    headers={"Content-Disposition": f'attachment; filename="match-{match_id}.jsonl"',
                             "Cache-Control": "private, no-cache", "Vary": "Cookie"})
