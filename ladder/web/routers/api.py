"""The JSON API (``/api/...``): the same queries as the pages, as typed JSON (``/docs``)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Query

from ladder.store.read_model import PartnershipSort, StandingSort
from ladder.web.board_cache import CacheDep, cached_leaderboard, generation
from ladder.web.bounds import DEFAULT_TOP, PageQuery, PerPageQuery, RowId, TopQuery
from ladder.web.evidence import viewed_match_detail
from ladder.web.models import (
    AuthorModel,
    BotPage,
    HeadToHeadTable,
    MatchDetail,
    MatchList,
    PartnershipList,
    Problem,
    StandingModel,
)
from ladder.web.queries import bot_page, head_to_head_table, match_list, partnership_list
from ladder.web.security.auth import ApiAuthor, MaybeAuthor, token_author
from ladder.web.store_access import SessionDep

router = APIRouter(prefix="/api", tags=["api"], responses={404: {"model": Problem}},
                   dependencies=[Depends(token_author)])
"""Every endpoint refuses a bad token, even a public one: a typo never silently reads as public."""

AllVersions = Annotated[bool, Query(alias="all", description="Include older versions of every bot.")]
Descending = Annotated[bool, Query(alias="desc", description="Sort descending.")]


@router.get("/leaderboard")
def leaderboard_rows(session: SessionDep, cache: CacheDep, all_versions: AllVersions = False,
                     preset: str | None = None, sort: StandingSort = StandingSort.RANK,
                     descending: Descending = False) -> list[StandingModel]:
    """The rows of ``dehla ladder show --json``: versions by conservative rating, best first; with
    ``preset``, only versions that played it, counted over that preset's matches (docs/web.md)."""
    return cached_leaderboard(cache, session, generation(session), all_versions=all_versions, preset=preset,
                              sort=sort, descending=descending).rows


@router.get("/partnerships")
def partnerships(session: SessionDep, sort: PartnershipSort = PartnershipSort.RANK, descending: Descending = False,
                 page: PageQuery = 1, per_page: PerPageQuery = 50) -> PartnershipList:
    """Partnerships that have played, with their synergy (docs/web.md), one page at a time."""
    return partnership_list(session, page, per_page, sort=sort, descending=descending)


@router.get("/head-to-head")
def head_to_head(session: SessionDep, top: TopQuery = DEFAULT_TOP) -> HeadToHeadTable:
    """The cross table of the best ``top`` bots that met another: each pair of them that met in rated
    matches on opposite sides, both ways round, with matches, wins, draws, losses, win rate and mean
    match scores (``dehla ladder head-to-head --json``'s rows; a bot's own rows: ``/api/bots/{name}``)."""
    return head_to_head_table(session, top)


@router.get("/bots/{name}")
def bot(session: SessionDep, name: str) -> BotPage:
    """A bot: its versions, their rating series, partnerships, recent matches and faults by kind."""
    return bot_page(session, name)


@router.get("/matches")
def matches(session: SessionDep, page: PageQuery = 1, per_page: PerPageQuery = 50) -> MatchList:
    """Matches, newest first, one page at a time."""
    return match_list(session, page, per_page)


@router.get("/matches/{match_id}")
def match(session: SessionDep, viewer: MaybeAuthor, match_id: RowId) -> MatchDetail:
    """A match: partnerships, result, deal-pair margins, faults, move times, hands to replay. A
    fault's evidence (bot output) only for the token's author's own bots (operators: all)."""
    return viewed_match_detail(session, match_id, viewer)


@router.get("/me", responses={401: {"model": Problem}})
def me(author: ApiAuthor) -> AuthorModel:
    """Who the bearer token belongs to (a way for an author to check a token)."""
    return AuthorModel(name=author.name, email=author.email, role=author.role)
