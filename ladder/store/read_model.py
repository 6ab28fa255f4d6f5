"""The read model: every read-only query of the store that ``dehla ladder show / partnerships /
history / matches``, the pages and the JSON API give (``ladder/web/queries.py`` shapes these rows
into the API's models), so that a page, its endpoint and the command line show the same rows.

One rule each: who won a match (``winner``), a version's status (``VersionStatus.of``), a rating's
ranking key (``Rated.conservative``, in Python and in SQL alike), a partnership's synergy
(``predicted_mu``), how a time and a win rate are shown (``when``, ``win_rate``), how two bots did
against each other (``head_to_head``).
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable
from dataclasses import asdict, dataclass, fields, replace
from datetime import datetime
from enum import StrEnum
from typing import Any, Protocol, TypeVar

from sqlalchemy import ColumnElement, Subquery, func, or_, select, true, union
from sqlalchemy.orm import InstrumentedAttribute, Session, aliased

from arena.contract.status import OutcomeStatus
from ladder.rating.provisional import is_provisional
from ladder.rating.ratings import LADDER_PARAMS, TeamResult, conservative
from ladder.store.ownership import owner_label
from ladder.store.schema import (
    Author,
    Bot,
    BotVersion,
    FaultRow,
    Match,
    MatchStatus,
    Partnership,
    PresetCounts,
    RatingChange,
    Result,
    TimingLeakTotals,
)
from ladder.store.timing_leaks import TimingFigures, totals_figures


def when(value: datetime | None) -> str | None:
    """A time as every view shows it: ISO 8601 to the second (None: never)."""
    return value.isoformat(timespec="seconds") if value else None


def win_rate(wins: int, draws: int, matches: int) -> float | None:
    """(wins + draws / 2) / matches, to 4 places; None before the first match."""
    return round((wins + 0.5 * draws) / matches, 4) if matches else None


class Winner(StrEnum):
    """A rated match's winner: partnership A (seats 0 and 2), B (seats 1 and 3), or neither."""

    A = "A"
    B = "B"
    DRAW = "draw"


def winner(match: Match, result: Result | None) -> Winner | None:
    """The winner of a rated match: played to the end (or forfeited) and not voided; None otherwise."""
    if result is None or result.status is not OutcomeStatus.DONE or match.voided_at is not None:
        return None
    return Winner.DRAW if result.winner_team is None else (Winner.A, Winner.B)[result.winner_team]


def void_note(match: Match) -> str | None:
    """The operator's reason, when an operator voided the match (or cancelled it before play)."""
    return (match.void_note or "") if match.voided_at is not None else None


class VersionStatus(StrEnum):
    """Where a version stands: the one the ladder schedules, an older one, or disabled."""

    ACTIVE = "active"
    """Its bot's newest version (``active_versions``)."""
    SUPERSEDED = "superseded"
    DISABLED = "disabled"
    """By an operator (``ladder/admin/operator.py``): shown, never scheduled."""

    @classmethod
    def of(cls, disabled: bool, newest: bool) -> VersionStatus:
        if disabled:
            return cls.DISABLED
        return cls.ACTIVE if newest else cls.SUPERSEDED


def timing_shown(leak: TimingFigures | None) -> tuple[float | None, float | None, bool]:
    """A version's timing-leak figures as the views show them: bits, z and the flag."""
    if leak is None:
        return None, None, False
    return round(leak.bits, 4), round(leak.z, 2), leak.flagged


# ------------------------------------------------------------------ versions
@dataclass(frozen=True, slots=True)
class VersionName:
    """A bot version as a seat or a partnership member shows it: ``name#N``."""

    version_id: int
    bot: str
    number: int
    label: str

    def __str__(self) -> str:
        return f"{self.bot}#{self.number}"


