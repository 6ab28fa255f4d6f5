"""TrueSkill ratings: one explicit environment, team-shaped updates, the sort key mu - 3 sigma.

The rated unit is a *game*: in a duplicate match each deal pair (the deal played twice, the
cards rotated) is one game, rated in order, so a 16-deal match gives 16 updates instead of one
(see ``games_of`` in ``ladder/coordinator/results.py``). Deal pairs are independent given the bots (fresh
cards each), so the updates are honest evidence; the signs of all the deal pairs keep most of
what their margins say, which the match's one sign throws away.

Parameters for this game (see ``docs/ladder.md``):

- ``mu = 25``, ``sigma = 25/3``: TrueSkill's usual scale; a new version starts fresh there.
- ``beta = 25/6``: the performance spread of one game (the default scale).
- ``tau = 0.01``: bots do not learn between matches, so skill barely drifts; a tiny tau only
  keeps sigma from collapsing to zero over very long runs. A changed bot is a new version.
- ``draw_probability = 0.33``: a deal pair ends level (each side wins the deal once, with the
  same value) that often between bots of equal strength (measured: 0.32-0.33 for the noisy
  heuristic bots of ``bench/ladder.py`` against themselves, 0.2-0.5 between neighbours).

The self-partner rule: a bot partnered with a copy of itself is entered as two players with
the same rating. TrueSkill then returns the same new rating for both seats (they are
symmetric), and that rating is stored once: the match counts once for the version, as one
match, one result and (if either copy faulted) one fault. The partnership (v, v) is rated as
its own unit like any other partnership.

The pure-Python backend of ``trueskill`` fails with ``FloatingPointError`` at extreme rating
gaps (an upset between far-apart ratings); the update is then recomputed with the ``mpmath``
backend, which is slower but stable.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

import trueskill

from arena.engine.errors import ArenaError


class RatingError(ArenaError):
    """A rating update that no backend could compute, or a malformed team."""


class TeamResult(StrEnum):
    """A match result from one partnership's side, as the rating history stores it."""

    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"


class Outcome(StrEnum):
    """A match result from partnership A's side."""

    A_WINS = "a"
    B_WINS = "b"
    DRAW = "draw"

    def ranks(self) -> list[int]:
        return {Outcome.A_WINS: [0, 1], Outcome.B_WINS: [1, 0], Outcome.DRAW: [0, 0]}[self]

    def for_team(self, team: int) -> TeamResult:
        """The result for team 0 (A) or 1 (B)."""
        if self is Outcome.DRAW:
            return TeamResult.DRAW
        return TeamResult.WIN if (self is Outcome.A_WINS) == (team == 0) else TeamResult.LOSS


CONSERVATIVE_SIGMAS = 3
"""The ranking key's margin: mu - 3 sigma (TrueSkill's ``expose``, 99.7% sure to be below the skill)."""


def conservative(mu: float, sigma: float) -> float:
    """The ranking key of a belief: mu - 3 sigma. Plain arithmetic, so the same function gives the
    SQL expression when handed columns (``Rated.conservative``): the store sorts by what a row shows."""
    return mu - CONSERVATIVE_SIGMAS * sigma


@dataclass(frozen=True, slots=True)
class Skill:
    """A TrueSkill belief: mean and standard deviation."""

    mu: float
    sigma: float

    @property
    def conservative(self) -> float:
        """The ranking key: ``conservative(mu, sigma)``."""
        return conservative(self.mu, self.sigma)


@dataclass(frozen=True, slots=True)
class RatingParams:
    mu: float = 25.0
    sigma: float = 25.0 / 3
    beta: float = 25.0 / 6
    tau: float = 0.01
    draw_probability: float = 0.33


LADDER_PARAMS = RatingParams()


class RatingEnv:
    """The ladder's one TrueSkill environment (never the library's global ``setup()``)."""

    def __init__(self, params: RatingParams = LADDER_PARAMS) -> None:
        self.params = params
        self._fast = self._make(None)
        self._stable: trueskill.TrueSkill | None = None
        self.fallbacks = 0
        """How many updates needed the stable backend (for tests and logs)."""

    def _make(self, backend: str | None) -> Any:
        p = self.params
        return trueskill.TrueSkill(mu=p.mu, sigma=p.sigma, beta=p.beta, tau=p.tau,
                                   draw_probability=p.draw_probability, backend=backend)

    def new(self) -> Skill:
        return Skill(self.params.mu, self.params.sigma)

    def rate(self, teams: Sequence[Sequence[Skill]], outcome: Outcome) -> list[list[Skill]]:
        """Team-shaped update: ``[[a1, a2], [b1, b2]]`` in, the same shape out."""
        if len(teams) != 2 or any(not team for team in teams):
            raise RatingError("a rated match needs two non-empty teams")
        groups = [[self._fast.create_rating(s.mu, s.sigma) for s in team] for team in teams]
        try:
            rated = self._fast.rate(groups, ranks=outcome.ranks())
        except FloatingPointError:
            self.fallbacks += 1
            try:
                rated = self._stable_env().rate(groups, ranks=outcome.ranks())
            except (FloatingPointError, ValueError, ZeroDivisionError) as exc:
                raise RatingError(f"rating update failed on both backends: {exc}") from None
        return [[Skill(float(r.mu), float(r.sigma)) for r in team] for team in rated]

    def quality(self, a: Sequence[Skill], b: Sequence[Skill]) -> float:
        """TrueSkill's draw-probability-based match quality in [0, 1]: high means informative."""
        groups = [[self._fast.create_rating(s.mu, s.sigma) for s in team] for team in (a, b)]
        try:
            return float(self._fast.quality(groups))
        except (FloatingPointError, ValueError, ZeroDivisionError):
            return 0.0

    def _stable_env(self) -> Any:
        if self._stable is None:
            self._stable = self._make("mpmath")
        return self._stable

    def rate_versions(self, team_a: tuple[int, int], team_b: tuple[int, int], skills: Mapping[int, Skill],
                      outcome: Outcome) -> dict[int, Skill]:
        """New ratings of the bot versions at the table, by the self-partner rule (one entry per
        version, even when it sits twice)."""
        if set(team_a) & set(team_b):
            raise RatingError(f"a version cannot play on both sides ({team_a} vs {team_b})")
        rated = self.rate([[skills[v] for v in team_a], [skills[v] for v in team_b]], outcome)
        updated: dict[int, Skill] = {}
        for team, new in ((team_a, rated[0]), (team_b, rated[1])):
            for version, skill in zip(team, new, strict=True):
                updated.setdefault(version, skill)
        return updated

    def rate_partnerships(self, a: Skill, b: Skill, outcome: Outcome) -> tuple[Skill, Skill]:
        """A partnership is rated as a unit: a one-player team against another."""
        (new_a,), (new_b,) = self.rate([[a], [b]], outcome)
        return new_a, new_b

    def rate_versions_series(self, team_a: tuple[int, int], team_b: tuple[int, int], skills: Mapping[int, Skill],
                             games: Sequence[Outcome]) -> dict[int, Skill]:
        """``rate_versions`` over a match's games in order: the ratings after the last one."""
        current = {v: skills[v] for v in {*team_a, *team_b}}
        for outcome in games:
            current.update(self.rate_versions(team_a, team_b, current, outcome))
        return current

    def rate_partnerships_series(self, a: Skill, b: Skill, games: Sequence[Outcome]) -> tuple[Skill, Skill]:
        """``rate_partnerships`` over a match's games in order."""
        for outcome in games:
            a, b = self.rate_partnerships(a, b, outcome)
        return a, b
