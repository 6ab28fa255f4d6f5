"""A tournament's ordering with its uncertainty: a Bradley-Terry fit on deal pairs.

The model: each bot ``i`` has a strength ``θ_i``, and a deal pair between ``i`` and ``j`` is won by
``i`` with probability ``p_ij = 1 / (1 + exp(θ_j - θ_i))``; a drawn pair counts half a win to each.
Each pairing of the plan also gets ``PRIOR_DRAWS`` virtual drawn pairs (half a win each way), a
weak prior that keeps the fit finite when a bot won or lost every pair (a bot that never started).
The strengths are the maximum of that likelihood, found by Hunter's MM iteration (monotone, no
step size), and centred: their mean is 0 (only differences are identified). Their covariance is
the Laplace approximation, the pseudo-inverse of the observed information (the graph Laplacian
with edge weights ``n_ij p_ij p_ji``), which is the covariance of the centred strengths. The
likelihood of superiority of ``i`` over ``j`` is ``Φ((θ_i - θ_j) / sd(θ_i - θ_j))``. Ratings are
shown on the Elo scale: ``400 / ln 10`` times ``θ`` (a 100-point gap: about 64% of pairs won).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

PRIOR_DRAWS = 1.0
"""Virtual drawn deal pairs added to each planned pairing."""
ELO_PER_UNIT = 400 / math.log(10)
TOLERANCE = 1e-10
"""The fit stops when no strength moves by more than this (natural units)."""
MAX_ITERATIONS = 100_000

MODEL = ("Bradley-Terry on deal pairs won (a drawn pair half), one virtual drawn pair per pairing as a prior; "
         "ratings on the Elo scale, centred on 0; sd from the Laplace approximation; P(> next) (superiority): "
         "the likelihood that a bot is stronger than the next one in the ordering")
"""The model, as the report states it."""

Matrix = npt.NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class Rating:
    bot: str
    elo: float
    """Centred: the ratings of a tournament sum to 0."""
    sd: float
    superiority: float | None
    """Likelihood that this bot is stronger than the next in the ordering (None for the last)."""


@dataclass(frozen=True, slots=True)
class Ordering:
    ratings: tuple[Rating, ...]
    """Strongest first."""
    model: str = MODEL


def fit_ordering(bots: Sequence[str], points: Mapping[tuple[str, str], float],
                 pairings: Sequence[tuple[str, str]]) -> Ordering:
    """The ordering of ``bots`` from ``points[(i, j)]``: deal pairs ``i`` won against ``j`` (draws
    half), over the planned ``pairings``, which must connect every bot to every other."""
    n = len(bots)
    position = {bot: k for k, bot in enumerate(bots)}
    if len(position) != n:
        raise ValueError("a bot listed twice")
    wins = np.zeros((n, n))
    for (bot, opponent), value in points.items():
        if value < 0:
            raise ValueError(f"{bot!r} against {opponent!r}: negative count {value}")
        wins[position[bot], position[opponent]] += value
    met = np.zeros((n, n), dtype=bool)
    for a, b in pairings:
        i, j = position[a], position[b]
        if i == j:
            raise ValueError(f"a pairing of {a!r} with itself")
        met[i, j] = met[j, i] = True
    if (wins[~met] != 0).any():
        raise ValueError("pairs counted between bots that no pairing meets")
    wins = wins + met * (PRIOR_DRAWS / 2)
    if n > 1 and not _connected(met):
        raise ValueError("the pairings do not connect every bot: their ratings are not comparable")
    theta = _strengths(wins)
    covariance = _covariance(theta, wins + wins.T)
    order = sorted(range(n), key=lambda k: (-round(float(theta[k]), 9), bots[k]))
    ratings = []
    for rank, k in enumerate(order):
        superiority = None
        if rank + 1 < n:
            following = order[rank + 1]
            spread = covariance[k, k] + covariance[following, following] - 2 * covariance[k, following]
            superiority = _phi((theta[k] - theta[following]) / math.sqrt(max(spread, 1e-300)))
        ratings.append(Rating(bots[k], float(theta[k] * ELO_PER_UNIT),
                              float(math.sqrt(max(covariance[k, k], 0.0)) * ELO_PER_UNIT), superiority))
    return Ordering(tuple(ratings))


def _strengths(wins: Matrix) -> Matrix:
    """Hunter's MM iteration for the maximum-likelihood strengths, centred (mean 0)."""
    n = len(wins)
    games = wins + wins.T
    total_wins = wins.sum(axis=1)
    theta = np.zeros(n)
    if n < 2:
        return theta
    for _ in range(MAX_ITERATIONS):
        strength = np.exp(theta)
        denominators = (games / (strength[:, None] + strength[None, :])).sum(axis=1)
        updated = np.log(total_wins / denominators)
        updated -= updated.mean()
        moved = float(np.abs(updated - theta).max())
        theta = updated
        if moved < TOLERANCE:
            break
    return theta


def _covariance(theta: Matrix, games: Matrix) -> Matrix:
    """The pseudo-inverse of the information matrix: the centred strengths' covariance."""
    p = 1 / (1 + np.exp(theta[None, :] - theta[:, None]))
    weights = games * p * p.T
    information = np.diag(weights.sum(axis=1)) - weights
    covariance: Matrix = np.asarray(np.linalg.pinv(information), dtype=np.float64)
    return covariance


def _connected(met: npt.NDArray[np.bool_]) -> bool:
    seen = {0}
    frontier = [0]
    while frontier:
        k = frontier.pop()
        for j in np.flatnonzero(met[k]):
            if int(j) not in seen:
                seen.add(int(j))
                frontier.append(int(j))
    return len(seen) == len(met)


def _phi(z: float) -> float:
    """The standard normal distribution function."""
    return 0.5 * (1 + math.erf(z / math.sqrt(2)))
