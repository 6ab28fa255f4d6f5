"""How many deal pairs ``dehla match --sprt`` needs, against the fixed-sample test with the same
error rates, and its error rates, by simulation.

``python -m bench.sprt_deals [RUNS] [SEED] [ALPHA] [BETA]``

Two real matches' pair scores (in-process sample bots, 200 deals each): ``equal`` (random against
random: symmetric, the case of a bot against its own last version) and ``skewed`` (heuristic
against random: A wins most pairs, a long tail of losses). Each sample is shifted to an effect
of exactly H0's and H1's (mean / sd) and resampled: RUNS runs of the SPRT (``arena.referee.sprt``,
the code ``dehla match`` runs) at each, with the default settings (alpha = beta = 0.025, H0 0,
H1 0.2). Measured: the false-positive rate (H1 accepted under H0), the false-negative rate (H0
accepted under H1) and the mean deal pairs to a verdict. The baseline is the fixed-sample
one-sided test with the error rates the SPRT achieved:
``n = ((z(1 - alpha') + z(1 - beta')) / (t1 - t0))**2`` deal pairs (normal approximation).
The goal: the SPRT's mean, over H0 and H1, at most half of ``n``. Also measured: the mean deal
pairs at true effects around and outside the hypotheses (``SPREAD``, RUNS / 4 runs each), where
an author's change usually lies. The last line is one JSON object.
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import time

from arena.referee.in_process import play_in_process
from arena.referee.sprt import SprtSettings
from arena.referee.sprt_simulation import shifted, simulate
from sample_bots.heuristic.bot import HeuristicBot
from sample_bots.random.bot import RandomBot

MAX_PAIRS = 1_000_000
"""A cap no run reaches: every run decides."""


def sample(name: str) -> list[float]:
    bots = ([RandomBot(1), RandomBot(2), RandomBot(3), RandomBot(4)] if name == "equal" else
            [HeuristicBot(), RandomBot(1), HeuristicBot(), RandomBot(3)])
    return play_in_process(bots, deals=200, seed=5).deal_scores


def fixed_pairs(alpha: float, beta: float, test: SprtSettings) -> float:
    z = statistics.NormalDist().inv_cdf
    return ((z(1 - alpha) + z(1 - beta)) / (test.t1 - test.t0)) ** 2


SPREAD = (-0.2, -0.1, 0.1, 0.3, 0.4)
"""True effects (sd per deal pair) besides H0's and H1's."""


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 4000
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    alpha = float(sys.argv[3]) if len(sys.argv) > 3 else SprtSettings().alpha
    beta = float(sys.argv[4]) if len(sys.argv) > 4 else SprtSettings().beta
    test = SprtSettings(alpha, beta)
    rng = random.Random(seed)
    started = time.perf_counter()
    figures: dict[str, dict[str, float]] = {}
    for name in ("equal", "skewed"):
        values = sample(name)
        false_positive, _, deals_h0 = simulate(shifted(values, test.t0), test, runs, rng, MAX_PAIRS)
        _, false_negative, deals_h1 = simulate(shifted(values, test.t1), test, runs, rng, MAX_PAIRS)
        achieved = fixed_pairs(max(false_positive, 1e-6), max(false_negative, 1e-6), test)
        nominal = fixed_pairs(test.alpha, test.beta, test)
        sprt_mean = (deals_h0 + deals_h1) / 2
        spread = {str(effect): round(simulate(shifted(values, effect), test, max(1, runs // 4), rng, MAX_PAIRS)[2], 1)
                  for effect in SPREAD}
        figures[name] = {
            "sample_mean": round(statistics.fmean(values), 4), "sample_sd": round(statistics.pstdev(values), 4),
            "false_positive": false_positive, "false_negative": false_negative,
            "sprt_pairs_h0": round(deals_h0, 1), "sprt_pairs_h1": round(deals_h1, 1),
            "fixed_pairs_same_rates": round(achieved, 1), "fixed_pairs_nominal_rates": round(nominal, 1),
            "ratio_same_rates": round(sprt_mean / achieved, 3), "ratio_nominal_rates": round(sprt_mean / nominal, 3),
            "sprt_pairs_at_effect": spread,
        }
        print(f"{name}: false positives {false_positive:.3%}, false negatives {false_negative:.3%}; "
              f"SPRT {deals_h0:.1f} pairs under H0, {deals_h1:.1f} under H1; fixed test with the same "
              f"rates {achieved:.1f} (nominal rates {nominal:.1f}): ratio {sprt_mean / achieved:.3f}; "
              f"mean pairs at other effects: {spread}")
    print(json.dumps({"bench": "sprt_deals", "runs": runs, "seed": seed, "alpha": test.alpha, "beta": test.beta,
                      "h0": test.t0, "h1": test.t1, "samples": figures,
                      "seconds": round(time.perf_counter() - started, 1)}))


if __name__ == "__main__":
    main()
