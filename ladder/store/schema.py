"""The store's tables (SQLAlchemy 2, portable across SQLite and PostgreSQL).

Migrations in ``ladder/store/migrations`` create exactly this schema; a test compares the two.
Times are UTC; ratings are TrueSkill (mu, sigma) pairs; paths are relative to the data folder;
statuses, fault kinds and results are enum members, stored as their string values (``StoredEnum``).
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import UTC, datetime
from enum import StrEnum

from sqlalchemy import (
    JSON,
    BigInteger,
    CheckConstraint,
    ColumnElement,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Text,
    UniqueConstraint,
    or_,
)
from sqlalchemy.ext.hybrid import hybrid_property
from sqlalchemy.orm import DeclarativeBase, InstrumentedAttribute, Mapped, mapped_column

from arena.contract.faults import FaultKind
from arena.contract.status import OutcomeStatus
from arena.engine.match import MatchFormat
from ladder.rating.ratings import Skill, TeamResult, conservative
from ladder.store.stored_enum import StoredEnum, StoredMatchFormat

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


def utcnow() -> datetime:
    return datetime.now(UTC)


class MatchStatus(StrEnum):
    """A match's life: queued, running (leased to a worker), then done, void or failed."""

    QUEUED = "queued"
    RUNNING = "running"
    DONE = "done"
    """Played to the end or forfeited: rated."""
    VOID = "void"
    """A platform fault: recorded, no rating changes."""
    FAILED = "failed"
    """The job itself kept failing (not the bots): given up after several attempts."""

    @classmethod
    def finished(cls, outcome: OutcomeStatus) -> MatchStatus:
        """Where a match that the referee played to ``outcome`` ends its life."""
        return {OutcomeStatus.DONE: cls.DONE, OutcomeStatus.VOID: cls.VOID}[outcome]


class Role(StrEnum):
    """What a signed-in author may do beyond the public pages."""

    AUTHOR = "author"
    """Submit and label versions of their own bots; see their own bots' logs and faults in full."""
    OPERATOR = "operator"
    """Everything an author may, plus: disable a bot or version, void a match, manage authors."""


class UploadStatus(StrEnum):
    """An uploaded archive's life: waiting for (or in) validation, then accepted or rejected."""

    PENDING = "pending"
    ACCEPTED = "accepted"
    REJECTED = "rejected"
    """With the one-line reason in ``Upload.reason``."""


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)


class Author(Base):
    """Someone who owns bots. Only a hash of their API token is kept (``None``: revoked)."""

    __tablename__ = "authors"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(32), unique=True)
    email: Mapped[str | None] = mapped_column(String(254), nullable=True)
    role: Mapped[Role] = mapped_column(StoredEnum(Role, 16), default=Role.AUTHOR)
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    """SHA-256 (hex) of the token's secret part; the token itself is shown once and never stored."""
    token_issued_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Bot(Base):
    __tablename__ = "bots"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(32), unique=True)
    author: Mapped[str] = mapped_column(String(100))
    """The manifest's free-text ``author`` field (shown, never trusted for access)."""
    owner_id: Mapped[int | None] = mapped_column(ForeignKey("authors.id"), index=True, nullable=True)
    """The author who first submitted the bot; ``None``: submitted on the arena's machine."""
    disabled_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    """Set by an operator: no version of the bot is scheduled."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Rated:
    """What everything rated keeps (a bot version, a partnership): its TrueSkill belief and its
    record of matches, moved together after each rated match."""

    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    matches: Mapped[int] = mapped_column(Integer, default=0)
    wins: Mapped[int] = mapped_column(Integer, default=0)
    draws: Mapped[int] = mapped_column(Integer, default=0)
    losses: Mapped[int] = mapped_column(Integer, default=0)
    last_played_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)

    @property
    def skill(self) -> Skill:
        return Skill(self.mu, self.sigma)

    @hybrid_property
    def conservative(self) -> float:
        """The ranking key (``ratings.conservative``): a float on a row, the same SQL expression on
        the class (``order_by(Partnership.conservative.desc())``)."""
        return conservative(self.mu, self.sigma)

    def count_match(self, result: TeamResult, new: Skill, when: datetime) -> None:
        """One more match with ``result``, ending at ``new``."""
        self.mu, self.sigma = new.mu, new.sigma
        self.matches += 1
        self.wins += result is TeamResult.WIN
        self.draws += result is TeamResult.DRAW
        self.losses += result is TeamResult.LOSS
        self.last_played_at = when


class BotVersion(Rated, Base):
    """One immutable, content-hashed copy of a bot folder, with its own rating."""

    __tablename__ = "bot_versions"
    __table_args__ = (UniqueConstraint("bot_id", "number", name="uq_bot_versions_bot_number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    bot_id: Mapped[int] = mapped_column(ForeignKey("bots.id"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    """1, 2, 3... in submission order within the bot."""
    label: Mapped[str] = mapped_column(String(64))
    """The manifest's ``version`` field."""
    content_hash: Mapped[str] = mapped_column(String(64), unique=True)
    path: Mapped[str] = mapped_column(String(500))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    faults: Mapped[int] = mapped_column(Integer, default=0)
    disabled_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    """Set by an operator: this version is not scheduled."""


