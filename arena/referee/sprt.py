"""A sequential probability ratio test on duplicate deal pairs: pure arithmetic, no I/O.

The data are the pair scores ``x`` (a deal played twice, seats swapped: the sum of both plays'
values for partnership A). The model is the normal one with unknown mean and variance, and the
hypotheses are about the **normalized effect** ``t = mean / sd`` of a pair score (scale-free,
so the same bounds suit every preset and every pair of bots, however noisy):

    H0: t = t0      against      H1: t = t1      (t0 < t1)

For each hypothesis the likelihood is maximised over the standard deviation with the mean tied
to it (``mean = t * sd``); the log-likelihood ratio of the two maxima is the generalized SPRT
(GSPRT) statistic. With ``a`` the mean of ``x**2``, ``b`` the mean of ``x`` and ``u = 1 / sd``,
the per-pair log-likelihood is ``log u - a u**2 / 2 + t b u - t**2 / 2``, maximal at
``u = (t b + sqrt(t**2 b**2 + 4 a)) / (2 a)``, so the statistic has a closed form.
Wald's bounds: accept H1 when the LLR reaches ``log((1 - beta) / alpha)``, H0 when it falls to
``log(beta / (1 - alpha))``. Pair scores take many values (in Dehla Pakad -4 to +4), so this is
the many-valued analogue of the pentanomial model chess testers use on game pairs.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

MIN_SECOND_MOMENT = 1e-12
"""Floor on the mean squared pair score: a run of drawn pairs (all zero) has no spread to scale by."""


class SprtSettingsError(ValueError):
    """Settings no test can run with (an error rate outside (0, 1), bounds in the wrong order)."""


class Verdict(StrEnum):
    """Where the test stands: still running, one hypothesis accepted, or stopped at the cap."""

    CONTINUE = "continue"
    H0 = "H0 accepted"
    H1 = "H1 accepted"
    UNDECIDED = "undecided at the cap"


@dataclass(frozen=True, slots=True)
class SprtSettings:
    """Error rates and the two hypotheses, in normalized effect per deal pair (mean / sd)."""

    alpha: float = 0.025
    """The chance of accepting H1 when H0 is true (a false positive)."""
    beta: float = 0.025
    """The chance of accepting H0 when H1 is true (a false negative)."""
    t0: float = 0.0
    t1: float = 0.2

    def __post_init__(self) -> None:
        for name, rate in (("alpha", self.alpha), ("beta", self.beta)):
            if not 0 < rate < 1 or not math.isfinite(rate):
                raise SprtSettingsError(f"{name} {rate:g}: expected a probability strictly between 0 and 1")
        if self.alpha + self.beta >= 1:
            raise SprtSettingsError(f"alpha {self.alpha:g} + beta {self.beta:g}: expected a sum below 1")
        if not (math.isfinite(self.t0) and math.isfinite(self.t1)) or self.t0 >= self.t1:
            raise SprtSettingsError(f"bounds {self.t0:g}, {self.t1:g}: expected H0's below H1's")

    @property
    def lower(self) -> float:
        """Accept H0 at or below this LLR."""
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper(self) -> float:
        """Accept H1 at or above this LLR."""
        return math.log((1 - self.beta) / self.alpha)


@dataclass(frozen=True, slots=True)
class PairSums:
    """The sufficient statistics of the pair scores so far."""

    n: int = 0
    total: float = 0.0
    total_sq: float = 0.0

    def add(self, score: float) -> PairSums:
        return PairSums(self.n + 1, self.total + score, self.total_sq + score * score)

    @property
    def mean(self) -> float:
        return self.total / self.n if self.n else 0.0

    @property
    def variance(self) -> float:
        """The maximum-likelihood (population) variance."""
        return max(0.0, self.total_sq / self.n - self.mean ** 2) if self.n else 0.0

    @property
    def normalized(self) -> float:
        """The estimated effect, mean / sd (0 with no spread to measure it by)."""
        sd = math.sqrt(self.variance)
        return self.mean / sd if sd > 0 else 0.0


def profile_log_likelihood(sums: PairSums, t: float) -> float:
    """The normal log-likelihood of the pair scores (constants dropped), maximised over the
    standard deviation under ``mean = t * sd``."""
    if sums.n == 0:
        return 0.0
    a = max(sums.total_sq / sums.n, MIN_SECOND_MOMENT)
    b = sums.mean
    u = (t * b + math.sqrt(t * t * b * b + 4 * a)) / (2 * a)
    return sums.n * (math.log(u) - a * u * u / 2 + t * b * u - t * t / 2)


def llr(sums: PairSums, settings: SprtSettings) -> float:
    """The GSPRT statistic: H1's maximised log-likelihood less H0's."""
    return profile_log_likelihood(sums, settings.t1) - profile_log_likelihood(sums, settings.t0)


@dataclass(frozen=True, slots=True)
class SprtStatus:
    """The test after ``sums.n`` deal pairs."""

    settings: SprtSettings
    sums: PairSums
    llr: float
    verdict: Verdict

    @property
    def pairs(self) -> int:
        return self.sums.n


def status(sums: PairSums, settings: SprtSettings, at_cap: bool = False) -> SprtStatus:
    """The LLR and the verdict after the pairs in ``sums``; ``at_cap``: no more pairs will come."""
    value = llr(sums, settings)
    if value >= settings.upper:
        verdict = Verdict.H1
    elif value <= settings.lower:
        verdict = Verdict.H0
    else:
        verdict = Verdict.UNDECIDED if at_cap else Verdict.CONTINUE
    return SprtStatus(settings, sums, value, verdict)


class SequentialTest:
    """Feeds pair scores in deal order to the test until it decides or ``max_pairs`` is reached."""

    def __init__(self, settings: SprtSettings, max_pairs: int) -> None:
        if max_pairs < 1:
            raise SprtSettingsError(f"max pairs {max_pairs}: expected at least 1")
        self.settings = settings
        self.max_pairs = max_pairs
        self.current = status(PairSums(), settings)

    @property
    def done(self) -> bool:
        return self.current.verdict is not Verdict.CONTINUE

    def add(self, score: float) -> SprtStatus:
        if self.done:
            raise RuntimeError("the test has already decided")
        sums = self.current.sums.add(score)
        self.current = status(sums, self.settings, at_cap=sums.n >= self.max_pairs)
        return self.current


def run_sequential(scores: Iterable[float], settings: SprtSettings, max_pairs: int) -> SprtStatus:
    """Run the test on ``scores`` (in order) until it decides, the cap, or the scores run out."""
    test = SequentialTest(settings, max_pairs)
    for score in scores:
        test.add(score)
        if test.done:
            break
    return test.current
