"""Search the heuristic's numbers for ones that beat the hand-set numbers in duplicate deal pairs.

``python -m bench.tune_heuristic tune ITERATIONS PAIRS PRESET SEED [OUT] [START]``
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
round: give it another SEED, so that its deals are new).

``check``: the team with WEIGHTS (a JSON file as ``tune`` writes, or ``expert``: the expert's own
numbers for PRESET, ``sample_bots/expert/weights.py``) against the hand-set heuristic
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
from arena.engine.match import MatchFormat
from arena.engine.rules import rules_for
from arena.referee.in_process import InProcessSeat
from arena.referee.stats import mean_interval
from arena.referee.table import Table
from arena.referee.table_values import TableConfig
from bench.ceiling import DealSlice, StillClock
from sample_bots.expert.weights import expert_weights
from sample_bots.heuristic.bot import HeuristicBot
from sample_bots.heuristic.weights import DEFAULT_WEIGHTS, Weights

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


def tuned_fields(preset: str) -> tuple[str, ...]:
    only = {f for fields in PRESET_FIELDS.values() for f in fields}
    return tuple(f for f in SCALE if f not in only or f in PRESET_FIELDS.get(preset, ()))


def pair_scores(weights: Weights, preset: str, seed: int, first: int, pairs: int) -> list[float]:
    """Deals ``first`` to ``first + pairs - 1``: a team with ``weights`` in seats 0 and 2 against
    the hand-set heuristic; each pair's score for the team."""
    config = TableConfig(match_id=f"tune-{seed}", rules=rules_for(preset), preset=preset,
                         match_format=MatchFormat.parse(f"duplicate:{first + pairs}"), seed=seed,
                         time_control=TimeControl(), policy=FaultPolicy.FORFEIT)
    bots = [HeuristicBot(weights), HeuristicBot(), HeuristicBot(weights), HeuristicBot()]
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

    @classmethod
    def start(cls, preset: str, seed: int, pairs: int, weights: Weights = DEFAULT_WEIGHTS) -> Spsa:
        units = {f: getattr(weights, f) / SCALE[f] for f in tuned_fields(preset)}
        return cls(preset, seed, pairs, units)

    def weights(self, units: dict[str, float]) -> Weights:
        values = {f: _bounded(f, u * SCALE[f]) for f, u in units.items()}
        return replace(DEFAULT_WEIGHTS, **values)

    def step(self, pool: ProcessPoolExecutor, rng: random.Random) -> dict[str, float]:
        k = self.iteration
        gain = STEP_A / (k + 1 + STEP_STABILITY) ** 0.602
        width = PERTURB_C / (k + 1) ** 0.101
        delta = {f: rng.choice((-1.0, 1.0)) for f in self.units}
        up = self.weights({f: u + width * delta[f] for f, u in self.units.items()})
        down = self.weights({f: u - width * delta[f] for f, u in self.units.items()})
        first = k * self.pairs
        plus, minus = pool.map(pair_scores, (up, down), (self.preset,) * 2, (self.seed,) * 2, (first,) * 2,
                               (self.pairs,) * 2)
        difference = _signs(plus) - _signs(minus)
        for f in self.units:
            move = gain * difference / (2 * width * delta[f])
            self.units[f] += max(-MAX_STEP, min(MAX_STEP, move))
            low, high = BOUNDS.get(f, (0.0, math.inf))
            self.units[f] = max(low / SCALE[f], min(high / SCALE[f], self.units[f]))
        self.iteration += 1
        return {"iteration": k, "plus": round(_signs(plus), 4), "minus": round(_signs(minus), 4)}


def _bounded(name: str, value: float) -> float:
    low, high = BOUNDS.get(name, (0.0, math.inf))
    return max(low, min(high, value))


def load_weights(path: str) -> Weights:
    """Weights from a JSON object of field values (a missing field keeps its hand-set value)."""
    raw = json.loads(Path(path).read_text())
    data = raw.get("weights", raw)
    unknown = sorted(set(data) - set(Weights.names()))
    if unknown:
        raise SystemExit(f"{path}: unknown weight(s) {', '.join(unknown)}")
    return replace(DEFAULT_WEIGHTS, **{k: float(v) for k, v in data.items()})


def tune(iterations: int, pairs: int, preset: str, seed: int, out: str | None,
         start: str | None = None) -> dict[str, object]:
    started = time.perf_counter()
    state = Spsa.start(preset, seed, pairs, load_weights(start) if start else DEFAULT_WEIGHTS)
    rng = random.Random(seed)
    with ProcessPoolExecutor(2) as pool:
        for _ in range(iterations):
            row = state.step(pool, rng)
            weights = state.weights(state.units)
            print(f"iteration {row['iteration']}: + {row['plus']:+.3f}  - {row['minus']:+.3f}", flush=True)
            if out:
                Path(out).write_text(json.dumps({"weights": weights.to_json(), "iterations": state.iteration,
                                                 "preset": preset, "seed": seed, "pairs": pairs}, indent=1))
    weights = state.weights(state.units)
    changed = {f: round(getattr(weights, f), 4) for f in state.units
               if abs(getattr(weights, f) - getattr(DEFAULT_WEIGHTS, f)) > 1e-9}
    return {"mode": "tune", "preset": preset, "seed": seed, "iterations": iterations, "pairs": pairs,
            "weights": changed, "seconds": round(time.perf_counter() - started, 1)}


def check(path: str, pairs: int, preset: str, seeds: list[int]) -> dict[str, object]:
    started = time.perf_counter()
    weights = expert_weights(rules_for(preset)) if path == "expert" else load_weights(path)
    with ProcessPoolExecutor(2) as pool:
        runs = list(pool.map(pair_scores, (weights,) * len(seeds), (preset,) * len(seeds), seeds,
                             (0,) * len(seeds), (pairs,) * len(seeds)))
    scores = [s for run in runs for s in run]
    stats = mean_interval(scores)
    result = {"mode": "check", "weights": path, "preset": preset, "seeds": seeds, "pairs": stats.n,
              "won": sum(s > 0 for s in scores), "drawn": sum(s == 0 for s in scores),
              "lost": sum(s < 0 for s in scores), "share": round(stats.won_share, 4),
              "mean": round(stats.mean, 3), "ci": [round(stats.low, 3), round(stats.high, 3)],
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
                      argv[6] if len(argv) > 6 else None)
    else:
        result = check(argv[1], int(argv[2]), argv[3], [int(s) for s in argv[4].split(",")])
    print(json.dumps(result))


if __name__ == "__main__":
    main(sys.argv[1:])
