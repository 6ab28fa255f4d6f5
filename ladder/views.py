"""Read-only views of the store for ``dehla ladder show / partnerships / history / matches``."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from datetime import datetime
from typing import Any

from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session

from arena.contract.status import OutcomeStatus
from ladder.ownership import owner_label
from ladder.ratings import Skill, TeamResult
from ladder.schema import (
    Author,
    Bot,
    BotVersion,
    FaultRow,
    Match,
    MatchStatus,
    Partnership,
    RatingChange,
    Result,
    TimingLeakTotals,
)
from ladder.timing import totals_figures


def _when(value: datetime | None) -> str | None:
    return value.isoformat(timespec="seconds") if value else None


def _rate(wins: int, draws: int, matches: int) -> float | None:
    return round((wins + 0.5 * draws) / matches, 4) if matches else None


def active_versions(session: Session) -> list[BotVersion]:
    """The newest version of every bot, unless an operator disabled it or its bot
    (``ladder/operator.py``): the ones the ladder schedules. A disabled newest version leaves its
    bot out; the older ones are not brought back."""
    newest = select(BotVersion.bot_id, func.max(BotVersion.number).label("number")).group_by(BotVersion.bot_id)
    sub = newest.subquery()
    query = select(BotVersion).join(sub, (BotVersion.bot_id == sub.c.bot_id) & (BotVersion.number == sub.c.number)) \
        .join(Bot, Bot.id == BotVersion.bot_id).where(Bot.disabled_at.is_(None), BotVersion.disabled_at.is_(None))
    return list(session.scalars(query.order_by(BotVersion.id)))


@dataclass(frozen=True, slots=True)
class Standing:
    rank: int
    bot: str
    author: str
    """The owning account's name (or the house's): never the manifest's own ``author`` text."""
    version: str
    """``#N (label)``: submission number within the bot and the manifest's version."""
    version_id: int
    rating: float
    mu: float
    sigma: float
    matches: int
    win_rate: float | None
    """(wins + draws / 2) / matches."""
    faults: int
    last_played: str | None
    disabled: bool
    """An operator disabled the version or its bot: shown, never scheduled."""
    timing_bits: float | None = None
    """The timing-leak detector's mean excess bits per decision (None: never measured)."""
    timing_z: float | None = None
    """Its combined z over the version's measured seats."""
    timing_flag: bool = False
    """Over the documented threshold (``ladder/timing.py``, docs/ladder.md): its move times say
    what its cards are."""

    def to_json(self) -> dict[str, Any]:
        """Its fields as a dict: shallow (every value is a plain one), not ``asdict``'s deep copy."""
        return {name: getattr(self, name) for name in STANDING_FIELDS}

    @property
    def note(self) -> str | None:
        """What a table shows beside the numbers."""
        notes = [text for text, shown in (("disabled", self.disabled), ("timing leak", self.timing_flag)) if shown]
        return ", ".join(notes) or None


STANDING_FIELDS = tuple(field.name for field in fields(Standing))


def version_names(session: Session) -> dict[int, str]:
    return {v.id: f"{name}#{v.number}" for v, name in
            session.execute(select(BotVersion, Bot.name).join(Bot, Bot.id == BotVersion.bot_id))}


def ranking(session: Session, all_versions: bool = False, enabled_only: bool = False) -> list[Standing]:
    """Versions by conservative rating (mu - 3 sigma), best first; by default each bot's newest,
    disabled ones included (marked) unless ``enabled_only``. One query of plain columns: a
    ladder-size leaderboard is read on every page view."""
    query = select(BotVersion.id, BotVersion.number, BotVersion.label, BotVersion.mu, BotVersion.sigma,
                   BotVersion.matches, BotVersion.wins, BotVersion.draws, BotVersion.faults,
                   BotVersion.last_played_at, Bot.name, Author.name,
                   (Bot.disabled_at.is_not(None) | BotVersion.disabled_at.is_not(None)).label("disabled"),
                   TimingLeakTotals.seats, TimingLeakTotals.decisions, TimingLeakTotals.weighted_bits,
                   TimingLeakTotals.z_sum) \
        .join(Bot, Bot.id == BotVersion.bot_id).outerjoin(Author, Author.id == Bot.owner_id) \
        .outerjoin(TimingLeakTotals, TimingLeakTotals.version_id == BotVersion.id)
    if not all_versions:
        newest = select(BotVersion.bot_id, func.max(BotVersion.number).label("number")) \
            .group_by(BotVersion.bot_id).subquery()
        query = query.join(newest, (BotVersion.bot_id == newest.c.bot_id) & (BotVersion.number == newest.c.number))
    if enabled_only:
        query = query.where(Bot.disabled_at.is_(None), BotVersion.disabled_at.is_(None))
    rows = sorted(session.execute(query), key=lambda v: (-Skill(v[3], v[4]).conservative, v[0]))
    return [_standing(rank, row) for rank, row in enumerate(rows, 1)]


