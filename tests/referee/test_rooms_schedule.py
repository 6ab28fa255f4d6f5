"""The two rooms' schedule (``arena.referee.deal_pairs``): whatever order the rooms' plays come
back in, the pairs are released in deal order, each pair's hands in play order and its score and
tally the one table's arithmetic; a stop after pair K releases exactly K + 1 pairs (hypothesis)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from arena.engine.match import MatchScore
from arena.engine.outcome import HandOutcome, HandResult
from arena.referee.deal_pairs import _Schedule
from arena.referee.table_values import DealPlays, PlayedPair
from arena.referee.tally import duplicate_tally


def result(winner: int | None, kot: bool) -> HandResult:
    outcome = HandOutcome.FOUR_TENS if kot else HandOutcome.TRICKS_TIED if winner is None else HandOutcome.THREE_TENS
    return HandResult(winner, outcome, (2, 2), (6, 7), (6, 7), 13, kot, False, False, 0)


def value(hand: HandResult) -> float:
    """Dehla Pakad's hand value for team 0: 1, 2 with a kot, signed by the winner."""
    if hand.winner is None:
        return 0.0
    return (1.0 + hand.kot) * (1 if hand.winner == 0 else -1)


HANDS = st.builds(result, st.sampled_from([0, 1, None]), st.booleans()).filter(
    lambda hand: not (hand.kot and hand.winner is None))


@st.composite
def matches(draw: st.DrawFn) -> tuple[list[list[HandResult]], list[tuple[int, int]]]:
    """Deals' two results, and an arrival order of the plays in which each room's own plays come
    in deal order only per table: any interleaving, any order (K tables a room)."""
    deals = draw(st.integers(min_value=1, max_value=8))
    results = [[draw(HANDS), draw(HANDS)] for _ in range(deals)]
    order = draw(st.permutations([(deal, room) for deal in range(deals) for room in (0, 1)]))
    return results, list(order)


@settings(max_examples=200, deadline=None)
@given(matches(), st.integers(min_value=0, max_value=9))
def test_pairs_come_out_in_deal_order_with_one_tables_arithmetic(
        match: tuple[list[list[HandResult]], list[tuple[int, int]]], stop_after: int) -> None:
    results, order = match
    released: list[PlayedPair] = []

    def on_pair(pair: PlayedPair) -> bool:
        released.append(pair)
        return pair.number < stop_after

    schedule = _Schedule(len(results), 2, on_pair)
    for deal, room in order:
        hand = results[deal][room]
        schedule.played(DealPlays(deal, (room,), (hand,), (value(hand),), (room, 0, 0, 1)))
    expected = min(len(results), stop_after + 1)
    assert [pair.number for pair in released] == list(range(expected))
    assert schedule.decided == (stop_after + 1 <= len(results))
    for pair in released:
        first, second = results[pair.number]
        assert pair.hands == (first, second)
        assert pair.score == value(first) + value(second)
        one_table = duplicate_tally(duplicate_tally(MatchScore(dealer=0), first, value(first)), second, value(second))
        assert (pair.tally.hands_won, pair.tally.points, pair.tally.kots, pair.tally.hands_played) == (
            one_table.hands_won, one_table.points, one_table.kots, 2)
        assert pair.substitutions == (1, 0, 0, 2)  # room 1's play brought one, each play one at seat 3


def test_a_room_cannot_take_a_deal_at_or_after_a_forfeited_hand() -> None:
    """Room 0 forfeited at hand 6 (deal 3's first play): room 1 still plays deals 0 to 2 (hands
    1, 3, 5) and not deal 3 (hand 7, after the forfeit); room 0 takes nothing more."""
    schedule = _Schedule(10, 2, lambda pair: True)
    assert [schedule.take(0) for _ in range(4)] == [0, 1, 2, 3]
    schedule.forfeited(6)
    assert schedule.take(0) is None
    assert [schedule.take(1) for _ in range(4)] == [0, 1, 2, None]
