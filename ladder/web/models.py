"""The JSON API's response models (what ``/openapi.json`` describes), which the pages render too."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from arena.contract.faults import FaultKind
from ladder.rating.ratings import TeamResult
from ladder.store.ownership import OwnerKind
from ladder.store.read_model import StandingSort, VersionStatus, Winner
from ladder.store.schema import MatchStatus, Role


class _Model(BaseModel):
    model_config = ConfigDict(frozen=False, extra="forbid")


class StandingModel(_Model):
    """One row of ``dehla ladder show --json``: a bot version and its rating."""

    rank: int
    bot: str
    author: str = Field(description="The bot's owner: the author account that uploaded it, or the house.")
    version: str = Field(description="`#N (label)`: submission number within the bot and the manifest's version.")
    version_id: int
    rating: float = Field(description="The conservative rating, mu - 3 sigma: the ranking key.")
    mu: float
    sigma: float
    matches: int
    win_rate: float | None = Field(description="(wins + draws / 2) / matches; null before the first match.")
    faults: int = Field(description="Matches in which this version faulted.")
    last_played: str | None
    disabled: bool = Field(default=False, description="An operator disabled it (or its bot): never scheduled.")
    timing_bits: float | None = Field(default=None, description="The timing-leak detector's mean excess bits "
                                      "per decision over its measured matches (docs/ladder.md); null: never measured.")
    timing_z: float | None = Field(default=None, description="Its combined z (Stouffer) over the measured seats.")
    timing_flag: bool = Field(default=False, description="Over the detector's documented threshold: its move "
                              "times say what its cards are (docs/ladder.md, Timing-leak detector).")
    provisional: bool = Field(default=False, description="Fewer than 10 rated matches or σ above 4: its rank "
                              "does not mean much yet (docs/web.md, Ratings).")


class Leaderboard(_Model):
    preset: str | None = Field(description="The rules preset the counts are restricted to, if any.")
    presets: list[str] = Field(description="Every preset the ladder has played.")
    all_versions: bool
    sort: StandingSort
    descending: bool
    rows: list[StandingModel]


class SeatBot(_Model):
    """A bot version as a seat or a partnership member shows it."""

    version_id: int
    bot: str
    number: int
    label: str


class PartnershipStanding(_Model):
    rank: int
    partnership_id: int
    members: list[SeatBot]
    rating: float
    mu: float
    sigma: float
    predicted_mu: float = Field(description="The partnership mu its members' own ratings predict (docs/web.md).")
    synergy: float = Field(description="mu - predicted_mu: above 0, the pair plays better together than apart.")
    synergy_sigma: float = Field(description="The uncertainty of synergy: sqrt(sigma^2 + (sigma_a^2 + sigma_b^2)/2).")
    matches: int
    win_rate: float | None
    last_played: str | None


class PartnershipList(_Model):
    page: int
    per_page: int
    total: int
    pages: int
    partnerships: list[PartnershipStanding]


class RatingMoveModel(_Model):
    before: float
    after: float
    change: float
    against_result: bool
    explanation: str | None


class HeadToHeadModel(_Model):
    """How ``bot`` did against ``opponent`` in the rated matches where they sat on opposite sides."""

    bot: str
    opponent: str
    matches: int
    wins: int
    draws: int
    losses: int
    win_rate: float | None = Field(description="(wins + draws / 2) / matches, for `bot`.")
    score_for: float = Field(description="`bot`'s side's mean match score.")
    score_against: float = Field(description="The opponent's side's mean match score.")


class HeadToHeadTable(_Model):
    """The ladder's cross table: those of the leaderboard's best ``top`` bots that met another, and their pairs."""

    top: int
    bots: list[str] = Field(description="Those of the leaderboard's best `top` bots (by their newest version's "
                                        "rank) that met another of them, in leaderboard order.")
    pairs: list[HeadToHeadModel] = Field(description="The pairs of `bots` that met, most matches first; each pair "
                                                     "twice, once from each side.")


class MatchSummary(_Model):
    match_id: int
    status: MatchStatus
    preset: str
    match_format: str
    team_a: list[SeatBot] = Field(description="Seats 0 and 2.")
    team_b: list[SeatBot] = Field(description="Seats 1 and 3.")
    score: tuple[float, float] | None
    winner: Winner | None = Field(description="`A`, `B`, `draw`, or null (not rated).")
    faults: int
    finished: str | None
    result: TeamResult | None = Field(default=None, description="On a bot's page: win, draw or loss for that bot.")
    rating_change: RatingMoveModel | None = Field(default=None, description="On a bot's page: how the match moved "
                                                  "that bot's rating (μ−3σ), explained when against the result.")
    voided: str | None = Field(default=None, description="The operator's reason, if an operator voided the match "
                                                         "(not rated) or cancelled it before play.")


class MatchList(_Model):
    page: int
    per_page: int
    total: int
    pages: int
    matches: list[MatchSummary]


class VersionInfo(_Model):
    number: int
    label: str
    content_hash: str
    submitted: str | None
    status: VersionStatus = Field(description="`active` (the newest: the one the ladder schedules), `superseded` or "
                                    "`disabled` (by an operator, or its bot is).")
    rating: float
    mu: float
    sigma: float
    matches: int
    faults: int
    provisional: bool = False
    timing_bits: float | None = Field(default=None, description="The timing-leak detector's mean excess bits "
                                      "per decision over its measured matches (docs/ladder.md); null: never measured.")
    timing_z: float | None = Field(default=None, description="Its combined z (Stouffer) over the measured seats.")
    timing_flag: bool = Field(default=False, description="Over the detector's documented threshold: its move "
                              "times say what its cards are (docs/ladder.md, Timing-leak detector).")


class RatingPoint(_Model):
    match_id: int
    mu: float
    rating: float = Field(description="mu - 3 sigma after the match.")


class VersionSeries(_Model):
    number: int
    points: list[RatingPoint]


class FaultCount(_Model):
    kind: FaultKind
    count: int


class BotPage(_Model):
    name: str
    author: str = Field(description="The bot's owner: the author account that uploaded it, or the house.")
    owner_kind: OwnerKind = Field(description="`author` (an author's account) or `house` (the arena's own bots).")
    self_described: str = Field(description="The `author` line of the bot's first bot.toml: the bot's own "
                                            "words, not checked by anyone.")
    created: str | None
    versions: list[VersionInfo]
    series: list[VersionSeries] = Field(description="Each version's rating after each of its matches, in order.")
    partnerships: list[PartnershipStanding]
    recent_matches: list[MatchSummary]
    faults_by_kind: list[FaultCount]
    head_to_head: list[HeadToHeadModel] = Field(default_factory=list, description="How the bot did against each "
                                                "bot it met in rated matches (any versions of each).")


class SeatTimes(_Model):
    """A seat's move times (ms) over the record's decisions."""

    seat: int
    bot: str
    decisions: int
    p50_ms: float | None
    p95_ms: float | None
    max_ms: float | None


class FaultDetail(_Model):
    seat: int
    bot: str
    kind: FaultKind
    detail: str
    hand: int | None = None
    decision: int | None = None
    evidence: str | None = Field(default=None, description="What the bot said (its status text, its log's tail): "
                                 "for its author and operators only.")
    evidence_withheld: bool = Field(default=False, description="The fault has evidence this viewer may not see.")


class HandLink(_Model):
    hand: int = Field(description="Counts from 1, as the protocol does.")
    complete: bool | None
    replay: str
    winner: Literal["A", "B", "draw"] | None = Field(
        default=None, description="Who won the hand (None: unfinished, or a record that cannot say).")
    value: float | None = Field(default=None, description="The hand's value for partnership A: +v won, -v lost.")
    score: tuple[int, int] | None = Field(default=None, description="The match score (A, B) after this hand.")
    duplicate: str | None = Field(default=None, description="Its deal pair's duplicate view (duplicate matches).")


class MatchDetail(_Model):
    match: MatchSummary
    seed: int
    hands: int | None
    seconds: float | None
    forfeit_team: Literal["A", "B"] | None
    void_reason: str | None
    error: str | None
    deal_scores: list[float] | None = Field(description="Each deal pair's margin for partnership A.")
    faults: list[FaultDetail]
    move_times: list[SeatTimes]
    hand_links: list[HandLink]
    record: str | None = Field(description="Where the record downloads, if the match has a readable one.")
    record_problem: str | None = Field(description="Why the record cannot be read, if it cannot.")


class Problem(_Model):
    detail: str


class AuthorModel(_Model):
    """An author as the API shows them to themselves: never a token."""

    name: str
    email: str | None
    role: Role
