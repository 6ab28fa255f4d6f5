"""The JSON API's models of local matches (``dehla match`` records in the data folder): not
ladder matches, so no ratings, no versions, ids that are the record's name."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from ladder.web.models import FaultDetail, HandLink, SeatTimes


class _Model(BaseModel):
    model_config = ConfigDict(frozen=False, extra="forbid")


class LocalMatchSummary(_Model):
    """A row of the list: what the record's first and last lines say, or why it cannot be read."""

    match_id: str = Field(description="The record's file name without `.jsonl`.")
    page: str
    modified: str = Field(description="When the record was last written (UTC): a finished match's end.")
    preset: str | None = None
    match_format: str | None = None
    team_a: str | None = Field(default=None, description="Seats 0 and 2, as the record names them.")
    team_b: str | None = Field(default=None, description="Seats 1 and 3.")
    status: str | None = Field(default=None, description="`done`, `void`, `unfinished` (no match_end line yet), or "
                                                    "`abandoned` (no end, and its live file stopped beating: the "
                                                    "referee died).")
    score: tuple[float, float] | None = None
    winner: Literal["A", "B", "draw"] | None = None
    hands: int | None = None
    faults: int = 0
    problem: str | None = Field(default=None, description="Why the record cannot be read, if it cannot.")
    live: str | None = Field(default=None, description="The live page, while the match is being played.")


class LocalMatchList(_Model):
    page: int
    per_page: int
    total: int
    pages: int
    matches: list[LocalMatchSummary]


class LocalMatchDetail(_Model):
    match: LocalMatchSummary
    seed: int | None = None
    seats: list[str] = Field(default_factory=list, description="The bots' names at seats 0..3 (untrusted text).")
    forfeit_team: Literal["A", "B"] | None = None
    void_reason: str | None = None
    deal_scores: list[float] | None = Field(default=None, description="Each deal pair's margin for partnership A.")
    faults: list[FaultDetail] = Field(default_factory=list)
    move_times: list[SeatTimes] = Field(default_factory=list)
    hand_links: list[HandLink] = Field(default_factory=list)
    record: str | None = Field(default=None, description="Where the record downloads, if it is readable.")
    record_problem: str | None = Field(default=None, description="Why the record cannot be read, if it cannot.")