def version_names(session: Session, version_ids: Collection[int] | None = None) -> dict[int, VersionName]:
    """The names of ``version_ids`` (default: of every version)."""
    query = select(BotVersion.id, BotVersion.number, BotVersion.label, Bot.name).join(Bot, Bot.id == BotVersion.bot_id)
    if version_ids is not None:
        query = query.where(BotVersion.id.in_(version_ids))
    return {vid: VersionName(vid, name, number, label) for vid, number, label, name in session.execute(query)}


def bot_version_ids(session: Session, bot: str) -> set[int]:
    """The ids of every version of the bot named ``bot`` (none if there is no such bot)."""
    return set(session.scalars(select(BotVersion.id).join(Bot, Bot.id == BotVersion.bot_id).where(Bot.name == bot)))


def _newest_numbers() -> Subquery:
    """Each bot's newest version number, as a subquery."""
    return select(BotVersion.bot_id, func.max(BotVersion.number).label("number")).group_by(BotVersion.bot_id) \
        .subquery()


def active_versions(session: Session) -> list[BotVersion]:
    """The newest version of every bot, unless an operator disabled it or its bot
    (``ladder/admin/operator.py``): the ones the ladder schedules. A disabled newest version leaves its
    bot out; the older ones are not brought back."""
    sub = _newest_numbers()
    query = select(BotVersion).join(sub, (BotVersion.bot_id == sub.c.bot_id) & (BotVersion.number == sub.c.number)) \
        .join(Bot, Bot.id == BotVersion.bot_id).where(Bot.disabled_at.is_(None), BotVersion.disabled_at.is_(None))
    return list(session.scalars(query.order_by(BotVersion.id)))


# ------------------------------------------------------------------ the ranking
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
    """Over the documented threshold (``ladder/store/timing_leaks.py``, docs/ladder.md): its move times say
    what its cards are."""

    def to_json(self) -> dict[str, Any]:
        """Its fields as a dict: shallow (every value is a plain one), not ``asdict``'s deep copy."""
        return {**{name: getattr(self, name) for name in STANDING_FIELDS}, "provisional": self.provisional}

    @property
    def provisional(self) -> bool:
        """Too few matches or too large a σ for its rank to mean much yet (``is_provisional``)."""
        return is_provisional(self.matches, self.sigma)

    @property
    def note(self) -> str | None:
        """What a table shows beside the numbers."""
        notes = [text for text, shown in (("provisional", self.provisional), ("disabled", self.disabled),
                                          ("timing leak", self.timing_flag)) if shown]
        return ", ".join(notes) or None


STANDING_FIELDS = tuple(field.name for field in fields(Standing))


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
        newest = _newest_numbers()
        query = query.join(newest, (BotVersion.bot_id == newest.c.bot_id) & (BotVersion.number == newest.c.number))
    if enabled_only:
        query = query.where(Bot.disabled_at.is_(None), BotVersion.disabled_at.is_(None))
    rows = sorted(session.execute(query), key=lambda v: (-conservative(v[3], v[4]), v[0]))
    return [_standing(rank, row) for rank, row in enumerate(rows, 1)]


def _standing(rank: int, row: Any) -> Standing:
    (vid, number, label, mu, sigma, matches, wins, draws, faults, last, name, author, disabled,
     *timing) = row
    return Standing(rank, name, owner_label(author), f"#{number} ({label})", vid,
                    round(conservative(mu, sigma), 3), round(mu, 3), round(sigma, 3), matches,
                    win_rate(wins, draws, matches), faults, when(last), bool(disabled),
                    *timing_shown(totals_figures(*timing)))


def presets(session: Session) -> list[str]:
    """The rules presets the ladder has played, in name order: one index seek per preset
    (``ix_matches_preset``) rather than a DISTINCT over every match."""
    found: list[str] = []
    while (following := session.scalar(select(func.min(Match.preset)).where(
            Match.preset > found[-1] if found else true()))) is not None:
        found.append(following)
    return found


