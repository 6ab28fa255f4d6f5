"""A tournament's results as numbers: the cross table (each bot against each other, per deal pair)
and each bot's totals. Pure: match results in, numbers out, so it is tested on hand-made input.

The unit is the deal pair of a duplicate match (both partnerships held the same cards): its score
for a bot is the sum of the two plays' values from that bot's side, and it is won, drawn or lost
by its sign. A forfeited match keeps the pairs played before the forfeit, and every pair it did
not reach is counted lost by the partnership that forfeited (won by the other), with no score, so
a bot that fails to start loses its matches in full. A void match (the platform's fault) counts
nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from arena.referee.stats import MeanInterval, mean_interval


@dataclass(frozen=True, slots=True)
class MatchResult:
    """One finished pairing as the statistics need it; ``deal_scores`` are from ``a``'s side."""

    a: str
    b: str
    deals: int
    """Deal pairs the match was to play."""
    deal_scores: tuple[float, ...] = ()
    forfeited_by: str | None = None
    void: bool = False
    fault_bots: tuple[str, ...] = ()
    """For each fault of the match, the partnership (``a`` or ``b``) whose seat it was."""

    def __post_init__(self) -> None:
        if self.a == self.b:
            raise ValueError(f"a match of {self.a!r} against itself")
        if self.forfeited_by not in (None, self.a, self.b):
            raise ValueError(f"forfeited by {self.forfeited_by!r}, not a partnership of the match")
        if len(self.deal_scores) > self.deals:
            raise ValueError(f"{len(self.deal_scores)} deal pairs scored of {self.deals}")
        if any(bot not in (self.a, self.b) for bot in self.fault_bots):
            raise ValueError("a fault of a bot not in the match")

    def scores_for(self, bot: str) -> tuple[float, ...]:
        """The played deal pairs' scores from ``bot``'s side (none for a void match)."""
        if self.void:
            return ()
        return self.deal_scores if bot == self.a else tuple(-score for score in self.deal_scores)

    @property
    def unplayed(self) -> int:
        """Deal pairs a forfeit left unplayed (each lost by the forfeiter)."""
        return 0 if self.void or self.forfeited_by is None else self.deals - len(self.deal_scores)


@dataclass(frozen=True, slots=True)
class PairCount:
    """Deal pairs won, drawn and lost, from one bot's side."""

    won: int = 0
    drawn: int = 0
    lost: int = 0

    def __add__(self, other: PairCount) -> PairCount:
        return PairCount(self.won + other.won, self.drawn + other.drawn, self.lost + other.lost)

    @property
    def total(self) -> int:
        return self.won + self.drawn + self.lost

    @property
    def points(self) -> float:
        """Pairs won, a drawn pair half: what the Bradley-Terry fit counts."""
        return self.won + self.drawn / 2

    def mirrored(self) -> PairCount:
        return PairCount(self.lost, self.drawn, self.won)


def count_pairs(result: MatchResult, bot: str) -> PairCount:
    scores = result.scores_for(bot)
    played = PairCount(sum(s > 0 for s in scores), sum(s == 0 for s in scores), sum(s < 0 for s in scores))
    forfeits = result.unplayed
    if result.forfeited_by == bot:
        return played + PairCount(lost=forfeits)
    return played + PairCount(won=forfeits)


@dataclass(frozen=True, slots=True)
class CrossCell:
    """One bot against one opponent, over every match between them."""

    bot: str
    opponent: str
    matches: int
    interval: MeanInterval
    """Mean score per played deal pair from ``bot``'s side, its 95% interval (Student t)."""
    pairs: PairCount
    forfeits: int
    """Matches ``bot`` forfeited against this opponent."""
    void: int


@dataclass(frozen=True, slots=True)
class BotTotals:
    """A bot's line over the whole tournament."""

    bot: str
    matches: int
    pairs: PairCount
    interval: MeanInterval
    faults: int
    forfeits: int


@dataclass(frozen=True, slots=True)
class CrossTable:
    bots: tuple[str, ...]
    cells: dict[tuple[str, str], CrossCell] = field(default_factory=dict)
    totals: dict[str, BotTotals] = field(default_factory=dict)

    def cell(self, bot: str, opponent: str) -> CrossCell | None:
        """``bot`` against ``opponent``; None if they have no finished match."""
        return self.cells.get((bot, opponent))


def cross_table(bots: Sequence[str], results: Iterable[MatchResult]) -> CrossTable:
    """The cross table of ``bots`` (each cell from the row's side) and their totals."""
    index = set(bots)
    if len(index) != len(bots):
        raise ValueError("a bot listed twice")
    by_pair: dict[tuple[str, str], list[MatchResult]] = {}
    for result in results:
        if result.a not in index or result.b not in index:
            raise ValueError(f"a result of {result.a!r} against {result.b!r}: not both in the tournament")
        by_pair.setdefault((result.a, result.b), []).append(result)
        by_pair.setdefault((result.b, result.a), []).append(result)
    cells = {(bot, opponent): _cell(bot, opponent, matches) for (bot, opponent), matches in by_pair.items()}
    totals = {bot: _totals(bot, [r for (row, _), rs in by_pair.items() if row == bot for r in rs]) for bot in bots}
    return CrossTable(tuple(bots), cells, totals)


def _cell(bot: str, opponent: str, matches: list[MatchResult]) -> CrossCell:
    scores = [score for match in matches for score in match.scores_for(bot)]
    pairs = sum((count_pairs(match, bot) for match in matches), PairCount())
    return CrossCell(bot, opponent, len(matches), mean_interval(scores), pairs,
                     sum(match.forfeited_by == bot for match in matches), sum(match.void for match in matches))


def _totals(bot: str, matches: list[MatchResult]) -> BotTotals:
    scores = [score for match in matches for score in match.scores_for(bot)]
    return BotTotals(bot, len(matches), sum((count_pairs(match, bot) for match in matches), PairCount()),
                     mean_interval(scores), sum(match.fault_bots.count(bot) for match in matches),
                     sum(match.forfeited_by == bot for match in matches))
