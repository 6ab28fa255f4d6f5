"""Search the heuristic's numbers for ones that beat the hand-set numbers in duplicate deal pairs.

``python -m bench.tune_heuristic tune ITERATIONS PAIRS PRESET SEED [OUT] [START] [OPENING]``
``python -m bench.tune_heuristic check WEIGHTS PAIRS PRESET SEED[,SEED...]``

``tune``: simultaneous perturbation stochastic approximation (SPSA, Spall 1992) over the
``Weights`` fields in ``SCALE`` that PRESET uses (``tuned_fields``). Each iteration draws a random sign for every field,
plays a team with the weights moved a step up (+) and a team moved a step down (-), each in
seats 0 and 2 against the hand-set heuristic in 1 and 3, on the same PAIRS fresh deal pairs of
PRESET (match seed SEED, deals numbered on from the last iteration's: no deal is played twice),
in two processes at once, and moves the weights along the difference. What it maximises is what
the issue counts: the share of deal pairs won (a drawn pair a half), as a mean of the pairs'
signs. A field moves in units of its ``SCALE`` (about a third of its hand-set value), at most
``MAX_STEP`` units an iteration, within its ``BOUNDS``. Writes the weights to OUT (JSON) at
every iteration. START (such a file) is where it starts instead of the hand-set weights (a second
round: give it another SEED, so that its deals are new). OPENING (a number of tricks, default 0):
the team plays its first OPENING tricks with numbers of their own, tuned beside the rest's (every
card-play field twice; the call is the rest's): does the opening want other numbers than the
rest of the hand? (Session 28: no.)

``check``: the team with WEIGHTS (a JSON file as ``tune`` writes, its opening numbers too if it
has them, or ``expert``: the expert's own numbers for PRESET, ``sample_bots/expert/weights.py``)
against the hand-set heuristic
on PAIRS deal pairs from each SEED (use seeds ``tune`` never played): won, drawn, lost, share,
mean per pair with its 95% interval. Both sides are in process on a table whose clock never
moves. Last line: one JSON object.
"""

from __future__ import annotations

import asyncio
import json
import math
import os
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path

from arena.contract.faults import FaultPolicy
from arena.contract.time_control import TimeControl
from arena.engine.actions import PlayCard, RevealTrump
from arena.engine.cards import Card
from arena.engine.match import MatchFormat
from arena.engine.rules import rules_for
from arena.referee.in_process import InProcessSeat
from arena.referee.stats import mean_interval
from arena.referee.table import Table
from arena.referee.table_values import TableConfig
from bench.ceiling import DealSlice, StillClock
from bench.deal_pairs import summary
from sample_bots.expert.weights import expert_weights
from sample_bots.heuristic.bot import HeuristicBot
from sample_bots.heuristic.weights import DEFAULT_WEIGHTS, Weights
from sdk.bot import BotView

SCALE: dict[str, float] = {
    "pile_keep": 0.05, "keep_master_scale": 0.3, "streak_edge_scale": 0.3, "trick_scale": 0.5,
    "follow_up_edge": 0.1, "opponent_edge": 0.03, "rank_cost": 0.01, "trump_cost": 0.03,
    "trump_rank_cost": 0.03, "master_cost": 0.03, "short_suit_cost": 0.02, "ace_before_ten": 0.06,
    "bare_ten": 0.05, "overtake_strength": 0.15, "sure_lead": 0.1, "last_tricks_keep": 0.2,
    "call_length": 0.7, "call_king": 0.7, "call_queen": 0.6, "call_jack": 0.5, "call_ten": 0.7,
    "lead_length": 0.02, "lead_trumps": 0.02, "lead_master": 0.03, "opponent_beat_scale": 0.1,
    "partner_beat_scale": 0.1, "trump_short_cost": 0.02, "show_cost": 0.05, "ask_cost": 0.03,
    "hidden_ruff": 0.15, "edge_no_claim": 0.04, "cut_length": 0.03, "cut_points": 0.01,
}
"""A field's unit of movement: about a third of its hand-set value (of a plausible one where that
is zero)."""
BOUNDS: dict[str, tuple[float, float]] = {"overtake_strength": (0.0, 1.0), "sure_lead": (0.3, 1.0),
                                          "last_tricks_keep": (0.0, 1.0), "lead_length": (-0.3, 0.3),
                                          "lead_trumps": (-0.3, 0.3), "lead_master": (-0.3, 0.3),
                                          "hidden_ruff": (0.0, 1.0)}
"""Where a field must stay (every other field: not below zero)."""
PRESET_FIELDS: dict[str, tuple[str, ...]] = {
    "dehla-pakad-cut": ("cut_length", "cut_points"),
    "court-piece-double-sir": ("edge_no_claim", "hidden_ruff"),
    "dehla-pakad-hidden": ("hidden_ruff",),
    "mendikot": ("show_cost", "ask_cost", "hidden_ruff"),
    "mendikot-closed": ("hidden_ruff",),
}
"""Fields only some presets use; the rest of ``SCALE`` is tuned on every preset."""
MAX_STEP = 0.5
"""At most this many units a field moves in one iteration (a noisy difference must not throw it)."""
STEP_A, STEP_STABILITY, PERTURB_C = 10.0, 10.0, 1.0
"""SPSA's gains: step a/(k+1+A)^0.602, perturbation c/(k+1)^0.101 (in units of ``SCALE``)."""