def in_preset(session: Session, rows: list[Standing], preset: str) -> list[Standing]:
    """``rows`` that played ``preset``, ranked among themselves, with its counts (matches, win
    rate, faults, last played) from ``preset_counts``, which the ladder keeps as it records a
    result (``ladder/coordinator/results.py``). A version has one rating across presets, so rating, mu and
    sigma stay the version's own (see docs/web.md)."""
    played = select(PresetCounts.version_id, PresetCounts.matches, PresetCounts.wins, PresetCounts.draws,
                    PresetCounts.faults, PresetCounts.last_played_at) \
        .where(PresetCounts.preset == preset, PresetCounts.matches > 0)
    counts = {vid: (n, wins, draws, faults, last) for vid, n, wins, draws, faults, last in session.execute(played)}
    kept: list[Standing] = []
    for row in rows:
        if row.version_id not in counts:
            continue
        n, wins, draws, faults, last = counts[row.version_id]
        kept.append(replace(row, rank=len(kept) + 1, matches=n, win_rate=win_rate(wins, draws, n), faults=faults,
                            last_played=when(last)))
    return kept


class _Ranked(Protocol):
    @property
    def rank(self) -> int: ...


Ranked = TypeVar("Ranked", bound=_Ranked)


def sorted_rows(rows: list[Ranked], key: str, descending: bool) -> list[Ranked]:
    """``rows`` by their field ``key``, ties by rank; missing values (never played, no win rate)
    go last either way."""
    present = [row for row in rows if getattr(row, key) is not None]
    missing = [row for row in rows if getattr(row, key) is None]
    present.sort(key=lambda row: (getattr(row, key), row.rank), reverse=descending)
    return present + missing


def standings(session: Session, *, all_versions: bool = False, preset: str | None = None,
              sort: StandingSort = StandingSort.RANK, descending: bool = False) -> list[Standing]:
    """The leaderboard: the ranking (``dehla ladder show``'s rows), with ``preset`` only the
    versions that played it (``in_preset``), in ``sort`` order."""
    rows = ranking(session, all_versions)
    if preset is not None:
        rows = in_preset(session, rows, preset)
    return sorted_rows(rows, sort.value, descending)


# ------------------------------------------------------------------ partnerships
class PartnershipSort(StrEnum):
    RANK = "rank"
    RATING = "rating"
    MU = "mu"
    SIGMA = "sigma"
    SYNERGY = "synergy"
    MATCHES = "matches"
    WIN_RATE = "win_rate"
    LAST_PLAYED = "last_played"


def predicted_mu(mu_a: float, mu_b: float) -> float:
    """What two members' ratings predict for their partnership's own rating (docs/web.md, synergy):
    members are rated in two-player teams (performance spread 2 beta), a partnership as one player
    (spread sqrt(2) beta), so the members' combined edge over the start, scaled by 1/sqrt(2), is the
    same win probability on the partnership's scale. Plain arithmetic: on columns, the SQL of it."""
    start = LADDER_PARAMS.mu
    return start + ((mu_a - start) + (mu_b - start)) / math.sqrt(2)


@dataclass(frozen=True, slots=True)
class PartnershipStanding:
    """A partnership that has played, its rank and rating, and its synergy."""

    rank: int
    partnership_id: int
    members: tuple[VersionName, VersionName]
    rating: float
    mu: float
    sigma: float
    predicted_mu: float
    synergy: float
    synergy_sigma: float
    matches: int
    win_rate: float | None
    last_played: str | None


def played_partnerships(session: Session) -> int:
    """How many partnerships have played."""
    return session.scalar(select(func.count()).select_from(Partnership).where(Partnership.matches > 0)) or 0


