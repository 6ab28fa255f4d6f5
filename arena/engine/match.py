"""Match scoring between hands: kots, seven-in-a-row runs, match points, dealer rotation, the end.

Dehla Pakad counts kots: four tens in a hand, or seven hands won in a row (losing a hand ends
a team's run; any kot resets both runs). Mendikot and Court Piece count match points per hand
won (with their bonuses). A drawn hand changes no run and the same dealer deals again.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from arena.engine.errors import MatchFormatError
from arena.engine.jsonable import fields_json
from arena.engine.outcome import HandOutcome, HandResult
from arena.engine.rules import Rules
from arena.engine.seats import Seat, Team, next_seats, partner_of, team_of

KOT_RUN = 7
"""Hands won in a row that earn a kot."""


class FormatKind(StrEnum):
    HANDS = "hands"
    KOTS = "kots"
    DUPLICATE = "duplicate"


@dataclass(frozen=True, slots=True)
class MatchFormat:
    """``hands:N`` (a fixed number of hands), ``kots:K`` (first to K kots, or K match points
    where the rules count points), or ``duplicate:N`` (N deals, each played twice with the
    partnerships swapped; run by the referee)."""

    kind: FormatKind
    count: int

    @classmethod
    def parse(cls, text: str) -> MatchFormat:
        kind, sep, count = text.strip().partition(":")
        try:
            parsed_kind = FormatKind(kind.lower())
        except ValueError:
            raise MatchFormatError(
                f"match format {text!r}: unknown kind {kind!r} (expected hands:N, kots:K or duplicate:N)"
            ) from None
        if not sep or not count.isdigit() or int(count) < 1:
            raise MatchFormatError(f"match format {text!r}: expected a positive count after ':'")
        return cls(parsed_kind, int(count))

    @classmethod
    def of(cls, value: MatchFormat | str) -> MatchFormat:
        """``value`` itself, or parsed from its text (a format that came as plain data)."""
        return value if isinstance(value, MatchFormat) else cls.parse(value)

    def __str__(self) -> str:
        return f"{self.kind.value}:{self.count}"


@dataclass(frozen=True, slots=True)
class MatchScore:
    """The score of a match between hands; ``after`` gives the next one."""

    dealer: Seat
    hands_played: int = 0
    kots: tuple[int, int] = (0, 0)
    points: tuple[int, int] = (0, 0)
    hands_won: tuple[int, int] = (0, 0)
    runs: tuple[int, int] = (0, 0)

    def score(self, rules: Rules) -> tuple[int, int]:
        """What the match is decided on: kots (Dehla Pakad) or match points."""
        return self.kots if rules.scores_kots else self.points

    def after(self, rules: Rules, result: HandResult) -> MatchScore:
        winner = result.winner
        played = self.hands_played + 1
        if winner is None:
            return replace(self, hands_played=played)
        hands_won = _add(self.hands_won, winner, 1)
        dealer = next_dealer(rules, self.dealer, result)
        if not rules.scores_kots:
            points = _add(self.points, winner, result.points)
            return replace(self, dealer=dealer, hands_played=played, points=points,
                           hands_won=hands_won)
        run = self.runs[winner] + 1
        if result.kot or run >= KOT_RUN:
            return replace(self, dealer=dealer, hands_played=played, hands_won=hands_won,
                           kots=_add(self.kots, winner, 1), runs=(0, 0))
        runs = (run, 0) if winner == 0 else (0, run)
        return replace(self, dealer=dealer, hands_played=played, hands_won=hands_won, runs=runs)

    def is_over(self, rules: Rules, match_format: MatchFormat) -> bool:
        if match_format.kind is FormatKind.KOTS:
            return max(self.score(rules)) >= match_format.count
        return self.hands_played >= match_format.count

    def winner(self, rules: Rules) -> Team | None:
        """The team with the higher score, or ``None`` for a level match."""
        a, b = self.score(rules)
        return None if a == b else (0 if a > b else 1)

    def to_json(self) -> dict[str, Any]:
        return fields_json(self)


def next_dealer(rules: Rules, dealer: Seat, result: HandResult) -> Seat:
    """Who deals next: the dealer always comes from the side that lost the last hand."""
    if result.winner is None:
        return dealer
    if result.winner == team_of(dealer):
        return next_seats(rules.direction)[dealer]
    if rules.scores_kots and result.outcome is HandOutcome.FOUR_TENS:
        return partner_of(dealer)
    return dealer


def _add(pair: tuple[int, int], team: Team, amount: int) -> tuple[int, int]:
    return (pair[0] + amount, pair[1]) if team == 0 else (pair[0], pair[1] + amount)
