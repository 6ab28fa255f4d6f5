"""The JSON API (``/api/...``): the same queries as the pages, as JSON."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends
from sqlalchemy.orm import Session

from arena.web.store_access import reading_session
from ladder.views import ranking

router = APIRouter(prefix="/api", tags=["api"])

SessionDep = Annotated[Session, Depends(reading_session)]


@router.get("/leaderboard")
def leaderboard(session: SessionDep, all_versions: bool = False) -> list[dict[str, Any]]:
    """The rows of ``dehla ladder show --json``: versions by conservative rating, best first."""
    return [row.to_json() for row in ranking(session, all_versions=all_versions)]