def partnership_standings(session: Session, version_ids: set[int] | None = None,
                          sort: PartnershipSort = PartnershipSort.RANK, descending: bool = False,
                          offset: int = 0, limit: int | None = None) -> list[PartnershipStanding]:
    """Partnerships that have played, ranked by conservative rating, with their synergy; sorted
    and cut to ``offset``/``limit`` in SQL (thousands of pairs on a ladder: a top-N sort, no
    window function, which SQLite evaluates over every row). ``version_ids`` keeps only those
    with a member among them (a bot's page), ranked among themselves."""
    low, high = aliased(BotVersion), aliased(BotVersion)
    rating = Partnership.conservative
    synergy = Partnership.mu - predicted_mu(low.mu, high.mu)  # type: ignore[arg-type]
    keys = {PartnershipSort.RATING: rating, PartnershipSort.MU: Partnership.mu,
            PartnershipSort.SIGMA: Partnership.sigma, PartnershipSort.SYNERGY: synergy,
            PartnershipSort.MATCHES: Partnership.matches,
            PartnershipSort.WIN_RATE: (Partnership.wins + 0.5 * Partnership.draws) / Partnership.matches,
            PartnershipSort.LAST_PLAYED: _to_the_second(session, Partnership.last_played_at)}
    played = Partnership.matches > 0
    if version_ids is not None:
        played = played & (Partnership.low_id.in_(version_ids) | Partnership.high_id.in_(version_ids))
    order = [rating.desc(), Partnership.id] if not descending else [rating, Partnership.id.desc()]
    if sort is not PartnershipSort.RANK:  # missing values last either way, ties by rank in the sort's direction
        key = keys[sort]
        order = [key.is_(None), key.desc() if descending else key, *order]
    query = select(Partnership, low.mu, low.sigma, high.mu, high.sigma) \
        .join(low, low.id == Partnership.low_id).join(high, high.id == Partnership.high_id).where(played)
    found = list(session.execute(query.order_by(*order).offset(offset).limit(limit)))
    if sort is PartnershipSort.RANK and not descending:
        ranks = {p.id: offset + place for place, (p, *_) in enumerate(found, 1)}
    else:  # a rank is a place in the rating order: the ids in that order (no rows, no joins)
        ids = session.scalars(select(Partnership.id).where(played).order_by(rating.desc(), Partnership.id))
        ranks = {pid: place for place, pid in enumerate(ids, 1)}
    names = version_names(session, {vid for p, *_ in found for vid in (p.low_id, p.high_id)})
    return [_partnership(p, names, low_mu, low_sigma, high_mu, high_sigma, ranks[p.id])
            for p, low_mu, low_sigma, high_mu, high_sigma in found]


def _to_the_second(session: Session, column: InstrumentedAttribute[datetime | None]) -> ColumnElement[Any]:
    """A time as the views show it (whole seconds), so that equal shown times tie and go by rank:
    SQLite stores ``YYYY-MM-DD HH:MM:SS.ffffff`` text, PostgreSQL truncates a timestamp."""
    if session.get_bind().dialect.name == "sqlite":
        return func.substr(column, 1, 19)
    return func.date_trunc("second", column)


def _partnership(unit: Partnership, names: dict[int, VersionName], low_mu: float, low_sigma: float, high_mu: float,
                 high_sigma: float, rank: int) -> PartnershipStanding:
    expected = predicted_mu(low_mu, high_mu)
    spread = math.sqrt(unit.sigma**2 + (low_sigma**2 + high_sigma**2) / 2)
    return PartnershipStanding(
        rank=rank, partnership_id=unit.id, members=(names[unit.low_id], names[unit.high_id]),
        rating=round(unit.conservative, 3), mu=round(unit.mu, 3), sigma=round(unit.sigma, 3),
        predicted_mu=round(expected, 3), synergy=round(unit.mu - expected, 3), synergy_sigma=round(spread, 3),
        matches=unit.matches, win_rate=win_rate(unit.wins, unit.draws, unit.matches),
        last_played=when(unit.last_played_at))


@dataclass(frozen=True, slots=True)
class PartnershipRow:
    """A row of ``dehla ladder partnerships``."""

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
    return [PartnershipRow(row.rank, "+".join(map(str, row.members)), row.rating, row.mu, row.sigma, row.matches,
                           row.win_rate, row.last_played)
            for row in partnership_standings(session)]


