"""The read queries the pages and the JSON API share: each returns the API's response model,
and the page renders that same model, so a page never shows what its endpoint does not say.

The rows are the ladder's read model's (``ladder/store/read_model.py``: the rows of ``dehla ladder show
--json``, ``partnerships``, ``matches``); here they become the API's models, a page at a time.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import asdict
from typing import Any

from pydantic import TypeAdapter
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ladder.rating.provisional import is_provisional, rating_move
from ladder.rating.ratings import conservative
from ladder.store.ownership import OwnerKind, owner_label
from ladder.store.read_model import (
    MatchLine,
    PartnershipSort,
    StandingSort,
    VersionName,
    VersionStatus,
    head_to_head,
    match_lines,
    partnership_standings,
    played_partnerships,
    presets,
    ranking,
    standings,
    timing_shown,
    when,
)
from ladder.store.read_model import PartnershipStanding as PartnershipFigures
from ladder.store.schema import Author, Bot, BotVersion, FaultRow, Match, RatingChange, TimingLeakTotals
from ladder.store.timing_leaks import TimingFigures, figures
from ladder.web.models import (
    BotPage,
    FaultCount,
    HeadToHeadModel,
    HeadToHeadTable,
    Leaderboard,
    MatchList,
    MatchSummary,
    PartnershipList,
    PartnershipStanding,
    RatingMoveModel,
    SeatBot,
    StandingModel,
    VersionInfo,
    VersionSeries,
)

SERIES = TypeAdapter(list[VersionSeries])
"""A bot page's rating series, validated in one call (a model per point costs more than the query)."""

class NotFoundError(LookupError):
    """An id or name the store does not know; the pages answer 404."""


def leaderboard(session: Session, *, all_versions: bool = False, preset: str | None = None,
                sort: StandingSort = StandingSort.RANK, descending: bool = False) -> Leaderboard:
    """The ranking; with ``preset``, only the versions that played it, their counts (matches, win
    rate, faults, last played) taken from that preset's matches alone (``views.in_preset``)."""
    rows = standings(session, all_versions=all_versions, preset=preset, sort=sort, descending=descending)
    return Leaderboard(preset=preset, presets=presets(session), all_versions=all_versions, sort=sort,
                       descending=descending, rows=[StandingModel.model_validate(row.to_json()) for row in rows])


def _pages(total: int, page: int, per_page: int, what: str) -> int:
    """How many pages ``total`` rows make; a page past the last is ``NotFoundError``."""
    pages = max(1, math.ceil(total / per_page))
    if page > pages:
        raise NotFoundError(f"page {page} is past the last page ({pages}, {per_page} {what} a page)")
    return pages


def seat_bot(name: VersionName) -> SeatBot:
    return SeatBot(version_id=name.version_id, bot=name.bot, number=name.number, label=name.label)


def partnership_rows(session: Session, version_ids: set[int] | None = None,
                     sort: PartnershipSort = PartnershipSort.RANK, descending: bool = False,
                     offset: int = 0, limit: int | None = None) -> list[PartnershipStanding]:
    """``views.partnership_standings`` as the API's models."""
    return [_partnership(row) for row in partnership_standings(session, version_ids, sort, descending, offset, limit)]


def _partnership(row: PartnershipFigures) -> PartnershipStanding:
    return PartnershipStanding(
        rank=row.rank, partnership_id=row.partnership_id, members=[seat_bot(member) for member in row.members],
        rating=row.rating, mu=row.mu, sigma=row.sigma, predicted_mu=row.predicted_mu, synergy=row.synergy,
        synergy_sigma=row.synergy_sigma, matches=row.matches, win_rate=row.win_rate, last_played=row.last_played)


def partnership_list(session: Session, page: int, per_page: int, sort: PartnershipSort = PartnershipSort.RANK,
                     descending: bool = False) -> PartnershipList:
    """One page of partnerships in ``sort`` order; a page past the last is ``NotFoundError``."""
    total = played_partnerships(session)
    pages = _pages(total, page, per_page, "partnerships")
    rows = partnership_rows(session, sort=sort, descending=descending, offset=(page - 1) * per_page, limit=per_page)
    return PartnershipList(page=page, per_page=per_page, total=total, pages=pages, partnerships=rows)


def match_summaries(session: Session, *, version_ids: set[int] | None = None, offset: int = 0,
                    limit: int = 50) -> list[MatchSummary]:
    """Matches newest first; ``version_ids`` keeps those where one of them sat."""
    return [summary(line) for line in match_lines(session, version_ids=version_ids, offset=offset, limit=limit)]


def summary(line: MatchLine) -> MatchSummary:
    match = line.match
    return MatchSummary(
        match_id=match.id, status=match.status, preset=match.preset, match_format=str(match.match_format),
        team_a=[seat_bot(name) for name in line.team_a], team_b=[seat_bot(name) for name in line.team_b],
        score=line.score, winner=line.winner, faults=line.faults, finished=when(match.finished_at),
        voided=line.voided)


