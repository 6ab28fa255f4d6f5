"""The read queries the pages and the JSON API share: each returns the API's response model,
and the page renders that same model, so a page never shows what its endpoint does not say.

The leaderboard's rows are ``ladder.views.ranking``'s (the rows of ``dehla ladder show --json``).
"""

from __future__ import annotations

import math
from collections import Counter
from datetime import datetime
from enum import StrEnum
from typing import Any, TypeVar

from pydantic import TypeAdapter
from sqlalchemy import ColumnElement, func, or_, select, true, union
from sqlalchemy.orm import InstrumentedAttribute, Session, aliased

from arena.contract.status import OutcomeStatus
from arena.web.models import (
    BotPage,
    FaultCount,
    Leaderboard,
    MatchList,
    MatchSummary,
    PartnershipList,
    PartnershipStanding,
    SeatBot,
    StandingModel,
    VersionInfo,
    VersionSeries,
)
from ladder.ownership import OwnerKind, owner_label
from ladder.ratings import LADDER_PARAMS
from ladder.schema import (
    Author,
    Bot,
    BotVersion,
    FaultRow,
    Match,
    Partnership,
    PresetCounts,
    RatingChange,
    Result,
    TimingLeakTotals,
)
from ladder.timing import TimingFigures, figures
from ladder.views import ranking

Row = TypeVar("Row", StandingModel, PartnershipStanding)
SERIES = TypeAdapter(list[VersionSeries])
"""A bot page's rating series, validated in one call (a model per point costs more than the query)."""


class NotFoundError(LookupError):
    """An id or name the store does not know; the pages answer 404."""


def when(value: datetime | None) -> str | None:
    return value.isoformat(timespec="seconds") if value else None


def _rate(wins: int, draws: int, matches: int) -> float | None:
    return round((wins + 0.5 * draws) / matches, 4) if matches else None


class StandingSort(StrEnum):
    """The leaderboard's sortable columns (``?sort=``)."""

    RANK = "rank"
    BOT = "bot"
    AUTHOR = "author"
    VERSION = "version"
    RATING = "rating"
    MU = "mu"
    SIGMA = "sigma"
    MATCHES = "matches"
    WIN_RATE = "win_rate"
    FAULTS = "faults"
    LAST_PLAYED = "last_played"


class PartnershipSort(StrEnum):
    RANK = "rank"
    RATING = "rating"
    MU = "mu"
    SIGMA = "sigma"
    SYNERGY = "synergy"
    MATCHES = "matches"
    WIN_RATE = "win_rate"
    LAST_PLAYED = "last_played"


def presets(session: Session) -> list[str]:
    """The rules presets the ladder has played, in name order: one index seek per preset
    (``ix_matches_preset``) rather than a DISTINCT over every match."""
    found: list[str] = []
    while (following := session.scalar(select(func.min(Match.preset)).where(
            Match.preset > found[-1] if found else true()))) is not None:
        found.append(following)
    return found


def _sorted(rows: list[Row], key: str, descending: bool) -> list[Row]:
    """``rows`` by ``key``; missing values (never played, no win rate) go last either way."""
    present = [row for row in rows if getattr(row, key) is not None]
    missing = [row for row in rows if getattr(row, key) is None]
    present.sort(key=lambda row: (getattr(row, key), row.rank), reverse=descending)
    return present + missing


def leaderboard(session: Session, *, all_versions: bool = False, preset: str | None = None,
                sort: StandingSort = StandingSort.RANK, descending: bool = False) -> Leaderboard:
    """The ranking; with ``preset``, only the versions that played it, their counts (matches, win
    rate, faults, last played) taken from that preset's matches alone. A version has one rating
    across presets, so rating, mu and sigma stay the version's own (see docs/web.md)."""
    rows = [StandingModel.model_validate(row.to_json()) for row in ranking(session, all_versions)]
    if preset is not None:
        rows = _in_preset(session, rows, preset)
    return Leaderboard(preset=preset, presets=presets(session), all_versions=all_versions, sort=sort.value,
                       descending=descending, rows=_sorted(rows, sort.value, descending))