# ------------------------------------------------------------------ rating history
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
        after = conservative(change.mu_after, change.sigma_after)
        before = conservative(change.mu_before, change.sigma_before)
        rows.append(HistoryRow(change.match_id, f"#{number}", change.outcome, round(change.mu_after, 3),
                               round(change.sigma_after, 3), round(after, 3), round(after - before, 3),
                               when(change.created_at)))
    return rows


# ------------------------------------------------------------------ matches
@dataclass(frozen=True, slots=True)
class MatchLine:
    """A match as the match lists show it: its row, its result if it has one, its seats' names and
    how many faults it stored."""

    match: Match
    result: Result | None
    seats: tuple[VersionName, VersionName, VersionName, VersionName]
    faults: int

    @property
    def team_a(self) -> tuple[VersionName, VersionName]:
        return self.seats[0], self.seats[2]

    @property
    def team_b(self) -> tuple[VersionName, VersionName]:
        return self.seats[1], self.seats[3]

    @property
    def score(self) -> tuple[float, float] | None:
        return (self.result.score_a, self.result.score_b) if self.result else None

    @property
    def winner(self) -> Winner | None:
        return winner(self.match, self.result)

    @property
    def voided(self) -> str | None:
        return void_note(self.match)


def match_lines(session: Session, *, version_ids: set[int] | None = None, offset: int = 0,
                limit: int = 50) -> list[MatchLine]:
    """Matches newest first; ``version_ids`` keeps those where one of them sat."""
    query = select(Match, Result).outerjoin(Result, Result.match_id == Match.id)
    if version_ids is not None:  # the newest ids per seat from its index alone, then the rows of the newest of those
        per_seat = (select(Match.id).where(seat.in_(version_ids)).order_by(Match.id.desc()).limit(offset + limit)
                    .subquery() for seat in Match.seat_columns())  # a subquery each: SQLite takes no LIMIT in a
        newest = union(*(select(seat.c.id) for seat in per_seat))  # UNION's member
        query = query.where(Match.id.in_(select(newest.subquery().c.id)))
    found = list(session.execute(query.order_by(Match.id.desc()).offset(offset).limit(limit)))
    return lines_of(session, found)


def lines_of(session: Session, found: Iterable[tuple[Match, Result | None]]) -> list[MatchLine]:
    """``MatchLine``s of these matches and results, with their names and fault counts."""
    found = list(found)
    ids = [match.id for match, _ in found]
    faults = dict(session.execute(select(FaultRow.match_id, func.count()).where(FaultRow.match_id.in_(ids))
                                  .group_by(FaultRow.match_id)).all())
    names = version_names(session, {vid for match, _ in found for vid in match.seats})
    return [MatchLine(match, result, _seat_names(match, names), faults.get(match.id, 0)) for match, result in found]


def _seat_names(match: Match, names: dict[int, VersionName]) -> tuple[VersionName, VersionName, VersionName,
                                                                        VersionName]:
    s0, s1, s2, s3 = (names[vid] for vid in match.seats)
    return s0, s1, s2, s3


@dataclass(frozen=True, slots=True)
class MatchRow:
    """A row of ``dehla ladder matches``."""

    match_id: int
    status: MatchStatus
    team_a: str
    team_b: str
    score: tuple[float, float] | None
    winner: Winner | None
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
    ids = None if bot is None else bot_version_ids(session, bot)
    return [MatchRow(line.match.id, line.match.status, "+".join(map(str, line.team_a)),
                     "+".join(map(str, line.team_b)), line.score, line.winner, line.faults, line.match.record_path,
                     when(line.match.finished_at), line.voided)
            for line in match_lines(session, version_ids=ids, limit=limit)]


