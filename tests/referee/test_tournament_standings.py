"""The tournament's cross table against numbers worked out by hand, and its invariants."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.referee.tournament.standings import MatchResult, PairCount, cross_table

# Three bots, three matches of 3 deal pairs each (scores from the first-named partnership's side):
# A vs B played in full: pairs of +2, -1, 0.
# C vs A: C won the first pair (+1), then forfeited (two seat faults): two pairs unplayed.
# B vs C: void (the platform's fault): its one played pair counts for nothing.
RESULTS = [
    MatchResult("A", "B", 3, (2.0, -1.0, 0.0)),
    MatchResult("C", "A", 3, (1.0,), forfeited_by="C", fault_bots=("C", "C")),
    MatchResult("B", "C", 3, (4.0,), void=True),
]


def test_the_cross_table_of_a_small_fixed_tournament_is_what_hand_arithmetic_says() -> None:
    table = cross_table(["A", "B", "C"], RESULTS)

    ab = table.cell("A", "B")
    assert ab is not None
    # mean (2 - 1 + 0) / 3; sd sqrt(((5/3)^2 + (4/3)^2 + (1/3)^2) / 2) = sqrt(7/3) = 1.52753;
    # half-width t(0.975, 2 df) 4.303 * 1.52753 / sqrt(3) = 3.79489
    assert ab.interval.n == 3
    assert ab.interval.mean == pytest.approx(1 / 3)
    assert ab.interval.low == pytest.approx(1 / 3 - 3.79489, abs=1e-5)
    assert ab.interval.high == pytest.approx(1 / 3 + 3.79489, abs=1e-5)
    assert ab.pairs == PairCount(won=1, drawn=1, lost=1)
    assert (ab.matches, ab.forfeits, ab.void) == (1, 0, 0)

    ba = table.cell("B", "A")
    assert ba is not None
    assert ba.interval.mean == pytest.approx(-1 / 3)
    assert ba.interval.low == pytest.approx(-1 / 3 - 3.79489, abs=1e-5)
    assert ba.pairs == PairCount(1, 1, 1)

    # C's forfeit: the pair it played counts (+1 for C), the two it never reached are C's losses.
    ca, ac = table.cell("C", "A"), table.cell("A", "C")
    assert ca is not None and ac is not None
    assert (ca.interval.n, ca.interval.mean) == (1, 1.0)
    assert math.isinf(ca.interval.low) and math.isinf(ca.interval.high)  # one pair: no interval
    assert ca.pairs == PairCount(won=1, drawn=0, lost=2) and ca.forfeits == 1
    assert ac.pairs == PairCount(won=2, drawn=0, lost=1) and ac.forfeits == 0
    assert ac.interval.mean == -1.0

    # The void match: met, nothing counted.
    bc = table.cell("B", "C")
    assert bc is not None
    assert (bc.matches, bc.void, bc.interval.n, bc.pairs) == (1, 1, 0, PairCount())

    a, b, c = table.totals["A"], table.totals["B"], table.totals["C"]
    # A's played pairs: +2, -1, 0 against B and -1 against C: mean 0, sd sqrt(6/3) = 1.41421,
    # half-width t(0.975, 3 df) 3.182 * 1.41421 / 2 = 2.25
    assert (a.matches, a.pairs, a.faults, a.forfeits) == (2, PairCount(3, 1, 2), 0, 0)
    assert a.interval.mean == pytest.approx(0.0)
    assert a.interval.high == pytest.approx(2.25, abs=1e-4)
    assert (b.matches, b.pairs, b.faults) == (2, PairCount(1, 1, 1), 0)
    assert b.interval.mean == pytest.approx(-1 / 3)
    assert (c.matches, c.pairs, c.faults, c.forfeits) == (2, PairCount(1, 0, 2), 2, 1)
    assert c.interval.mean == 1.0
    assert table.cell("A", "A") is None


def test_a_result_that_does_not_fit_is_refused() -> None:
    with pytest.raises(ValueError, match="not a partnership of the match"):
        MatchResult("A", "B", 2, (), forfeited_by="C")
    with pytest.raises(ValueError, match="3 deal pairs scored of 2"):
        MatchResult("A", "B", 2, (1.0, 1.0, 1.0))
    with pytest.raises(ValueError, match="against itself"):
        MatchResult("A", "A", 2)
    with pytest.raises(ValueError, match="not both in the tournament"):
        cross_table(["A", "B"], [MatchResult("A", "D", 1, (1.0,))])
    with pytest.raises(ValueError, match="listed twice"):
        cross_table(["A", "A"], [])


NAMES = ["A", "B", "C", "D", "E"]


@st.composite
def tournaments(draw: st.DrawFn) -> tuple[list[str], list[MatchResult]]:
    count = draw(st.integers(2, 5))
    bots = draw(st.permutations(NAMES))[:count]
    results = []
    for _ in range(draw(st.integers(0, 8))):
        a, b = draw(st.lists(st.sampled_from(bots), min_size=2, max_size=2, unique=True))
        deals = draw(st.integers(1, 4))
        scores = tuple(draw(st.lists(st.integers(-6, 6).map(float), max_size=deals)))
        ending = draw(st.sampled_from(["done", "forfeit a", "forfeit b", "void"]))
        if ending == "done":
            scores = scores + (0.0,) * (deals - len(scores))
        forfeited_by = {"forfeit a": a, "forfeit b": b}.get(ending)
        faults = tuple(draw(st.lists(st.sampled_from([a, b]), max_size=3)))
        results.append(MatchResult(a, b, deals, scores, forfeited_by, ending == "void", faults))
    return bots, results


def swapped(result: MatchResult) -> MatchResult:
    """The same match with the partnerships named the other way round."""
    return MatchResult(result.b, result.a, result.deals, tuple(-s for s in result.deal_scores), result.forfeited_by,
                       result.void, result.fault_bots)


@settings(max_examples=60, deadline=None)
@given(tournaments(), st.randoms(use_true_random=False))
def test_the_cross_table_does_not_depend_on_the_order_of_bots_or_of_a_match(
        tournament: tuple[list[str], list[MatchResult]], random: object) -> None:
    bots, results = tournament
    table = cross_table(bots, results)
    shuffled = list(bots)
    random.shuffle(shuffled)  # type: ignore[attr-defined]
    other = cross_table(shuffled, [swapped(r) if k % 2 else r for k, r in enumerate(results)])
    assert other.totals == table.totals
    assert other.cells.keys() == table.cells.keys()
    for key, cell in table.cells.items():
        twin = other.cells[key]
        assert (twin.pairs, twin.matches, twin.forfeits, twin.void) == (cell.pairs, cell.matches, cell.forfeits,
                                                                         cell.void)
        assert twin.interval.mean == pytest.approx(cell.interval.mean)


@settings(max_examples=60, deadline=None)
@given(tournaments())
def test_each_cell_mirrors_its_opposite_and_the_totals_add_up(tournament: tuple[list[str], list[MatchResult]]) -> None:
    bots, results = tournament
    table = cross_table(bots, results)
    for (bot, opponent), cell in table.cells.items():
        mirror = table.cell(opponent, bot)
        assert mirror is not None
        assert mirror.pairs == cell.pairs.mirrored()
        assert mirror.interval.mean == pytest.approx(-cell.interval.mean)
        assert mirror.interval.n == cell.interval.n
    for bot in bots:
        row = [cell for (row_bot, _), cell in table.cells.items() if row_bot == bot]
        assert table.totals[bot].pairs == sum((cell.pairs for cell in row), PairCount())
        assert table.totals[bot].matches == sum(cell.matches for cell in row)
    # Every counted pair is won by one side and lost by the other (or drawn by both).
    assert sum(t.pairs.won for t in table.totals.values()) == sum(t.pairs.lost for t in table.totals.values())
    counted = sum(r.deals if r.forfeited_by else len(r.deal_scores) for r in results if not r.void)
    assert sum(t.pairs.total for t in table.totals.values()) == 2 * counted
    assert sum(t.faults for t in table.totals.values()) == sum(len(r.fault_bots) for r in results)