def _in_preset(session: Session, rows: list[StandingModel], preset: str) -> list[StandingModel]:
    """``rows`` that played ``preset``, with its counts: one row a version from ``preset_counts``,
    which the ladder keeps as it records a result (``ladder/results.py``)."""
    played = select(PresetCounts.version_id, PresetCounts.matches, PresetCounts.wins, PresetCounts.draws,
                    PresetCounts.faults, PresetCounts.last_played_at) \
        .where(PresetCounts.preset == preset, PresetCounts.matches > 0)
    counts = {vid: (n, wins, draws, faults, last) for vid, n, wins, draws, faults, last in session.execute(played)}
    kept: list[StandingModel] = []
    for row in rows:
        if row.version_id not in counts:
            continue
        n, wins, draws, faults, last = counts[row.version_id]
        kept.append(row.model_copy(update={"rank": len(kept) + 1, "matches": n, "win_rate": _rate(wins, draws, n),
                                           "faults": faults, "last_played": when(last)}))
    return kept


def predicted_mu(mu_a: float, mu_b: float) -> float:
    """What two members' ratings predict for their partnership's own rating (docs/web.md, synergy):
    members are rated in two-player teams (performance spread 2 beta), a partnership as one player
    (spread sqrt(2) beta), so the members' combined edge over the start, scaled by 1/sqrt(2), is the
    same win probability on the partnership's scale."""
    start = LADDER_PARAMS.mu
    return start + ((mu_a - start) + (mu_b - start)) / math.sqrt(2)


def _pages(total: int, page: int, per_page: int, what: str) -> int:
    """How many pages ``total`` rows make; a page past the last is ``NotFoundError``."""
    pages = max(1, math.ceil(total / per_page))
    if page > pages:
        raise NotFoundError(f"page {page} is past the last page ({pages}, {per_page} {what} a page)")
    return pages


def partnership_rows(session: Session, version_ids: set[int] | None = None,
                     sort: PartnershipSort = PartnershipSort.RANK, descending: bool = False,
                     offset: int = 0, limit: int | None = None) -> list[PartnershipStanding]:
    """Partnerships that have played, ranked by conservative rating, with their synergy; sorted
    and cut to ``offset``/``limit`` in SQL (thousands of pairs on a ladder: a top-N sort, no
    window function, which SQLite evaluates over every row). ``version_ids`` keeps only those
    with a member among them (a bot's page), ranked among themselves."""
    low, high = aliased(BotVersion), aliased(BotVersion)
    conservative = Partnership.mu - 3 * Partnership.sigma
    start = LADDER_PARAMS.mu
    expected = start + ((low.mu - start) + (high.mu - start)) / math.sqrt(2)
    keys = {PartnershipSort.RATING: conservative, PartnershipSort.MU: Partnership.mu,
            PartnershipSort.SIGMA: Partnership.sigma, PartnershipSort.SYNERGY: Partnership.mu - expected,
            PartnershipSort.MATCHES: Partnership.matches,
            PartnershipSort.WIN_RATE: (Partnership.wins + 0.5 * Partnership.draws) / Partnership.matches,
            PartnershipSort.LAST_PLAYED: _to_the_second(session, Partnership.last_played_at)}
    played = Partnership.matches > 0
    if version_ids is not None:
        played = played & or_(Partnership.low_id.in_(version_ids), Partnership.high_id.in_(version_ids))
    order = [conservative.desc(), Partnership.id] if not descending else [conservative, Partnership.id.desc()]
    if sort is not PartnershipSort.RANK:  # missing values last either way, ties by rank in the sort's direction
        key = keys[sort]
        order = [key.is_(None), key.desc() if descending else key, *order]
    query = select(Partnership, low.mu, low.sigma, high.mu, high.sigma) \
        .join(low, low.id == Partnership.low_id).join(high, high.id == Partnership.high_id).where(played)
    found = list(session.execute(query.order_by(*order).offset(offset).limit(limit)))
    if sort is PartnershipSort.RANK and not descending:
        ranks = {p.id: offset + place for place, (p, *_) in enumerate(found, 1)}
    else:  # a rank is a place in the rating order: the ids in that order (no rows, no joins)
        ids = session.scalars(select(Partnership.id).where(played).order_by(conservative.desc(), Partnership.id))
        ranks = {pid: place for place, pid in enumerate(ids, 1)}
    members = _seat_bots(session, {vid for p, *_ in found for vid in (p.low_id, p.high_id)})
    return [_standing(p, members, low_mu, low_sigma, high_mu, high_sigma, ranks[p.id])
            for p, low_mu, low_sigma, high_mu, high_sigma in found]


