"""Duplicate pairs: the same deal played at two tables, the partnerships swapped.

The referee plays deal ``k`` (from 1) as hands ``2k-1`` and ``2k`` (hands count from 1 here, as
in the protocol): the second time every hand moves one seat on, dealer included
(``Deal.rotated(1)``), so seat ``s`` of the first table holds the cards of seat ``s+1`` of the
second. Two replays are compared step by step on what the chosen perspective shows of each
action; the first step where they differ is where the tables diverged.
"""

from __future__ import annotations

from arena.replay.frames import FrozenModel, HandReplay, Perspective, parse_perspective


class PairSummary(FrozenModel):
    """Where a hand's duplicate twin is and how the pair went for partnership A (seats 0 and 2)."""

    hand: int
    other_hand: int
    seat_shift: int
    """Seat ``s`` here holds the cards seat ``(s + seat_shift) % 4`` holds at the other table."""
    first_divergence: int | None
    """The first step whose action differs between the tables (``None``: played identically)."""
    values: list[float]
    """Each table's hand value for partnership A: this hand's, then the other's."""
    margin: float
    """What partnership A made of the deal over both tables (their sum): what the differences cost."""


def partner_hand(hand: int) -> int:
    """The other play of ``hand``'s deal (hands from 1: 1 and 2, 3 and 4, ...)."""
    if hand < 1:
        raise ValueError(f"hand numbers start at 1, got {hand}")
    return hand + 1 if hand % 2 else hand - 1


def seat_shift(hand: int) -> int:
    """How far the other table's seats are from this one's for the same cards."""
    return 1 if hand % 2 else 3


def other_perspective(hand: int, perspective: Perspective) -> Perspective:
    """The other table's seat that holds the cards ``perspective`` holds here."""
    if isinstance(perspective, str):
        return perspective
    return parse_perspective(str((perspective + seat_shift(hand)) % 4))


def pair_summary(hand: int, here: HandReplay, there: HandReplay) -> PairSummary:
    """``here`` (hand ``hand``) against ``there`` (its partner hand), step by step."""
    shift = seat_shift(hand)
    divergence: int | None = None
    for step, other in zip(here.steps, there.steps, strict=False):
        if step.action is None or other.action is None:
            continue
        if (step.action.seat + shift) % 4 != other.action.seat or step.action.text != other.action.text:
            divergence = step.index
            break
    if divergence is None and len(here.steps) != len(there.steps):
        divergence = min(len(here.steps), len(there.steps))
    values = [_value(here), _value(there)]
    return PairSummary(hand=hand, other_hand=partner_hand(hand), seat_shift=shift, first_divergence=divergence,
                       values=values, margin=values[0] + values[1])


def _value(replay: HandReplay) -> float:
    last = replay.steps[-1]
    if last.bidding is not None:
        return last.bidding.result.value if last.bidding.result is not None else 0.0
    return last.result.value if last.result is not None else 0.0