CALL_FIELDS = ("call_length", "call_king", "call_queen", "call_jack", "call_ten")
"""The trump call's numbers: a team's opening numbers leave them to the rest's (a call is no card play)."""
OPENING = "opening."
"""The prefix of an opening number's name among the tuner's units."""


@dataclass(frozen=True, slots=True)
class Team:
    """The numbers a tuned team plays: ``opening`` in its first ``opening_tricks`` tricks, ``rest``
    after them (and for the call)."""

    rest: Weights
    opening: Weights
    opening_tricks: int = 0

    @classmethod
    def plain(cls, weights: Weights) -> Team:
        return cls(weights, weights)

    def bot(self) -> HeuristicBot:
        return PhasedHeuristic(self) if self.opening_tricks else HeuristicBot(self.rest)

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"weights": self.rest.to_json()}
        if self.opening_tricks:
            out |= {"opening": self.opening.to_json(), "opening_tricks": self.opening_tricks}
        return out


class PhasedHeuristic(HeuristicBot):
    """The heuristic with one set of numbers for the first tricks and another for the rest."""

    def __init__(self, team: Team) -> None:
        super().__init__(team.rest)
        self.team = team

    def play(self, view: BotView) -> Card | PlayCard | RevealTrump:
        opening = view.observation.trick_number <= self.team.opening_tricks
        self.weights = self.team.opening if opening else self.team.rest
        try:
            return super().play(view)
        finally:
            self.weights = self.team.rest


def tuned_fields(preset: str) -> tuple[str, ...]:
    only = {f for fields in PRESET_FIELDS.values() for f in fields}
    return tuple(f for f in SCALE if f not in only or f in PRESET_FIELDS.get(preset, ()))


def pair_scores(team: Team, preset: str, seed: int, first: int, pairs: int) -> list[float]:
    """Deals ``first`` to ``first + pairs - 1``: ``team`` in seats 0 and 2 against the hand-set
    heuristic; each pair's score for the team."""
    config = TableConfig(match_id=f"tune-{seed}", rules=rules_for(preset), preset=preset,
                         match_format=MatchFormat.parse(f"duplicate:{first + pairs}"), seed=seed,
                         time_control=TimeControl(), policy=FaultPolicy.FORFEIT)
    bots = [team.bot(), HeuristicBot(), team.bot(), HeuristicBot()]
    source = DealSlice(first, first + pairs, quiet=True)
    asyncio.run(Table(config, [InProcessSeat(b) for b in bots], clock=StillClock(), pairs=source).run())
    return source.scores


def _signs(scores: list[float]) -> float:
    return sum((s > 0) - (s < 0) for s in scores) / max(1, len(scores))


@dataclass
class Spsa:
    """The tuner's state (a run, not a value): the weights in units of ``SCALE`` from zero, and
    the iterations run."""

    preset: str
    seed: int
    pairs: int
    units: dict[str, float]
    iteration: int = 0
    opening_tricks: int = 0

    @classmethod
    def start(cls, preset: str, seed: int, pairs: int, team: Team | None = None, opening_tricks: int = 0) -> Spsa:
        team = team or Team.plain(DEFAULT_WEIGHTS)
        fields = tuned_fields(preset)
        units = {f: getattr(team.rest, f) / SCALE[f] for f in fields}
        if opening_tricks:
            units |= {OPENING + f: getattr(team.opening, f) / SCALE[f] for f in fields if f not in CALL_FIELDS}
        return cls(preset, seed, pairs, units, opening_tricks=opening_tricks)

    def team(self, units: dict[str, float]) -> Team:
        rest_units = {f: u for f, u in units.items() if not f.startswith(OPENING)}
        opening_units = {f.removeprefix(OPENING): u for f, u in units.items() if f.startswith(OPENING)}
        rest = replace(DEFAULT_WEIGHTS, **{f: _bounded(f, u * SCALE[f]) for f, u in rest_units.items()})
        opening = replace(rest, **{f: _bounded(f, u * SCALE[f]) for f, u in opening_units.items()})
        return Team(rest, opening, self.opening_tricks)

    def step(self, pool: ProcessPoolExecutor, rng: random.Random) -> dict[str, float]:
        k = self.iteration
        gain = STEP_A / (k + 1 + STEP_STABILITY) ** 0.602
        width = PERTURB_C / (k + 1) ** 0.101
        delta = {f: rng.choice((-1.0, 1.0)) for f in self.units}
        up = self.team({f: u + width * delta[f] for f, u in self.units.items()})
        down = self.team({f: u - width * delta[f] for f, u in self.units.items()})
        first = k * self.pairs
        plus, minus = pool.map(pair_scores, (up, down), (self.preset,) * 2, (self.seed,) * 2, (first,) * 2,
                               (self.pairs,) * 2)
        difference = _signs(plus) - _signs(minus)
        for f in self.units:
            move = gain * difference / (2 * width * delta[f])
            self.units[f] += max(-MAX_STEP, min(MAX_STEP, move))
            name = f.removeprefix(OPENING)
            low, high = BOUNDS.get(name, (0.0, math.inf))
            self.units[f] = max(low / SCALE[name], min(high / SCALE[name], self.units[f]))
        self.iteration += 1
        return {"iteration": k, "plus": round(_signs(plus), 4), "minus": round(_signs(minus), 4)}


