"""Issue 25 part 3: the documented training run, timed, and its policy against random play.

Makes a policy bot folder (``dehla bot new NAME --template policy``'s scaffold), runs
``examples/train_policy.py``'s training into it (the heuristic's choices cloned, then PPO on the
vector environment: ``sdk.learn.training``'s defaults unless told; ``--members`` networks at once,
a process each, saved as their ensemble, as ``sdk.learn.train`` does), wall-clock timed from the
start to the weights written, and plays ``--pairs`` duplicate deal pairs against random play in
the vector environment (``sdk.learn.evaluation``). The baseline in the same run: the untrained
weights the scaffold wrote, on the same deal pairs. The figures to publish against ``random``,
``heuristic`` and ``search`` come from ``dehla match`` on the folder (``docs/performance.md``);
``--keep FOLDER`` leaves the trained bot there for it.

Run: ``nice -n 19 python bench/train_policy.py [--iterations N] [--members N] [--pairs N] [--keep FOLDER]``.
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
from sdk.learn.members import train_members
from sdk.learn.train import DEFAULT_MEMBERS, progress_line
from sdk.learn.training import TrainConfig
from sdk.policy_bot import WEIGHTS_FILE
from sdk.policy_ensemble import ensemble_of
from sdk.policy_network import PolicyNetwork


def figures(pairs: PairResults) -> dict[str, float]:
    return {"won": pairs.won, "drawn": pairs.drawn, "lost": pairs.lost, "won_share": round(pairs.won_share, 4),
            "won_pairs_share": round(pairs.won / pairs.pairs, 4), "mean_score": round(pairs.mean_score, 3)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--iterations", type=int, default=TrainConfig().iterations, help="PPO iterations")
    parser.add_argument("--members", type=int, default=DEFAULT_MEMBERS, help="networks trained at once")
    parser.add_argument("--pairs", type=int, default=2000)
    parser.add_argument("--keep", type=Path, default=None, help="make the bot folder here (PARENT/NAME) and keep it")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        target = args.keep or Path(scratch) / "policy-bench"
        started = time.perf_counter()
        folder = scaffold_bot(target.name, target.parent, template=Template.POLICY)
        untrained = PolicyNetwork.load(folder / WEIGHTS_FILE)
        results, member_cpu = train_members(TrainConfig(iterations=args.iterations), args.members, HeuristicBot(),
                                            progress_line)
        policy = ensemble_of([result.network for result in results])
        policy.save(folder / WEIGHTS_FILE)
        wall = time.perf_counter() - started
        result = results[0]
        imitation = sum(1 for r in result.history if r.stage == "imitation")
        print(f"trained in {wall:.0f} s ({args.members} members; {imitation} imitation epochs, "
              f"{result.iterations - imitation} PPO iterations, {sum(r.samples for r in results)} decisions)",
              flush=True)
        trained_pairs = against_random(policy, args.pairs, seed=99)
        untrained_pairs = against_random(untrained, args.pairs, seed=99)
        random_pairs = against_random(None, args.pairs, seed=99)
        print(json.dumps({"train_wall_s": round(wall, 1), "train_cpu_s": round(sum(r.cpu_seconds for r in results), 1),
                          "members": args.members, "member_processes_cpu_s": round(member_cpu, 1),
                          "cut_short": any(r.cut_short is not None for r in results), "imitation_epochs": imitation,
                          "ppo_iterations": result.iterations - imitation, "decisions": sum(r.samples for r in results),
                          "pairs": args.pairs, "trained": figures(trained_pairs),
                          "untrained": figures(untrained_pairs), "random": figures(random_pairs),
                          "folder": str(folder) if args.keep else None}))


if __name__ == "__main__":
    main()
