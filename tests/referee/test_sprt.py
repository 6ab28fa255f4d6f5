"""The SPRT on deal pairs: its formulas, its invariants, and its error rates by simulation."""

from __future__ import annotations

import math
import random
import statistics

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from arena.referee.in_process import play_in_process
from arena.referee.sprt import (
    PairSums,
    SequentialTest,
    SprtSettings,
    SprtSettingsError,
    Verdict,
    llr,
    profile_log_likelihood,
    run_sequential,
    status,
)
from arena.referee.sprt_simulation import shifted, simulate
from sample_bots.random.bot import RandomBot

scores = st.lists(st.integers(min_value=-4, max_value=4).map(float), min_size=2, max_size=60)


def sums_of(values: list[float]) -> PairSums:
    sums = PairSums()
    for value in values:
        sums = sums.add(value)
    return sums


def test_wald_bounds() -> None:
    test = SprtSettings(alpha=0.05, beta=0.1)
    assert test.lower == pytest.approx(math.log(0.1 / 0.95))
    assert test.upper == pytest.approx(math.log(0.9 / 0.05))


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"alpha": 0.0}, "alpha 0: expected a probability strictly between 0 and 1"),
    ({"beta": 1.0}, "beta 1: expected a probability strictly between 0 and 1"),
    ({"alpha": math.nan}, "alpha nan"),
    ({"alpha": 0.5, "beta": 0.5}, "expected a sum below 1"),
    ({"t0": 0.2, "t1": 0.1}, "bounds 0.2, 0.1: expected H0's below H1's"),
    ({"t1": math.inf}, "expected H0's below H1's"),
])
def test_settings_refuse_what_no_test_can_run_with(kwargs: dict[str, float], message: str) -> None:
    with pytest.raises(SprtSettingsError, match=message.replace("(", r"\(").replace(")", r"\)")):
        SprtSettings(**kwargs)


@given(scores, st.floats(min_value=-1, max_value=1))
@settings(max_examples=60, deadline=None)
def test_profile_likelihood_is_the_maximum_over_the_spread(values: list[float], t: float) -> None:
    """The closed form against a direct search over sd: no sd gives a higher likelihood (scores
    not all zero: then the likelihood has no maximum and the floor decides, tested below)."""
    assume(any(values))
    sums = sums_of(values)
    best = profile_log_likelihood(sums, t)
    a = max(sums.total_sq / sums.n, 1e-12)

    def log_likelihood(sd: float) -> float:  # normal, mean t * sd, constants dropped
        return sum(-math.log(sd) - (x - t * sd) ** 2 / (2 * sd * sd) for x in values)

    for factor in (0.25, 0.5, 0.9, 0.99, 1.01, 1.1, 2, 4):
        sd = math.sqrt(a) * factor
        assert log_likelihood(sd) <= best + 1e-9 * (1 + abs(best))
    if sums.total_sq > 0:  # the maximum itself is reached at the closed form's sd
        u = (t * sums.mean + math.sqrt(t * t * sums.mean ** 2 + 4 * a)) / (2 * a)
        assert log_likelihood(1 / u) == pytest.approx(best, rel=1e-9, abs=1e-9)


@given(scores, st.floats(min_value=0.1, max_value=10))
@settings(max_examples=80, deadline=None)
def test_the_llr_does_not_depend_on_the_scale_of_the_scores(values: list[float], scale: float) -> None:
    """Normalized hypotheses: Mendikot's points and Dehla Pakad's hands give the same test."""
    test = SprtSettings()
    assert llr(sums_of([v * scale for v in values]), test) == pytest.approx(llr(sums_of(values), test), abs=1e-6)


@given(scores, st.floats(min_value=0.01, max_value=3))
@settings(max_examples=80, deadline=None)
def test_better_scores_never_lower_the_llr(values: list[float], shift: float) -> None:
    test = SprtSettings()
    assert llr(sums_of([v + shift for v in values]), test) >= llr(sums_of(values), test) - 1e-9


def test_a_run_of_drawn_pairs_accepts_h0_in_finite_steps() -> None:
    """No spread: the test still moves (towards H0, the effect of zero), never to an infinite LLR."""
    result = run_sequential(iter(lambda: 0.0, None), SprtSettings(), 10_000)
    assert result.verdict is Verdict.H0
    assert result.pairs == math.ceil(-SprtSettings().lower / (0.2 ** 2 / 2))


def test_the_cap_makes_an_undecided_verdict_and_a_decided_test_takes_no_more() -> None:
    test = SequentialTest(SprtSettings(), max_pairs=3)
    for score in (1.0, -1.0):
        assert test.add(score).verdict is Verdict.CONTINUE
    assert test.add(0.5).verdict is Verdict.UNDECIDED
    with pytest.raises(RuntimeError):
        test.add(1.0)
    with pytest.raises(SprtSettingsError):
        SequentialTest(SprtSettings(), max_pairs=0)


def test_status_reads_the_llr_against_the_bounds() -> None:
    strong = sums_of([3.0, 2.0, 4.0, 3.0, 1.0, 3.0, 4.0, 2.0, 3.0, -3.0] * 3)
    assert status(strong, SprtSettings()).verdict is Verdict.H1
    weak = sums_of([-3.0, -2.0, -4.0, -3.0, -1.0, -3.0, -4.0, -2.0, -3.0, 3.0] * 3)
    assert status(weak, SprtSettings()).verdict is Verdict.H0
    assert status(sums_of([1.0, -1.0]), SprtSettings(), at_cap=True).verdict is Verdict.UNDECIDED


# ----------------------------------------------------------------------------- simulation
RUNS = 1000
TOLERANCE = 0.02
"""On the error rates of ``RUNS`` seeded runs: about three standard errors of a 5% rate (0.69%).
``bench/sprt_deals.py`` runs more, on a skewed sample too (docs/performance.md)."""


def empirical_pairs() -> list[float]:
    """A real match's pair scores: equal bots (in-process, 100 deals)."""
    return play_in_process([RandomBot(1), RandomBot(2), RandomBot(3), RandomBot(4)], deals=100, seed=5).deal_scores


def rates(values: list[float], test: SprtSettings, seed: int) -> tuple[float, float, float]:
    """Over RUNS runs on pairs drawn from ``values``: the shares that accepted H1 and H0, and the mean pairs."""
    h1, h0, pairs = simulate(values, test, RUNS, random.Random(seed), 100_000)
    assert h0 + h1 == 1  # every run decided (no cap within reach)
    return h1, h0, pairs


def test_error_rates_by_simulation_are_within_alpha_and_beta() -> None:
    """Pair scores resampled from a real match between equal bots, shifted to H0 and to H1: the
    false-positive rate (H1 accepted under H0) is within alpha, the false-negative rate within
    beta, and the test needs well under the deals of the fixed-sample test with the nominal rates."""
    test = SprtSettings()
    tolerance = TOLERANCE
    sample = empirical_pairs()
    false_positive, _, deals_h0 = rates(shifted(sample, test.t0), test, seed=11)
    _, false_negative, deals_h1 = rates(shifted(sample, test.t1), test, seed=12)
    assert false_positive <= test.alpha + tolerance, false_positive
    assert false_negative <= test.beta + tolerance, false_negative
    z = statistics.NormalDist().inv_cdf
    fixed = ((z(1 - test.alpha) + z(1 - test.beta)) / (test.t1 - test.t0)) ** 2  # 384.1 pairs at the defaults
    assert max(deals_h0, deals_h1) < 0.6 * fixed, (deals_h0, deals_h1, fixed)