class Partnership(Rated, Base):
    """An unordered pair of bot versions (``low_id <= high_id``; equal for a bot with itself)."""

    __tablename__ = "partnerships"
    __table_args__ = (
        UniqueConstraint("low_id", "high_id", name="uq_partnerships_pair"),
        CheckConstraint("low_id <= high_id", name="ordered"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    low_id: Mapped[int] = mapped_column(ForeignKey("bot_versions.id"), index=True)
    high_id: Mapped[int] = mapped_column(ForeignKey("bot_versions.id"), index=True)


class Match(Base):
    """A scheduled match: seats 0+2 are partnership A, 1+3 partnership B."""

    __tablename__ = "matches"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    status: Mapped[MatchStatus] = mapped_column(StoredEnum(MatchStatus, 16), index=True, default=MatchStatus.QUEUED)
    seed: Mapped[int] = mapped_column(BigInteger)
    """63 random bits: too many to recover from the cards one seat sees (``MATCH_SEED_BITS``)."""
    preset: Mapped[str] = mapped_column(String(32), index=True)
    match_format: Mapped[MatchFormat] = mapped_column(StoredMatchFormat(32))
    team_a_id: Mapped[int] = mapped_column(ForeignKey("partnerships.id"), index=True)
    team_b_id: Mapped[int] = mapped_column(ForeignKey("partnerships.id"), index=True)
    seat0_id: Mapped[int] = mapped_column(ForeignKey("bot_versions.id"), index=True)
    seat1_id: Mapped[int] = mapped_column(ForeignKey("bot_versions.id"), index=True)
    seat2_id: Mapped[int] = mapped_column(ForeignKey("bot_versions.id"), index=True)
    seat3_id: Mapped[int] = mapped_column(ForeignKey("bot_versions.id"), index=True)
    attempt: Mapped[int] = mapped_column(Integer, default=0)
    """Incremented at each lease; a report for an older attempt is stale and ignored."""
    lease_owner: Mapped[str | None] = mapped_column(String(64), nullable=True)
    lease_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), index=True, nullable=True)
    """When the lease ends unless its holder renews it; an expired lease is swept back to the queue."""
    record_path: Mapped[str | None] = mapped_column(String(500), nullable=True)
    error: Mapped[str | None] = mapped_column(Text, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    voided_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    """Set when an operator voids a played match (its rating changes are undone)."""
    void_note: Mapped[str | None] = mapped_column(Text, nullable=True)
    """The operator's reason for voiding."""

    @property
    def seats(self) -> tuple[int, int, int, int]:
        """The versions at seats 0 to 3."""
        return (self.seat0_id, self.seat1_id, self.seat2_id, self.seat3_id)

    @property
    def teams(self) -> tuple[tuple[int, int], tuple[int, int]]:
        """The versions of partnership A (seats 0 and 2) and of B (seats 1 and 3)."""
        return (self.seat0_id, self.seat2_id), (self.seat1_id, self.seat3_id)

    @classmethod
    def seat_columns(cls) -> tuple[InstrumentedAttribute[int], ...]:
        """The four seat columns, seat 0 first: for a query about every seat a version may hold."""
        return (cls.seat0_id, cls.seat1_id, cls.seat2_id, cls.seat3_id)

    @classmethod
    def seated(cls, version_ids: Collection[int]) -> ColumnElement[bool]:
        """Matches where one of ``version_ids`` holds a seat (each seat column has its index)."""
        return or_(*(seat.in_(version_ids) for seat in cls.seat_columns()))


class Result(Base):
    """What a finished match reported; one per match (the unique key makes a repeat a no-op)."""

    __tablename__ = "results"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id"), unique=True)
    status: Mapped[OutcomeStatus] = mapped_column(StoredEnum(OutcomeStatus, 16))
    winner_team: Mapped[int | None] = mapped_column(Integer, nullable=True)
    score_a: Mapped[float] = mapped_column(Float)
    score_b: Mapped[float] = mapped_column(Float)
    hands: Mapped[int] = mapped_column(Integer)
    forfeit_team: Mapped[int | None] = mapped_column(Integer, nullable=True)
    void_reason: Mapped[str | None] = mapped_column(Text, nullable=True)
    seconds: Mapped[float] = mapped_column(Float)
    deal_scores: Mapped[list[float] | None] = mapped_column(JSON, nullable=True)
    """Duplicate format: each finished deal pair's margin for partnership A (the rated games)."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class FaultRow(Base):
    __tablename__ = "faults"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id"), index=True)
    version_id: Mapped[int] = mapped_column(ForeignKey("bot_versions.id"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    kind: Mapped[FaultKind] = mapped_column(StoredEnum(FaultKind, 32))
    detail: Mapped[str] = mapped_column(Text)


class RatingChange(Base):
    """One rating update: of a bot version or of a partnership (exactly one is set)."""

    __tablename__ = "rating_history"
    __table_args__ = (
        CheckConstraint("(version_id IS NULL) <> (partnership_id IS NULL)", name="one_subject"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id"), index=True)
    version_id: Mapped[int | None] = mapped_column(ForeignKey("bot_versions.id"), index=True, nullable=True)
    partnership_id: Mapped[int | None] = mapped_column(ForeignKey("partnerships.id"), index=True, nullable=True)
    mu_before: Mapped[float] = mapped_column(Float)
    sigma_before: Mapped[float] = mapped_column(Float)
    mu_after: Mapped[float] = mapped_column(Float)
    sigma_after: Mapped[float] = mapped_column(Float)
    outcome: Mapped[TeamResult] = mapped_column(StoredEnum(TeamResult, 8))
    """The match's result for the subject."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class PresetCounts(Base):
    """A version's record in one rules preset (its rating stays one across presets): kept by the
    ladder when it records a rated match, so the leaderboard's preset filter reads one row per
    version instead of summing the rating history (migration 0005 backfills it)."""

    __tablename__ = "preset_counts"

    preset: Mapped[str] = mapped_column(String(32), primary_key=True)
    version_id: Mapped[int] = mapped_column(ForeignKey("bot_versions.id"), primary_key=True)
    matches: Mapped[int] = mapped_column(Integer, default=0)
    wins: Mapped[int] = mapped_column(Integer, default=0)
    draws: Mapped[int] = mapped_column(Integer, default=0)
    faults: Mapped[int] = mapped_column(Integer, default=0)
    """Rated matches of the preset with a fault of this version, as ``BotVersion.faults`` counts."""
    last_played_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)

    def count_match(self, result: TeamResult, faulted: bool, when: datetime) -> None:
        self.matches += 1
        self.wins += result is TeamResult.WIN
        self.draws += result is TeamResult.DRAW
        self.faults += faulted
        self.last_played_at = when


