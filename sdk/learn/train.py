"""``python -m sdk.learn.train FOLDER``: train a policy and write it into a policy bot's folder.

``FOLDER`` is a bot folder made by ``dehla bot new NAME --template policy``; its ``policy.npz``
is replaced by the trained weights, and ``training.json`` records how they were made. By default
two members are trained at once from consecutive seeds, one process each, and the file holds
their ensemble (``sdk.policy_ensemble``; ``--members 1`` for a single network). Without a
teacher this is PPO from untrained weights; ``examples/train_policy.py`` runs the same with the
heuristic sample bot's choices cloned first. Then ``dehla match FOLDER random`` plays it and
``dehla submit FOLDER`` puts it on the ladder. Prints one line per iteration on stderr and, last,
one JSON object: the run's figures and the trained policy's duplicate deal pairs against random
play (``sdk.learn.evaluation``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from sdk.bot import Bot
from sdk.learn.errors import LearnEnvError
from sdk.learn.evaluation import against_random
from sdk.learn.members import member_seed, train_members
from sdk.learn.training import IterationReport, Stage, TrainConfig, TrainResult
from sdk.policy_bot import WEIGHTS_FILE
from sdk.policy_ensemble import MAX_MEMBERS, ensemble_of

PROVENANCE_FILE = "training.json"
DEFAULT_MEMBERS = 2
"""Members trained at once by default: one a core of the 2-core machine the 10 minutes are measured on."""


@dataclass(frozen=True, slots=True)
class Request:
    """What the command line asks for."""

    folder: Path
    config: TrainConfig
    members: int
    eval_pairs: int


def parse(argv: Sequence[str] | None) -> Request:
    defaults = TrainConfig()
    parser = argparse.ArgumentParser(prog="python -m sdk.learn.train", description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path, help="a policy bot's folder (dehla bot new NAME --template policy)")
    parser.add_argument("--iterations", type=int, default=defaults.iterations,
                        help="PPO iterations (default %(default)s: the documented run, 4 minutes of a quiet core)")
    parser.add_argument("--max-seconds", type=float, default=defaults.max_seconds,
                        help="safety cap on the training's wall clock (default %(default)s): past it no pass or "
                             "iteration starts and training.json says the run was cut short")
    parser.add_argument("--tables", type=int, default=defaults.tables, help="hands per iteration")
    parser.add_argument("--hidden", type=int, default=defaults.hidden, help="hidden layer width")
    parser.add_argument("--deep", type=int, default=defaults.deep, help="hidden layers after the first")
    parser.add_argument("--preset", default=defaults.preset)
    parser.add_argument("--seed", type=int, default=defaults.seed)
    parser.add_argument("--teacher-hands", type=int, default=defaults.teacher_hands,
                        help="hands the teacher plays for the warm start, if there is a teacher")
    parser.add_argument("--imitation-epochs", type=int, default=defaults.imitation_epochs)
    parser.add_argument("--final-step", type=float, default=defaults.ppo_final_learning_rate,
                        help="PPO's step at the last iteration, falling linearly from its first (default %(default)s)")
    parser.add_argument("--constant-step", action="store_true", help="keep PPO's step constant (no fall)")
    parser.add_argument("--eval-pairs", type=int, default=2000,
                        help="duplicate deal pairs against random play after training (0: none)")
    parser.add_argument("--members", type=int, default=DEFAULT_MEMBERS, choices=range(1, MAX_MEMBERS + 1),
                        metavar=f"1..{MAX_MEMBERS}",
                        help="policies trained at once from consecutive seeds, one process each, played as one "
                             "ensemble (default %(default)s; 1: a single network)")
    args = parser.parse_args(argv)
    config = TrainConfig(preset=args.preset, tables=args.tables, hidden=args.hidden, deep=args.deep,
                         max_seconds=args.max_seconds,
                         iterations=args.iterations, seed=args.seed, teacher_hands=args.teacher_hands,
                         imitation_epochs=args.imitation_epochs,
                         ppo_final_learning_rate=None if args.constant_step else args.final_step)
    return Request(args.folder, config, args.members, args.eval_pairs)


def progress_line(report: IterationReport) -> str:
    """One iteration's progress line (a member's is printed with its number before it)."""
    figures = (f"cross-entropy to the teacher {report.entropy:.3f}" if report.stage is Stage.IMITATION
               else f"mean hand value {report.mean_value:+.3f}, entropy {report.entropy:.3f}")
    return (f"{report.stage.value} {report.iteration}: {report.elapsed:.0f} s ({report.cpu:.0f} s CPU), "
            f"{report.samples} decisions, {figures}")


def stage_times(result: TrainResult) -> dict[str, dict[str, float]]:
    """Wall and CPU seconds from the start of training to the end of each stage (the teacher's
    hands, the imitation passes, the PPO iterations): CPU is the load-robust measure."""
    ends: dict[str, dict[str, float]] = {}
    if result.teacher_seconds:
        ends["teacher"] = {"wall_s": round(result.teacher_seconds, 1), "cpu_s": round(result.teacher_cpu_seconds, 1)}
    for report in result.history:
        ends[report.stage.value] = {"wall_s": round(report.elapsed, 1), "cpu_s": round(report.cpu, 1)}
    return ends


def member_figures(config: TrainConfig, member: int, result: TrainResult) -> dict[str, object]:
    return {"seed": member_seed(config, member), "iterations": result.iterations, "decisions": result.samples,
            "train_seconds": round(result.seconds, 1), "train_cpu_seconds": round(result.cpu_seconds, 1),
            "stages": stage_times(result),
            "cut_short": None if result.cut_short is None else dict(asdict(result.cut_short),
                                                                    message=result.cut_short.message())}


def main(argv: Sequence[str] | None = None, teacher: Bot | None = None) -> int:
    """Train (cloning ``teacher`` first if given: ``examples/train_policy.py`` passes the heuristic)
    and write the weights into the folder; the exit status."""
    started, cpu_started = time.perf_counter(), time.process_time()
    try:
        request = parse(argv)
    except LearnEnvError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    folder, config = request.folder, request.config
    if not (folder / "bot.toml").is_file() or not (folder / WEIGHTS_FILE).is_file():
        print(f"error: {folder}: not a policy bot's folder (no bot.toml or {WEIGHTS_FILE}); make one with "
              f"`dehla bot new NAME --template policy`", file=sys.stderr)
        return 2
    try:
        results, member_cpu = train_members(config, request.members, teacher, progress_line)
    except LearnEnvError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    for member, result in enumerate(results):
        if result.cut_short is not None:
            print(f"warning: member {member}: {result.cut_short.message()}", file=sys.stderr, flush=True)
    policy = ensemble_of([result.network for result in results])
    policy.save(folder / WEIGHTS_FILE)
    first = results[0]
    figures: dict[str, object] = {
        "folder": str(folder), "members": [member_figures(config, k, r) for k, r in enumerate(results)],
        "iterations": first.iterations, "decisions": sum(r.samples for r in results),
        "train_seconds": round(time.perf_counter() - started, 1),
        "train_cpu_seconds": round(sum(r.cpu_seconds for r in results), 1),
        "stages": stage_times(first), "config": asdict(config),
        "teacher": None if teacher is None else type(teacher).__name__,
        "cut_short": next((dict(asdict(r.cut_short), message=r.cut_short.message(), member=k)
                           for k, r in enumerate(results) if r.cut_short is not None), None),
    }
    if request.eval_pairs > 0:
        pairs = against_random(policy, request.eval_pairs, config.preset, seed=config.seed + 1)
        figures["against_random"] = {"pairs": pairs.pairs, "won": pairs.won, "drawn": pairs.drawn,
                                     "lost": pairs.lost, "won_share": round(pairs.won_share, 4),
                                     "mean_score": round(pairs.mean_score, 4)}
    figures["total_seconds"] = round(time.perf_counter() - started, 1)
    figures["total_cpu_seconds"] = round(time.process_time() - cpu_started + member_cpu, 1)
    (folder / PROVENANCE_FILE).write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