def match_list(session: Session, page: int, per_page: int) -> MatchList:
    """One page of matches, newest first; a page past the last is ``NotFoundError``."""
    total = session.scalar(select(func.count()).select_from(Match)) or 0
    pages = _pages(total, page, per_page, "matches")
    rows = match_summaries(session, offset=(page - 1) * per_page, limit=per_page)
    return MatchList(page=page, per_page=per_page, total=total, pages=pages, matches=rows)


def bot_page(session: Session, name: str, recent: int = 20) -> BotPage:
    bot = session.scalar(select(Bot).where(Bot.name == name))
    if bot is None:
        raise NotFoundError(f"no bot named {name!r}")
    versions = list(session.scalars(select(BotVersion).where(BotVersion.bot_id == bot.id)
                                    .order_by(BotVersion.number)))
    ids = {v.id for v in versions}
    newest = versions[-1].id if versions else None  # a bot's active version is its newest (``active_versions``)
    changes = session.execute(select(RatingChange.version_id, RatingChange.match_id, RatingChange.mu_after,
                                     RatingChange.sigma_after).where(RatingChange.version_id.in_(ids))
                              .order_by(RatingChange.id))
    points: dict[int | None, list[dict[str, float]]] = {vid: [] for vid in ids}
    for vid, mid, mu, sigma in changes:  # hundreds a version: plain dicts, validated at once below
        points[vid].append({"match_id": mid, "mu": round(mu, 3), "rating": round(conservative(mu, sigma), 3)})
    series = SERIES.validate_python([{"number": v.number, "points": points[v.id]} for v in versions])
    fault_kinds = Counter(session.scalars(select(FaultRow.kind).where(FaultRow.version_id.in_(ids))))
    recent_matches = match_summaries(session, version_ids=ids, limit=recent)
    leaks = {row.version_id: figures(row) for row in
             session.scalars(select(TimingLeakTotals).where(TimingLeakTotals.version_id.in_(ids)))}
    moved = {(change.version_id, change.match_id): change for change in session.scalars(
        select(RatingChange).where(RatingChange.match_id.in_([row.match_id for row in recent_matches]),
                                   RatingChange.version_id.in_(ids)))}
    for row in recent_matches:
        sat = {seat.version_id for seat in (*row.team_a, *row.team_b)} & ids
        made = [moved[(vid, row.match_id)] for vid in sat if (vid, row.match_id) in moved]
        results = {change.outcome for change in made}
        row.result = results.pop() if len(results) == 1 else None
        if len(made) == 1:
            c = made[0]
            row.rating_change = RatingMoveModel(**asdict(rating_move(c.outcome, c.mu_before, c.sigma_before,
                                                                     c.mu_after, c.sigma_after)))
    return BotPage(
        name=bot.name, author=owner_label(session.scalar(select(Author.name).where(Author.id == bot.owner_id))),
        owner_kind=OwnerKind.of(bot.owner_id), self_described=bot.author, created=when(bot.created_at),
        versions=[VersionInfo(number=v.number, label=v.label, content_hash=v.content_hash,
                              submitted=when(v.created_at), status=_version_status(bot, v, newest),
                              rating=round(v.conservative, 3), mu=round(v.mu, 3), sigma=round(v.sigma, 3),
                              matches=v.matches, faults=v.faults, provisional=is_provisional(v.matches, v.sigma),
                              **_timing(leaks.get(v.id)))
                  for v in versions],
        series=series, partnerships=partnership_rows(session, ids), recent_matches=recent_matches,
        faults_by_kind=[FaultCount(kind=kind, count=count) for kind, count in sorted(fault_kinds.items())],
        head_to_head=head_to_head_rows(session, bot.name))


def head_to_head_rows(session: Session, bot: str | None = None,
                      among: list[str] | None = None) -> list[HeadToHeadModel]:
    """``read_model.head_to_head`` as the API's models."""
    return [HeadToHeadModel.model_validate(row.to_json()) for row in head_to_head(session, bot, among)]


def head_to_head_table(session: Session, top: int) -> HeadToHeadTable:
    """The cross table of the leaderboard's best ``top`` bots: those of them that met another, and their pairs."""
    best = [row.bot for row in ranking(session)][:top]
    pairs = head_to_head_rows(session, among=best)
    met = {row.bot for row in pairs}
    return HeadToHeadTable(top=top, bots=[bot for bot in best if bot in met], pairs=pairs)


def _timing(leak: TimingFigures | None) -> dict[str, Any]:
    """A version's detector figures as the models name them (``views.timing_shown``; none: never measured)."""
    if leak is None:
        return {}
    bits, z, flag = timing_shown(leak)
    return {"timing_bits": bits, "timing_z": z, "timing_flag": flag}


def _version_status(bot: Bot, version: BotVersion, newest: int | None) -> VersionStatus:
    """Disabled when an operator disabled the version or its bot."""
    return VersionStatus.of(bot.disabled_at is not None or version.disabled_at is not None, version.id == newest)