class Upload(Base):
    """One bot archive an author submitted over HTTP, and what became of it."""

    __tablename__ = "uploads"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    author_id: Mapped[int] = mapped_column(ForeignKey("authors.id"), index=True)
    status: Mapped[UploadStatus] = mapped_column(StoredEnum(UploadStatus, 16), index=True,
                                                     default=UploadStatus.PENDING)
    reason: Mapped[str | None] = mapped_column(Text, nullable=True)
    """Why it was rejected: one line in the arena's words."""
    bot_name: Mapped[str | None] = mapped_column(String(32), nullable=True)
    """From the archive's manifest, once read."""
    version_id: Mapped[int | None] = mapped_column(ForeignKey("bot_versions.id"), nullable=True)
    """The version it became (or already was: the same content uploaded twice is one version)."""
    content_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    size_bytes: Mapped[int] = mapped_column(BigInteger, default=0)
    """The upload's size as received (compressed)."""
    lease_owner: Mapped[str | None] = mapped_column(String(64), nullable=True)
    """The validating service that holds it while it is checked."""
    lease_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow, index=True)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class StoreSecret(Base):
    """A secret of this store, made by its migrations (``deal_seeds``: the key of the matches' deal
    seeds, ``ladder/coordinator/deal_seeds.py``). Never shown, logged or sent to a worker."""

    __tablename__ = "store_secrets"

    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    value: Mapped[str] = mapped_column(String(128))
    """Hex."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Archive(Base):
    """A bot version's files as one deterministic archive (``arena.bots.archive.pack``), keyed by
    the version's ``content_hash``: what a worker on any machine fetches, checks and caches."""

    __tablename__ = "archives"

    content_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    archive_sha256: Mapped[str] = mapped_column(String(64))
    """Of the archive's bytes: checked before they are unpacked."""
    size_bytes: Mapped[int] = mapped_column(BigInteger)
    data: Mapped[bytes] = mapped_column(LargeBinary)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class MatchFile(Base):
    """One file of a counted match (its record ``m000042.jsonl``, a seat's log), stored with the
    match so that replays, the web and the API read it from the store, not from a disk."""

    __tablename__ = "match_files"

    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    name: Mapped[str] = mapped_column(String(100), primary_key=True)
    size_bytes: Mapped[int] = mapped_column(BigInteger)
    """Uncompressed."""
    data: Mapped[bytes] = mapped_column(LargeBinary)
    """zlib-compressed."""