def _standing(rank: int, row: Any) -> Standing:
    (vid, number, label, mu, sigma, matches, wins, draws, faults, last, name, author, disabled,
     *timing) = row
    leak = totals_figures(*timing)
    return Standing(rank, name, owner_label(author), f"#{number} ({label})", vid,
                    round(Skill(mu, sigma).conservative, 3), round(mu, 3), round(sigma, 3), matches,
                    _rate(wins, draws, matches), faults, _when(last), bool(disabled),
                    round(leak.bits, 4) if leak else None, round(leak.z, 2) if leak else None,
                    leak.flagged if leak else False)


@dataclass(frozen=True, slots=True)
class PartnershipRow:
    rank: int
    partnership: str
    rating: float
    mu: float
    sigma: float
    matches: int
    win_rate: float | None
    last_played: str | None

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def partnerships(session: Session) -> list[PartnershipRow]:
    names = version_names(session)
    rows = sorted(session.scalars(select(Partnership).where(Partnership.matches > 0)),
                  key=lambda p: (-p.skill.conservative, p.id))
    return [PartnershipRow(rank, f"{names[p.low_id]}+{names[p.high_id]}", round(p.skill.conservative, 3),
                           round(p.mu, 3), round(p.sigma, 3), p.matches, _rate(p.wins, p.draws, p.matches),
                           _when(p.last_played_at))
            for rank, p in enumerate(rows, 1)]


@dataclass(frozen=True, slots=True)
class HistoryRow:
    match_id: int
    version: str
    outcome: TeamResult
    mu: float
    sigma: float
    rating: float
    change: float
    """Change of the conservative rating."""
    when: str | None

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def history(session: Session, bot: str) -> list[HistoryRow]:
    query = (select(RatingChange, BotVersion.number)
             .join(BotVersion, BotVersion.id == RatingChange.version_id)
             .join(Bot, Bot.id == BotVersion.bot_id)
             .where(Bot.name == bot).order_by(RatingChange.id))
    rows = []
    for change, number in session.execute(query):
        after = change.mu_after - 3 * change.sigma_after
        before = change.mu_before - 3 * change.sigma_before
        rows.append(HistoryRow(change.match_id, f"#{number}", change.outcome, round(change.mu_after, 3),
                               round(change.sigma_after, 3), round(after, 3), round(after - before, 3),
                               _when(change.created_at)))
    return rows


@dataclass(frozen=True, slots=True)
class MatchRow:
    match_id: int
    status: MatchStatus
    team_a: str
    team_b: str
    score: tuple[float, float] | None
    winner: str | None
    """``A``, ``B``, ``draw`` or None (not rated)."""
    faults: int
    record: str | None
    finished: str | None
    voided: str | None = None
    """The operator's reason, when an operator voided the match (or cancelled it before play)."""

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @property
    def shown_status(self) -> str:
        return "voided" if self.voided is not None else self.status.value


def matches(session: Session, bot: str | None = None, limit: int = 50) -> list[MatchRow]:
    names = version_names(session)
    query = select(Match, Result).outerjoin(Result, Result.match_id == Match.id)
    if bot is not None:
        ids = list(session.scalars(select(BotVersion.id).join(Bot, Bot.id == BotVersion.bot_id)
                                   .where(Bot.name == bot)))
        seats = (Match.seat0_id, Match.seat1_id, Match.seat2_id, Match.seat3_id)
        query = query.where(or_(*(seat.in_(ids) for seat in seats)))
    rows = []
    fault_counts = _fault_counts(session)
    for match, result in session.execute(query.order_by(Match.id.desc()).limit(limit)):
        winner = None
        if result is not None and result.status is OutcomeStatus.DONE and match.voided_at is None:
            winner = "draw" if result.winner_team is None else "AB"[result.winner_team]
        voided = (match.void_note or "") if match.voided_at is not None else None
        rows.append(MatchRow(match.id, match.status, f"{names[match.seat0_id]}+{names[match.seat2_id]}",
                             f"{names[match.seat1_id]}+{names[match.seat3_id]}",
                             (result.score_a, result.score_b) if result else None, winner,
                             fault_counts.get(match.id, 0), match.record_path, _when(match.finished_at), voided))
    return rows


def _fault_counts(session: Session) -> dict[int, int]:
    query = select(FaultRow.match_id, func.count()).group_by(FaultRow.match_id)
    return {match_id: count for match_id, count in session.execute(query)}

