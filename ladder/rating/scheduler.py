"""Choosing the next match: a seed entry, then opponents near it in rating, with randomness.

The seed is drawn at random with weight ``(1 + idle) * uncertainty * (NEW_BOOST if unsettled)``:
``idle`` counts matches scheduled since the entry last played (least recently played first),
``uncertainty`` is ``(sigma / sigma0)^2`` and a version with fewer than ``settle_matches``
matches is unsettled (new versions play more until their rating settles). Opponents are drawn
with weight ``quality + FLOOR``: TrueSkill's match quality (close ratings, informative result)
plus a floor that keeps every pairing possible, so no clique of entries plays only itself
(pure highest-uncertainty picking does that).

Modes: ``self`` (each version partners a copy of itself; the default) and ``mixed`` (the seed
gets a random partner from all versions, itself included; the opponents are two versions drawn
near the seed's rating). A version never sits on both sides.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from ladder.rating.ratings import RatingEnv, Skill

NEW_BOOST = 3.0
FLOOR = 0.05
SETTLE_MATCHES = 10


class Mode(StrEnum):
    SELF = "self"
    MIXED = "mixed"


@dataclass(frozen=True, slots=True)
class Entry:
    """What the scheduler knows of a bot version."""

    version: int
    skill: Skill
    matches: int
    idle: int
    """Matches scheduled since this version last played (large for never)."""


@dataclass(frozen=True, slots=True)
class Pairing:
    """Partnership A (seats 0 and 2) against partnership B (seats 1 and 3)."""

    team_a: tuple[int, int]
    team_b: tuple[int, int]

    @property
    def seats(self) -> tuple[int, int, int, int]:
        return (self.team_a[0], self.team_b[0], self.team_a[1], self.team_b[1])

    @property
    def versions(self) -> set[int]:
        return {*self.team_a, *self.team_b}


class Scheduler:
    def __init__(self, env: RatingEnv, mode: Mode = Mode.SELF, rng: random.Random | None = None,
                 settle_matches: int = SETTLE_MATCHES) -> None:
        self.env = env
        self.mode = mode
        self.rng = rng or random.Random()
        self.settle_matches = settle_matches

    def seed_weight(self, entry: Entry) -> float:
        uncertainty = (entry.skill.sigma / self.env.params.sigma) ** 2
        boost = NEW_BOOST if entry.matches < self.settle_matches else 1.0
        return (1.0 + min(entry.idle, 1000)) * max(uncertainty, 1e-3) * boost

    def next(self, entries: Sequence[Entry]) -> Pairing | None:
        """The next match, or None when fewer than two versions are playable."""
        if len(entries) < 2:
            return None
        seed = self._draw(entries, [self.seed_weight(e) for e in entries])
        others = [e for e in entries if e.version != seed.version]
        if self.mode is Mode.SELF:
            opponent = self._opponent(seed, others)
            pairing = Pairing((seed.version, seed.version), (opponent.version, opponent.version))
        else:
            partner = self.rng.choice(entries)
            rest = [e for e in entries if e.version not in (seed.version, partner.version)]
            if not rest:  # two versions, and the seed drew the other as its partner
                partner, rest = seed, others
            first = self._opponent(seed, rest)
            second = self._opponent(seed, rest)
            pairing = Pairing((seed.version, partner.version), (first.version, second.version))
        if self.rng.random() < 0.5:
            pairing = Pairing(pairing.team_b, pairing.team_a)
        return pairing

    def _opponent(self, seed: Entry, others: Sequence[Entry]) -> Entry:
        weights = [self.env.quality([seed.skill], [e.skill]) + FLOOR for e in others]
        return self._draw(others, weights)

    def _draw(self, entries: Sequence[Entry], weights: Sequence[float]) -> Entry:
        return self.rng.choices(list(entries), weights=list(weights), k=1)[0]
