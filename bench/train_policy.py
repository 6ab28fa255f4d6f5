"""Issue 25 part 3: the documented training run, timed, and its policy against random play.

Makes a policy bot folder (``dehla bot new NAME --template policy``'s scaffold), runs
``examples/train_policy.py``'s training into it (the heuristic's choices cloned, then PPO on the
vector environment: ``sdk.learn.training``'s defaults unless told), wall-clock timed from the
start to the weights written, and plays ``--pairs`` duplicate deal pairs against random play in
the vector environment (``sdk.learn.evaluation``). The baseline in the same run: the untrained
weights the scaffold wrote, on the same deal pairs. The figures to publish against ``random``,
``heuristic`` and ``search`` come from ``dehla match`` on the folder (``docs/performance.md``);
``--keep FOLDER`` leaves the trained bot there for it.

Run: ``nice -n 19 python bench/train_policy.py [--iterations N] [--pairs N] [--keep FOLDER]``.
The last line is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from arena.bots.scaffold import Template, scaffold_bot
from sample_bots.heuristic.bot import HeuristicBot
from sdk.learn.evaluation import PairResults, against_random
from sdk.learn.training import TrainConfig, train
from sdk.policy_bot import WEIGHTS_FILE
from sdk.policy_network import PolicyNetwork


def figures(pairs: PairResults) -> dict[str, float]:
    return {"won": pairs.won, "drawn": pairs.drawn, "lost": pairs.lost, "won_share": round(pairs.won_share, 4),
            "won_pairs_share": round(pairs.won / pairs.pairs, 4), "mean_score": round(pairs.mean_score, 3)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--iterations", type=int, default=TrainConfig().iterations, help="PPO iterations")
    parser.add_argument("--pairs", type=int, default=2000)
    parser.add_argument("--keep", type=Path, default=None, help="make the bot folder here (PARENT/NAME) and keep it")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        target = args.keep or Path(scratch) / "policy-bench"
        started = time.perf_counter()
        folder = scaffold_bot(target.name, target.parent, template=Template.POLICY)
        untrained = PolicyNetwork.load(folder / WEIGHTS_FILE)
        result = train(TrainConfig(iterations=args.iterations), teacher=HeuristicBot())
        result.network.save(folder / WEIGHTS_FILE)
        wall = time.perf_counter() - started
        imitation = sum(1 for r in result.history if r.stage == "imitation")
        print(f"trained in {wall:.0f} s ({imitation} imitation epochs, {result.iterations - imitation} PPO "
              f"iterations, {result.samples} decisions)", flush=True)
        trained_pairs = against_random(result.network, args.pairs, seed=99)
        untrained_pairs = against_random(untrained, args.pairs, seed=99)
        random_pairs = against_random(None, args.pairs, seed=99)
        print(json.dumps({"train_wall_s": round(wall, 1), "train_cpu_s": round(result.cpu_seconds, 1),
                          "cut_short": result.cut_short is not None, "imitation_epochs": imitation,
                          "ppo_iterations": result.iterations - imitation, "decisions": result.samples,
                          "pairs": args.pairs, "trained": figures(trained_pairs),
                          "untrained": figures(untrained_pairs), "random": figures(random_pairs),
                          "folder": str(folder) if args.keep else None}))


if __name__ == "__main__":
    main()
