"""The tournament's Bradley-Terry ordering against hand-worked cases, and the fit's invariants."""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.referee.tournament.ordering import ELO_PER_UNIT, PRIOR_DRAWS, fit_ordering


def phi(z: float) -> float:
    return 0.5 * (1 + math.erf(z / math.sqrt(2)))


def test_two_bots_fit_their_share_of_pairs_with_the_prior() -> None:
    # A won 3 deal pairs of 4 against B; with the prior's virtual drawn pair, 3.5 of 5:
    # p = 0.7, so θ_A - θ_B = ln(7/3) = 0.847298, centred ±0.423649, on the Elo scale
    # ±400 log10(7/3) / 2 = ±73.5954. Information n p q = 5 * 0.21 = 1.05 on the one edge; the
    # pseudo-inverse of [[1.05, -1.05], [-1.05, 1.05]] is [[1, -1], [-1, 1]] / (4 * 1.05), so
    # sd(θ_A) = sqrt(1 / 4.2) = 0.487950 (84.766 Elo) and sd(θ_A - θ_B) = sqrt(1 / 1.05) = 0.975900:
    # the likelihood that A is the stronger Φ(0.847298 / 0.975900) = Φ(0.868222) = 0.807364.
    ordering = fit_ordering(["B", "A"], {("A", "B"): 3, ("B", "A"): 1}, [("A", "B")])
    first, second = ordering.ratings
    assert (first.bot, second.bot) == ("A", "B")
    assert first.elo == pytest.approx(73.5954, abs=1e-3)
    assert second.elo == pytest.approx(-73.5954, abs=1e-3)
    assert first.sd == pytest.approx(84.766, abs=1e-3)
    assert first.superiority == pytest.approx(0.807364, abs=1e-6)
    assert second.superiority is None
    assert "Bradley-Terry" in ordering.model


def test_a_gauntlet_fits_each_spoke_alone_and_superiority_adds_the_variances_along_the_path() -> None:
    # G against X: 3 won, 1 lost (+ prior: 3.5 : 1.5, p = 0.7, information 1.05);
    # G against Y: 2 won, 2 lost (2.5 : 2.5, p = 0.5, information 5 * 0.25 = 1.25). X and Y never meet.
    # A star decouples: θ_G - θ_X = ln(7/3) = 0.847298, θ_G - θ_Y = 0; centred (mean 0):
    # θ_G = θ_Y = 0.847298 / 3 = 0.282433 (49.0636 Elo), θ_X = -0.564865 (-98.1271 Elo).
    # The variance of a difference is the resistance between the two bots in a network whose
    # conductances are the informations: Y to X through G is 1 / 1.25 + 1 / 1.05 = 1.752381, so
    # P(Y stronger than X) = Φ(0.847298 / sqrt(1.752381)) = Φ(0.640063) = 0.738934; G and Y: Φ(0) = 0.5.
    points = {("G", "X"): 3.0, ("X", "G"): 1.0, ("G", "Y"): 2.0, ("Y", "G"): 2.0}
    ordering = fit_ordering(["G", "X", "Y"], points, [("G", "X"), ("G", "Y")])
    by_bot = {r.bot: r for r in ordering.ratings}
    assert by_bot["G"].elo == pytest.approx(49.0636, abs=1e-3)
    assert by_bot["Y"].elo == pytest.approx(49.0636, abs=1e-3)
    assert by_bot["X"].elo == pytest.approx(-98.1271, abs=1e-3)
    assert [r.bot for r in ordering.ratings] == ["G", "Y", "X"]  # a tie goes by name
    assert ordering.ratings[0].superiority == pytest.approx(0.5, abs=1e-6)
    assert ordering.ratings[1].superiority == pytest.approx(0.738934, abs=1e-6)


def test_a_bot_that_lost_every_pair_still_gets_a_finite_rating() -> None:
    ordering = fit_ordering(["A", "B"], {("A", "B"): 10.0}, [("A", "B")])
    # 10.5 : 0.5 with the prior: θ_A - θ_B = ln 21.
    assert ordering.ratings[0].elo - ordering.ratings[1].elo == pytest.approx(math.log(21) * ELO_PER_UNIT, abs=1e-3)


def test_input_that_does_not_fit_is_refused() -> None:
    with pytest.raises(ValueError, match="do not connect"):
        fit_ordering(["A", "B", "C", "D"], {}, [("A", "B"), ("C", "D")])
    with pytest.raises(ValueError, match="no pairing meets"):
        fit_ordering(["A", "B", "C"], {("B", "C"): 1.0}, [("A", "B"), ("A", "C")])
    with pytest.raises(ValueError, match="negative"):
        fit_ordering(["A", "B"], {("A", "B"): -1.0}, [("A", "B")])


BOTS = ["A", "B", "C", "D", "E"]


@st.composite
def round_robins(draw: st.DrawFn) -> tuple[list[str], dict[tuple[str, str], float], list[tuple[str, str]]]:
    bots = BOTS[:draw(st.integers(2, 5))]
    pairings = [(a, b) for k, a in enumerate(bots) for b in bots[k + 1:]]
    points: dict[tuple[str, str], float] = {}
    for a, b in pairings:
        won, drawn, lost = (draw(st.integers(0, 8)) for _ in range(3))
        points[(a, b)] = won + drawn / 2
        points[(b, a)] = lost + drawn / 2
    return bots, points, pairings


@settings(max_examples=80, deadline=None)
@given(round_robins(), st.randoms(use_true_random=False))
def test_the_fit_is_centred_solves_its_equations_and_ignores_the_order_of_bots(
        tournament: tuple[list[str], dict[tuple[str, str], float], list[tuple[str, str]]], random: object) -> None:
    bots, points, pairings = tournament
    ordering = fit_ordering(bots, points, pairings)
    theta = {r.bot: r.elo / ELO_PER_UNIT for r in ordering.ratings}
    assert sum(theta.values()) == pytest.approx(0.0, abs=1e-8)
    # The maximum of the likelihood: each bot's points (prior included) equal its expected points.
    for bot in bots:
        scored = expected = 0.0
        for a, b in pairings:
            if bot not in (a, b):
                continue
            other = b if bot == a else a
            games = points[(a, b)] + points[(b, a)] + PRIOR_DRAWS
            scored += points[(bot, other)] + PRIOR_DRAWS / 2
            expected += games / (1 + math.exp(theta[other] - theta[bot]))
        assert scored == pytest.approx(expected, abs=1e-6)
    ratings = [r.elo for r in ordering.ratings]
    # best first; ratings equal to rounding (a tie, broken by name) may differ in the last digits
    assert all(higher >= lower - 1e-6 for higher, lower in itertools.pairwise(ratings))
    assert all(0.5 - 1e-6 <= r.superiority <= 1 for r in ordering.ratings[:-1] if r.superiority is not None)
    shuffled = list(bots)
    random.shuffle(shuffled)  # type: ignore[attr-defined]
    again = {r.bot: r for r in fit_ordering(shuffled, points, list(reversed(pairings))).ratings}
    for rating in ordering.ratings:
        assert again[rating.bot].elo == pytest.approx(rating.elo, abs=1e-5)
        assert again[rating.bot].sd == pytest.approx(rating.sd, abs=1e-5)