def _to_the_second(session: Session, column: InstrumentedAttribute[datetime | None]) -> ColumnElement[Any]:
    """A time as the pages show it (whole seconds), so that equal shown times tie and go by rank:
    SQLite stores ``YYYY-MM-DD HH:MM:SS.ffffff`` text, PostgreSQL truncates a timestamp."""
    if session.get_bind().dialect.name == "sqlite":
        return func.substr(column, 1, 19)
    return func.date_trunc("second", column)


def _standing(unit: Partnership, members: dict[int, SeatBot], low_mu: float, low_sigma: float, high_mu: float,
              high_sigma: float, rank: int) -> PartnershipStanding:
    expected = predicted_mu(low_mu, high_mu)
    spread = math.sqrt(unit.sigma**2 + (low_sigma**2 + high_sigma**2) / 2)
    return PartnershipStanding(
        rank=rank, partnership_id=unit.id, members=[members[unit.low_id], members[unit.high_id]],
        rating=round(unit.skill.conservative, 3), mu=round(unit.mu, 3), sigma=round(unit.sigma, 3),
        predicted_mu=round(expected, 3), synergy=round(unit.mu - expected, 3), synergy_sigma=round(spread, 3),
        matches=unit.matches, win_rate=_rate(unit.wins, unit.draws, unit.matches),
        last_played=when(unit.last_played_at))


def partnership_list(session: Session, page: int, per_page: int, sort: PartnershipSort = PartnershipSort.RANK,
                     descending: bool = False) -> PartnershipList:
    """One page of partnerships in ``sort`` order; a page past the last is ``NotFoundError``."""
    total = session.scalar(select(func.count()).select_from(Partnership).where(Partnership.matches > 0)) or 0
    pages = _pages(total, page, per_page, "partnerships")
    rows = partnership_rows(session, sort=sort, descending=descending, offset=(page - 1) * per_page, limit=per_page)
    return PartnershipList(page=page, per_page=per_page, total=total, pages=pages, partnerships=rows)


def _seat_bots(session: Session, version_ids: set[int]) -> dict[int, SeatBot]:
    query = select(BotVersion.id, BotVersion.number, BotVersion.label, Bot.name) \
        .join(Bot, Bot.id == BotVersion.bot_id).where(BotVersion.id.in_(version_ids))
    return {vid: SeatBot(version_id=vid, bot=name, number=number, label=label)
            for vid, number, label, name in session.execute(query)}


def match_summaries(session: Session, *, version_ids: set[int] | None = None, offset: int = 0,
                    limit: int = 50) -> list[MatchSummary]:
    """Matches newest first; ``version_ids`` keeps those where one of them sat."""
    query = select(Match, Result).outerjoin(Result, Result.match_id == Match.id)
    if version_ids is not None:  # the newest ids per seat from its index alone, then the rows of the newest of those
        seats = (Match.seat0_id, Match.seat1_id, Match.seat2_id, Match.seat3_id)
        per_seat = (select(Match.id).where(seat.in_(version_ids)).order_by(Match.id.desc()).limit(offset + limit)
                    .subquery() for seat in seats)  # a subquery each: SQLite takes no LIMIT in a UNION's member
        newest = union(*(select(seat.c.id) for seat in per_seat))
        query = query.where(Match.id.in_(select(newest.subquery().c.id)))
    found = list(session.execute(query.order_by(Match.id.desc()).offset(offset).limit(limit)))
    ids = [match.id for match, _ in found]
    faults = dict(session.execute(select(FaultRow.match_id, func.count()).where(FaultRow.match_id.in_(ids))
                                  .group_by(FaultRow.match_id)).all())
    seat_bots = _seat_bots(session, {vid for match, _ in found for vid in match.seats})
    return [summary(match, result, seat_bots, faults.get(match.id, 0)) for match, result in found]