class TimingLeak(Base):
    """The timing-leak detector's figures for one seat of one counted match (issue 23): how much
    the seat's move times said about its own unplayed cards (``arena/referee/timing_leak.py``)."""

    __tablename__ = "timing_leaks"

    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    version_id: Mapped[int] = mapped_column(ForeignKey("bot_versions.id"), index=True)
    decisions: Mapped[int] = mapped_column(Integer)
    bits: Mapped[float] = mapped_column(Float)
    """Excess information per decision over the shuffled baseline."""
    z: Mapped[float] = mapped_column(Float)
    p_value: Mapped[float] = mapped_column(Float)


class TimingLeakTotals(Base):
    """A version's detector figures summed over its seats in counted matches, kept as each report
    is recorded, so the leaderboard reads one row a version (``ladder/store/timing_leaks.py``)."""

    __tablename__ = "timing_leak_totals"

    version_id: Mapped[int] = mapped_column(ForeignKey("bot_versions.id"), primary_key=True)
    seats: Mapped[int] = mapped_column(Integer, default=0)
    """Seat-matches measured (a version partnering itself counts twice a match)."""
    decisions: Mapped[int] = mapped_column(Integer, default=0)
    weighted_bits: Mapped[float] = mapped_column(Float, default=0.0)
    """Sum of bits x decisions: divided by ``decisions``, the mean bits per decision."""
    z_sum: Mapped[float] = mapped_column(Float, default=0.0)
    """Sum of the seats' z: divided by sqrt(``seats``), Stouffer's combined z."""
