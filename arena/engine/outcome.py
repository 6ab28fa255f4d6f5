"""The result of a finished hand: who won it, how, and what it is worth."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar

from arena.engine.cards import ACES, TENS, Card, CardMask
from arena.engine.jsonable import fields_json
from arena.engine.rules import HandResultRule, Rules, TwoTwo
from arena.engine.seats import Seat, Team, team_of


class HandOutcome(StrEnum):
    """How the winner of a hand was decided (one per rule line of rules.md)."""

    FOUR_TENS = "four_tens"
    THREE_TENS = "three_tens"
    TWO_TWO_NON_DEALER = "two_two_non_dealer"
    TWO_TWO_TRICKS_AT_TABLE = "two_two_tricks_won_at_table"
    TWO_TWO_TRICKS_CAPTURED = "two_two_tricks_captured"
    TWO_TWO_DRAW = "two_two_draw"
    MAJORITY_OF_TRICKS = "majority_of_tricks"
    TRICKS_TIED = "tricks_tied"


@dataclass(frozen=True, slots=True)
class Trick:
    """A finished trick. ``taken_by`` is the team that took the centre pile with it, if any.

    ``face_down`` lists the positions played face down (``maker_discard: face_down``); in the
    view of a seat that may not see such a card yet, its entry in ``cards`` is ``None``."""

    number: int
    leader: Seat
    seats: tuple[Seat, ...]
    cards: tuple[Card | None, ...]
    winner: Seat
    taken_by: Team | None
    tricks_taken: int
    face_down: tuple[int, ...] = ()

    JSON_ZIP: ClassVar[dict[str, tuple[str, str]]] = {"plays": ("seats", "cards")}
    """The JSON writes each play as ``[seat, card]``."""
    JSON_IF_SET: ClassVar[frozenset[str]] = frozenset({"face_down"})
    """Written only when not the default, so tricks without a face-down card read as before."""

    def to_json(self) -> dict[str, Any]:
        return fields_json(self)


@dataclass(frozen=True, slots=True)
class HandResult:
    """Everything the match and the players need to know about a finished hand.

    ``kot`` means the top result of the rules in force: four tens (Dehla Pakad), four tens
    and every trick (Mendikot), or the first seven tricks (Court Piece's court).
    ``points`` are match points for the winner where matches count points, else 0.
    """

    winner: Team | None
    outcome: HandOutcome
    tens: tuple[int, int]
    tricks_won: tuple[int, int]
    tricks_captured: tuple[int, int]
    tricks_played: int
    kot: bool
    mendikot: bool
    all_aces: bool
    points: int

    def to_json(self) -> dict[str, Any]:
        return fields_json(self)


def hand_value(rules: Rules, result: HandResult) -> float:
    """A hand's value for team 0: +v won, -v lost, 0 drawn (v = 1 + kot, or match points)."""
    if result.winner is None:
        return 0.0
    value = float(result.points if not rules.scores_kots else 1 + int(result.kot))
    return value if result.winner == 0 else -value


def majority(rules: Rules) -> int:
    """Tricks a side needs for the majority of a hand."""
    return rules.hand_size // 2 + 1


def decide_hand(
    rules: Rules,
    dealer: Seat,
    captured: Sequence[CardMask],
    captured_tricks: Sequence[int],
    winners: Sequence[Seat],
) -> HandResult:
    """Apply the ``hand_result`` rule to the captured cards and the trick winners in order."""
    tens = ((captured[0] & TENS).bit_count(), (captured[1] & TENS).bit_count())
    aces = ((captured[0] & ACES).bit_count(), (captured[1] & ACES).bit_count())
    won1 = [seat & 1 for seat in winners].count(1)
    won = (len(winners) - won1, won1)
    caught = (captured_tricks[0], captured_tricks[1])
    rule = rules.hand_result
    winner: Team | None
    kot = mendikot = False
    if rule is HandResultRule.SEVEN_TRICKS:
        need = majority(rules)
        winner = 0 if caught[0] >= need else 1 if caught[1] >= need else None
        outcome = HandOutcome.MAJORITY_OF_TRICKS if winner is not None else HandOutcome.TRICKS_TIED
        if winner is not None and len(winners) >= need:
            kot = all(seat & 1 == winner for seat in winners[:need])
    elif tens[0] >= 3 or tens[1] >= 3:
        winner = 0 if tens[0] >= 3 else 1
        outcome = HandOutcome.FOUR_TENS if tens[winner] == 4 else HandOutcome.THREE_TENS
        if rule is HandResultRule.TENS:
            kot = tens[winner] == 4
        else:
            mendikot = tens[winner] == 4
            kot = mendikot and won[winner] == len(winners) == rules.hand_size
    elif rule is HandResultRule.MENDIKOT:
        need = majority(rules)
        winner = 0 if caught[0] >= need else 1 if caught[1] >= need else None
        outcome = HandOutcome.MAJORITY_OF_TRICKS if winner is not None else HandOutcome.TRICKS_TIED
    else:
        winner, outcome = _two_two(rules.two_two, dealer, won, caught)

    all_aces = winner is not None and aces[winner] == 4
    points = 0
    if winner is not None and rule is not HandResultRule.TENS:
        points = 1 + rules.kot_bonus * kot + rules.mendikot_bonus * mendikot
        points += int(rules.bonus_aces and mendikot and all_aces)
    return HandResult(winner, outcome, tens, won, caught, len(winners), kot, mendikot, all_aces, points)


def _two_two(
    rule: TwoTwo | None, dealer: Seat, won: tuple[int, int], caught: tuple[int, int]
) -> tuple[Team | None, HandOutcome]:
    """Who wins a hand whose tens split two-two (Dehla Pakad); ties fall to the non-dealer."""
    if rule is TwoTwo.DRAW:
        return None, HandOutcome.TWO_TWO_DRAW
    if rule is TwoTwo.TRICKS_WON_AT_TABLE and won[0] != won[1]:
        return (0 if won[0] > won[1] else 1), HandOutcome.TWO_TWO_TRICKS_AT_TABLE
    if rule is TwoTwo.TRICKS_CAPTURED and caught[0] != caught[1]:
        return (0 if caught[0] > caught[1] else 1), HandOutcome.TWO_TWO_TRICKS_CAPTURED
    return 1 - team_of(dealer), HandOutcome.TWO_TWO_NON_DEALER
