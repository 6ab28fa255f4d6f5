"""The API of an author's own data, by bearer token (never the session cookie): their bots,
matches, and their bots' logs (``bot_logs.py`` says who may read a log). Their uploads are
``/api/uploads`` (``uploads.py``)."""

from __future__ import annotations

from fastapi import APIRouter, Depends

from ladder.web.author_models import BotLogModel, MyBot, MyMatch
from ladder.web.author_queries import my_bots, my_matches
from ladder.web.bot_logs import ValidationCheck, match_log, validation_log
from ladder.web.bounds import RowId, SeatIndex
from ladder.web.models import Problem
from ladder.web.security.auth import ApiAuthor, token_author
from ladder.web.store_access import DataDep, SessionDep

router = APIRouter(prefix="/api", tags=["authors"], dependencies=[Depends(token_author)],
                   responses={401: {"model": Problem}})


@router.get("/me/bots")
def bots(session: SessionDep, author: ApiAuthor) -> list[MyBot]:
    """The bots the token's author owns, with every version and its status."""
    return my_bots(session, author)


@router.get("/me/matches")
def matches(session: SessionDep, author: ApiAuthor) -> list[MyMatch]:
    """The newest matches the author's bots played, with where each of their seats' logs is."""
    return my_matches(session, author)


@router.get("/matches/{match_id}/logs/{seat}", responses={403: {"model": Problem}, 404: {"model": Problem}})
def seat_log(session: SessionDep, author: ApiAuthor, match_id: RowId, seat: SeatIndex) -> BotLogModel:
    """The log of the bot at ``seat``: for its owner and operators only (403 for anyone else)."""
    return match_log(session, author, match_id, seat)


@router.get("/versions/{version_id}/validation/{check}/{seat}",
            responses={403: {"model": Problem}, 404: {"model": Problem}})
def version_validation_log(session: SessionDep, data: DataDep, author: ApiAuthor, version_id: RowId,
                           check: ValidationCheck, seat: SeatIndex) -> BotLogModel:
    """A version's log from one of its validation matches: for its owner and operators only."""
    return validation_log(session, data, author, version_id, check, seat)
