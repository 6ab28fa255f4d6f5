"""When a rating is still provisional, and why a rating can move against a match's result.

The rule, defined once (docs/web.md, *Ratings*): a version's rating is **provisional** while it has
played fewer than ``PROVISIONAL_MATCHES`` rated matches or its σ is above ``PROVISIONAL_SIGMA``
(a fresh version starts at σ = 25/3 ≈ 8.33; σ below 4 means the ladder is fairly sure of μ)."""

from __future__ import annotations

from dataclasses import dataclass

from ladder.rating import formatting
from ladder.rating.ratings import TeamResult, conservative

PROVISIONAL_MATCHES = 10
PROVISIONAL_SIGMA = 4.0


def is_provisional(matches: int, sigma: float) -> bool:
    """Too few matches, or too uncertain a belief, for the rank to mean much yet."""
    return matches < PROVISIONAL_MATCHES or sigma > PROVISIONAL_SIGMA


@dataclass(frozen=True, slots=True)
class RatingMove:
    """One match's change of a version's rating (μ−3σ), and the reason when it runs against the result."""

    before: float
    after: float
    change: float
    against_result: bool
    explanation: str | None


def rating_move(outcome: TeamResult, mu_before: float, sigma_before: float,
                mu_after: float, sigma_after: float) -> RatingMove:
    """The rating is μ−3σ: every match makes the ladder surer (σ falls), which lifts μ−3σ by 3
    times the fall, so a loss that costs μ less than that still raises the rating."""
    before, after = conservative(mu_before, sigma_before), conservative(mu_after, sigma_after)
    change = after - before
    against = (outcome is TeamResult.LOSS and change > 0) or (outcome is TeamResult.WIN and change < 0)
    explanation = None
    if against:
        mu_part = formatting.signed(round(mu_after - mu_before, 2))
        sigma_part = formatting.signed(round(-3 * (sigma_after - sigma_before), 2))
        verb = "rose although it lost" if change > 0 else "fell although it won"
        explanation = (f"μ−3σ {verb}: μ moved {mu_part}, and σ went from {sigma_before:.2f} to {sigma_after:.2f}, "
                       f"which moves −3σ by {sigma_part}")
    return RatingMove(before=round(before, 3), after=round(after, 3), change=round(change, 3),
                      against_result=against, explanation=explanation)