def summary(match: Match, result: Result | None, seat_bots: dict[int, SeatBot], faults: int) -> MatchSummary:
    winner = None
    if result is not None and result.status is OutcomeStatus.DONE and match.voided_at is None:
        winner = "draw" if result.winner_team is None else "AB"[result.winner_team]
    return MatchSummary(
        match_id=match.id, status=match.status.value, preset=match.preset, match_format=match.match_format,
        team_a=[seat_bots[match.seat0_id], seat_bots[match.seat2_id]],
        team_b=[seat_bots[match.seat1_id], seat_bots[match.seat3_id]],
        score=(result.score_a, result.score_b) if result else None, winner=winner, faults=faults,
        finished=when(match.finished_at), voided=(match.void_note or "") if match.voided_at is not None else None)


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
    active = {versions[-1].id} if versions else set()  # a bot's active version is its newest (``active_versions``)
    changes = session.execute(select(RatingChange.version_id, RatingChange.match_id, RatingChange.mu_after,
                                     RatingChange.sigma_after).where(RatingChange.version_id.in_(ids))
                              .order_by(RatingChange.id))
    points: dict[int | None, list[dict[str, float]]] = {vid: [] for vid in ids}
    for vid, mid, mu, sigma in changes:  # hundreds a version: plain dicts, validated at once below
        points[vid].append({"match_id": mid, "mu": round(mu, 3), "rating": round(mu - 3 * sigma, 3)})
    series = SERIES.validate_python([{"number": v.number, "points": points[v.id]} for v in versions])
    fault_kinds = Counter(session.scalars(select(FaultRow.kind).where(FaultRow.version_id.in_(ids))))
    recent_matches = match_summaries(session, version_ids=ids, limit=recent)
    leaks = {row.version_id: figures(row) for row in
             session.scalars(select(TimingLeakTotals).where(TimingLeakTotals.version_id.in_(ids)))}
    outcome = {(vid, mid): result for vid, mid, result in session.execute(
        select(RatingChange.version_id, RatingChange.match_id, RatingChange.outcome)
        .where(RatingChange.match_id.in_([row.match_id for row in recent_matches]),
               RatingChange.version_id.in_(ids)))}
    for row in recent_matches:
        sat = {seat.version_id for seat in (*row.team_a, *row.team_b)} & ids
        results = {outcome[(vid, row.match_id)].value for vid in sat if (vid, row.match_id) in outcome}
        row.result = results.pop() if len(results) == 1 else None
    return BotPage(
        name=bot.name, author=owner_label(session.scalar(select(Author.name).where(Author.id == bot.owner_id))),
        owner_kind=OwnerKind.of(bot.owner_id).value, self_described=bot.author, created=when(bot.created_at),
        versions=[VersionInfo(number=v.number, label=v.label, content_hash=v.content_hash,
                              submitted=when(v.created_at), status=_version_status(bot, v, active),
                              rating=round(v.skill.conservative, 3), mu=round(v.mu, 3), sigma=round(v.sigma, 3),
                              matches=v.matches, faults=v.faults, **_timing(leaks.get(v.id)))
                  for v in versions],
        series=series, partnerships=partnership_rows(session, ids), recent_matches=recent_matches,
        faults_by_kind=[FaultCount(kind=kind.value, count=count) for kind, count in sorted(fault_kinds.items())])


def _timing(leak: TimingFigures | None) -> dict[str, Any]:
    """A version's detector figures as the models name them (``ladder/timing.py``)."""
    if leak is None:
        return {}
    return {"timing_bits": round(leak.bits, 4), "timing_z": round(leak.z, 2), "timing_flag": leak.flagged}


def _version_status(bot: Bot, version: BotVersion, active: set[int]) -> str:
    if bot.disabled_at is not None or version.disabled_at is not None:
        return "disabled"
    return "active" if version.id in active else "superseded"
