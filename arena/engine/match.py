"""Match scoring between hands: kots, seven-in-a-row runs, match points, dealer rotation, the end.

Dehla Pakad counts kots: four tens in a hand, or seven hands won in a row (losing a hand ends
a team's run; any kot resets both runs). Mendikot and Court Piece count match points per hand
won (with their bonuses). A drawn hand changes no run and the same dealer deals again.
A ``tens:N`` match (seed 001's "Dehla Pakad style") adds up each team's captured tens instead.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any, ClassVar

from arena.engine.bidding_rules import BiddingRules
from arena.engine.errors import MatchFormatError
from arena.engine.jsonable import fields_json
from arena.engine.outcome import HandOutcome, HandResult
from arena.engine.rules import HandResultRule, Rules
from arena.engine.seats import Seat, Team, next_seats, partner_of, team_of

KOT_RUN = 7
"""Hands won in a row that earn a kot."""


class FormatKind(StrEnum):
    HANDS = "hands"
    KOTS = "kots"
    DUPLICATE = "duplicate"
    TENS = "tens"


TENS_RESULTS = frozenset({HandResultRule.TENS, HandResultRule.MENDIKOT})
"""The hand results a ``tens:N`` match may be played under: the games whose hands the tens decide."""


@dataclass(frozen=True, slots=True)
class MatchFormat:
    """``hands:N`` (a fixed number of hands), ``kots:K`` (first to K kots, or K match points
    where the rules count points), ``duplicate:N`` (N deals, each played twice with the
    partnerships swapped; run by the referee), or ``tens:N`` (first team whose captured tens,
    added up over the hands, reach N; level at or past N plays on)."""

    kind: FormatKind
    count: int

    @classmethod
    def parse(cls, text: str) -> MatchFormat:
        kind, sep, count = text.strip().partition(":")
        try:
            parsed_kind = FormatKind(kind.lower())
        except ValueError:
            raise MatchFormatError(
                f"match format {text!r}: unknown kind {kind!r} "
                "(expected hands:N, kots:K, duplicate:N or tens:N)"
            ) from None
        if not sep or not count.isdigit() or int(count) < 1:
            raise MatchFormatError(f"match format {text!r}: expected a positive count after ':'")
        return cls(parsed_kind, int(count))

    @classmethod
    def of(cls, value: MatchFormat | str) -> MatchFormat:
        """``value`` itself, or parsed from its text (a format that came as plain data)."""
        return value if isinstance(value, MatchFormat) else cls.parse(value)

    def check(self, rules: Rules | BiddingRules) -> None:
        """Refuse a format the rules cannot play: ``tens:N`` needs a game whose hands count tens;
        a bidding game plays to its target in game points (``hands:N`` caps it) or in deal pairs."""
        if isinstance(rules, BiddingRules):
            if self.kind not in (FormatKind.HANDS, FormatKind.DUPLICATE):
                raise MatchFormatError(
                    f"match format {self}: a bidding game plays to its rules' target in game points "
                    f"(option target; hands:N caps the hands) or in deal pairs (duplicate:N)")
            return
        if self.kind is FormatKind.TENS and rules.hand_result not in TENS_RESULTS:
            raise MatchFormatError(
                f"match format {self}: tens totals need rules whose hands are decided on tens "
                f"(hand_result tens or mendikot), not {rules.hand_result.value}")

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
    tens: tuple[int, int] = (0, 0)
    """Tens captured so far, by team: counted only in a ``tens:N`` match (else always 0, 0)."""

    JSON_IF_SET: ClassVar[frozenset[str]] = frozenset({"tens"})
    """Written only in a tens match, so the other formats' JSON reads as before."""

    def score(self, rules: Rules, match_format: MatchFormat | None = None) -> tuple[int, int]:
        """What the match is decided on: tens totals (``tens:N``), kots (Dehla Pakad) or match points."""
        if match_format is not None and match_format.kind is FormatKind.TENS:
            return self.tens
        return self.kots if rules.scores_kots else self.points

    def after(self, rules: Rules, result: HandResult, match_format: MatchFormat | None = None) -> MatchScore:
        """The score with ``result`` counted; a ``tens:N`` ``match_format`` adds the hand's tens too."""
        if match_format is not None and match_format.kind is FormatKind.TENS:
            tens = (self.tens[0] + result.tens[0], self.tens[1] + result.tens[1])
            return replace(self._after(rules, result), tens=tens)
        return self._after(rules, result)

    def _after(self, rules: Rules, result: HandResult) -> MatchScore:
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
        if match_format.kind is FormatKind.TENS:
            # Both teams can pass N in one hand: more tens wins; level totals play on (a hand's
            # four tens split 3-1 or 4-0 part them, 2-2 keeps them level).
            return self.tens_race_winner(match_format.count) is not None
        return self.hands_played >= match_format.count

    def tens_race_winner(self, target: int) -> Team | None:
        """The team that won a ``tens:target`` race by these totals, or ``None`` while it runs."""
        a, b = self.tens
        if max(a, b) < target or a == b:
            return None
        return 0 if a > b else 1

    def winner(self, rules: Rules, match_format: MatchFormat | None = None) -> Team | None:
        """The team with the higher score, or ``None`` for a level match."""
        a, b = self.score(rules, match_format)
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