def _bounded(name: str, value: float) -> float:
    low, high = BOUNDS.get(name, (0.0, math.inf))
    return max(low, min(high, value))


def load_team(path: str) -> Team:
    """A team from a file ``tune`` writes (or a JSON object of field values; a missing field keeps
    its hand-set value): its weights, and its opening numbers if it has them."""
    raw = json.loads(Path(path).read_text())
    rest = _weights(path, raw.get("weights", raw))
    if "opening" not in raw:
        return Team.plain(rest)
    return Team(rest, _weights(path, raw["opening"]), int(raw.get("opening_tricks", 0)))


RUN_KEYS = frozenset({"opening", "opening_tricks", "iterations", "preset", "seed", "pairs"})
"""What a file ``tune`` writes holds beside the numbers."""


def _weights(path: str, data: dict[str, float]) -> Weights:
    unknown = sorted(set(data) - set(Weights.names()) - RUN_KEYS)
    if unknown:
        raise SystemExit(f"{path}: unknown weight(s) {', '.join(unknown)}")
    return replace(DEFAULT_WEIGHTS, **{k: float(v) for k, v in data.items() if k in Weights.names()})


def tune(iterations: int, pairs: int, preset: str, seed: int, out: str | None,
         start: str | None = None, opening_tricks: int = 0) -> dict[str, object]:
    started = time.perf_counter()
    state = Spsa.start(preset, seed, pairs, load_team(start) if start else None, opening_tricks)
    rng = random.Random(seed)
    with ProcessPoolExecutor(2) as pool:
        for _ in range(iterations):
            row = state.step(pool, rng)
            print(f"iteration {row['iteration']}: + {row['plus']:+.3f}  - {row['minus']:+.3f}", flush=True)
            if out:
                Path(out).write_text(json.dumps(state.team(state.units).to_json() | {
                    "iterations": state.iteration, "preset": preset, "seed": seed, "pairs": pairs}, indent=1))
    team = state.team(state.units)
    changed = {f: round(_value(team, f), 4) for f in state.units
               if abs(_value(team, f) - getattr(DEFAULT_WEIGHTS, f.removeprefix(OPENING))) > 1e-9}
    return {"mode": "tune", "preset": preset, "seed": seed, "iterations": iterations, "pairs": pairs,
            "weights": changed, "seconds": round(time.perf_counter() - started, 1)}


def _value(team: Team, unit: str) -> float:
    weights = team.opening if unit.startswith(OPENING) else team.rest
    return float(getattr(weights, unit.removeprefix(OPENING)))


def check(path: str, pairs: int, preset: str, seeds: list[int]) -> dict[str, object]:
    started = time.perf_counter()
    team = Team.plain(expert_weights(rules_for(preset))) if path == "expert" else load_team(path)
    with ProcessPoolExecutor(2) as pool:
        runs = list(pool.map(pair_scores, (team,) * len(seeds), (preset,) * len(seeds), seeds,
                             (0,) * len(seeds), (pairs,) * len(seeds)))
    scores = [s for run in runs for s in run]
    stats = mean_interval(scores)
    result = {"mode": "check", "weights": path, "preset": preset, "seeds": seeds} | summary(scores) | {
        "seconds": round(time.perf_counter() - started, 1), "load_average": round(os.getloadavg()[0], 2)}
    print(f"{preset}: pairs {stats.n} won {result['won']} drawn {result['drawn']} lost {result['lost']} "
          f"share {stats.won_share:.1%} mean {stats.mean:+.3f} CI [{stats.low:+.3f}, {stats.high:+.3f}]", flush=True)
    return result


def main(argv: list[str]) -> None:
    if not argv or argv[0] not in ("tune", "check"):
        print(__doc__)
        return
    if argv[0] == "tune":
        iterations, pairs, preset, seed = int(argv[1]), int(argv[2]), argv[3], int(argv[4])
        result = tune(iterations, pairs, preset, seed, argv[5] if len(argv) > 5 else None,
                      argv[6] if len(argv) > 6 else None, int(argv[7]) if len(argv) > 7 else 0)
    else:
        result = check(argv[1], int(argv[2]), argv[3], [int(s) for s in argv[4].split(",")])
    print(json.dumps(result))


if __name__ == "__main__":
    main(sys.argv[1:])