# ------------------------------------------------------------------ head to head
@dataclass(frozen=True, slots=True)
class HeadToHead:
    """How ``bot`` did against ``opponent`` over the rated matches where they sat on opposite sides
    (any versions of each; a match where either sat on both sides, or they partnered, is not theirs)."""

    bot: str
    opponent: str
    matches: int
    wins: int
    draws: int
    losses: int
    score_for: float
    """``bot``'s side's mean match score, to 2 places."""
    score_against: float
    """The opponent's side's mean match score, to 2 places."""

    @property
    def win_rate(self) -> float | None:
        return win_rate(self.wins, self.draws, self.matches)

    @property
    def record(self) -> str:
        """Wins–draws–losses, as the cross table shows them."""
        return f"{self.wins}–{self.draws}–{self.losses}"

    @property
    def mean_score(self) -> tuple[float, float]:
        return self.score_for, self.score_against

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "win_rate": self.win_rate}


@dataclass
class _Tally:
    matches: int = 0
    wins: int = 0
    draws: int = 0
    score_for: float = 0.0
    score_against: float = 0.0

    def add(self, outcome: int, scored: float, conceded: float) -> None:
        """``outcome``: 1 a win, 0 a draw, -1 a loss."""
        self.matches += 1
        self.wins += outcome == 1
        self.draws += outcome == 0
        self.score_for += scored
        self.score_against += conceded


def head_to_head(session: Session, bot: str | None = None, among: Collection[str] | None = None) -> list[HeadToHead]:
    """Every pair of bots that met in a rated match (``winner``'s rule: played to the end or
    forfeited, not voided), both ways round, most matches first, then by name; ``bot``: only its
    rows; ``among``: only pairs of these bots (a cross table of a ladder's best few). One query of
    plain columns over the rated matches (with ``bot`` or ``among``, those their versions sat in)."""
    seats = [aliased(BotVersion) for _ in range(4)]
    query = select(seats[0].bot_id, seats[2].bot_id, seats[1].bot_id, seats[3].bot_id, Result.winner_team,
                   Result.score_a, Result.score_b).select_from(Match).join(Result, Result.match_id == Match.id) \
        .where(Result.status == OutcomeStatus.DONE, Match.voided_at.is_(None))
    for seat, column in zip(seats, Match.seat_columns(), strict=True):
        query = query.join(seat, seat.id == column)
    if bot is not None:
        ids = bot_version_ids(session, bot)
        query = query.where(or_(*(column.in_(ids) for column in Match.seat_columns())))
    kept: set[int] | None = None
    if among is not None:
        kept = set(session.scalars(select(Bot.id).where(Bot.name.in_(among))))
        versions = select(BotVersion.id).where(BotVersion.bot_id.in_(kept))
        query = query.where(Match.seat0_id.in_(versions) | Match.seat2_id.in_(versions),
                            Match.seat1_id.in_(versions) | Match.seat3_id.in_(versions))
    tallies: dict[tuple[int, int], _Tally] = {}
    for a0, a2, b1, b3, winner_team, score_a, score_b in session.execute(query):
        side_a, side_b = {a0, a2}, {b1, b3}
        outcome_a = 0 if winner_team is None else (1, -1)[winner_team]
        for x in side_a - side_b:
            for y in side_b - side_a:
                if kept is not None and (x not in kept or y not in kept):
                    continue
                tallies.setdefault((x, y), _Tally()).add(outcome_a, score_a, score_b)
                tallies.setdefault((y, x), _Tally()).add(-outcome_a, score_b, score_a)
    met = {x for pair in tallies for x in pair}
    names = dict(session.execute(select(Bot.id, Bot.name).where(Bot.id.in_(met))).all())
    rows = [HeadToHead(names[x], names[y], t.matches, t.wins, t.draws, t.matches - t.wins - t.draws,
                       round(t.score_for / t.matches, 2), round(t.score_against / t.matches, 2))
            for (x, y), t in tallies.items() if bot is None or names[x] == bot]
    return sorted(rows, key=lambda row: (-row.matches, row.bot, row.opponent))


def match_status(session: Session, match_id: int) -> MatchStatus | None:
    """A match's status (None: no such match), for the live page: running until recorded."""
    match = session.get(Match, match_id)
    return None if match is None else match.status
