"""A running ladder match's public table: ``/matches/{id}/live`` and its ``/live/table`` fragment,
polled by htmx, which sends the page to the replay once the store has the match's result.
The table is what a worker of the coordinator's local pool publishes (``DATA/live/``,
``ladder.web.live_tables``), or the coordinator writes there from a Dask worker's events
(``ladder.execution.live_relay``); a file that stopped beating is shown as abandoned. A local
match's live page is ``routers/local.py``'s."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse

from ladder.store.read_model import match_status
from ladder.store.schema import MatchStatus
from ladder.web.bounds import RowId
from ladder.web.live_tables import Watch, Watched, ladder_live, watched
from ladder.web.queries import NotFoundError
from ladder.web.store_access import DataDep, SessionDep
from ladder.web.templating import templates

router = APIRouter()

NOT_ENDED = (MatchStatus.QUEUED, MatchStatus.RUNNING)


def _watched(session: SessionDep, data: DataDep, match_id: int) -> Watched:
    status = match_status(session, match_id)
    if status is None:
        raise NotFoundError(f"no match {match_id}")
    return watched(data.root, ladder_live(match_id), ended=status not in NOT_ENDED)


def _replay_of(match_id: int) -> str:
    return f"/matches/{match_id}/replay?hand=1"


@router.get("/matches/{match_id}/live", response_class=HTMLResponse, include_in_schema=False, response_model=None)
def ladder_live_page(request: Request, session: SessionDep, data: DataDep,
                     match_id: RowId) -> HTMLResponse | RedirectResponse:
    seen = _watched(session, data, match_id)
    if seen.watch is Watch.ENDED:
        return RedirectResponse(_replay_of(match_id), status_code=303)
    return templates.TemplateResponse(request, "live.html", {
        "heading": f"Live: match #{match_id}", "match_id": match_id, "page": f"/matches/{match_id}",
        "list": "/matches", "poll": f"/matches/{match_id}/live/table", "seen": seen})


@router.get("/matches/{match_id}/live/table", response_class=HTMLResponse, include_in_schema=False)
def ladder_live_table(request: Request, session: SessionDep, data: DataDep, match_id: RowId) -> HTMLResponse:
    seen = _watched(session, data, match_id)
    if seen.watch is Watch.ENDED:
        return HTMLResponse("", headers={"HX-Redirect": _replay_of(match_id), "Cache-Control": "no-store"})
    response = templates.TemplateResponse(request, "fragments/live_table.html",
                                          {"poll": f"/matches/{match_id}/live/table", "seen": seen})
    response.headers["Cache-Control"] = "no-store"
    return response
