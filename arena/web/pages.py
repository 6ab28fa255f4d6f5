"""The server-rendered pages."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse
from sqlalchemy.orm import Session

from arena.web.store_access import reading_session
from arena.web.templating import templates
from ladder.views import ranking

router = APIRouter()

SessionDep = Annotated[Session, Depends(reading_session)]


@router.get("/", response_class=HTMLResponse)
def leaderboard_page(request: Request, session: SessionDep) -> HTMLResponse:
    return templates.TemplateResponse(request, "leaderboard.html", {"rows": ranking(session)})
