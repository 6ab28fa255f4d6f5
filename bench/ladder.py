"""Ladder figures: matches to the true ranking (ladder vs a naive baseline) and throughput.

1. Six in-process bots of known order: the heuristic bot playing its own choice with
   probability p and a random legal action otherwise, p = 0, 0.2, ..., 1. The ladder (real
   store, scheduler and rating of games, duplicate matches of D deals = 2D hands) against a
   naive baseline (random tables, single deals: 2D hands per match, rated by the match result
   with the same TrueSkill parameters). Both see the same number of hands per match, and both
   are run in each partnership mode: ``self`` (each bot partners a copy of itself; the
   ladder's default; baseline tables are two random bots) and ``mixed`` (four different bots
   at a table; baseline tables are four random bots). For each arm: the number of matches
   after which the ranking (mu - 3 sigma) equals the true order and stays so to the end of the
   run. Repeated over seeds; medians compared within a mode.
2. Throughput: the random and heuristic sample bots as processes (sandboxed when the sandbox
   runs here, else local), a real ``LadderRun`` with a process pool: matches per minute.

The last line printed is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from arena.contract.messages import MatchStart
from arena.contract.time_control import MoveRelease
from arena.engine.actions import Action
from arena.referee.in_process import play_in_process
from ladder.coordinator.loop import LadderRun, RunProgress, StopRule
from ladder.coordinator.queue import DEFAULT_DEALS, MatchSettings
from ladder.execution.executors import InlineExecutor, pool_factory
from ladder.execution.jobs import MatchJob, MatchReport, play_match_job, report_from_outcome
from ladder.execution.runners import RunnerUnavailable, check_runner
from ladder.rating.ratings import LADDER_PARAMS, Outcome, RatingEnv, Skill
from ladder.rating.scheduler import Mode, Scheduler
from ladder.store.database import Store
from ladder.store.paths import ArenaData
from ladder.store.read_model import ranking
from ladder.submission.submit import submit
from sample_bots.heuristic.bot import HeuristicBot
from sdk.bot import BotView

SKILLS = (0.0, 0.2, 0.4, 0.6, 0.8, 1.0)
NAMES = [f"p{int(p * 100):03d}" for p in SKILLS]
TRUE_ORDER = list(reversed(NAMES))
MATCH_DRAW_PROBABILITY = 0.10
"""The baseline rates whole matches, which end level far less often than single deal pairs."""


class NoisyHeuristic(HeuristicBot):
    """The heuristic bot's choice with probability p, else a uniformly random legal action."""

    def __init__(self, p: float) -> None:
        super().__init__()
        self.p = p
        self.rng = random.Random(0)

    def on_match_start(self, start: MatchStart) -> None:
        super().on_match_start(start)
        self.rng = random.Random(f"{self.p}/{start.match_id}/{start.seat}")

    def decide(self, view: BotView) -> Action:
        if self.rng.random() < self.p:
            return super().decide(view)
        return self.rng.choice(list(view.observation.legal_actions))


def bot_for(name: str) -> NoisyHeuristic:
    return NoisyHeuristic(int(name.split("#", maxsplit=1)[0][1:]) / 100)


def play_inprocess_job(job: MatchJob) -> MatchReport:
    """The ladder's match job, played in this process with the noisy bots."""
    bots = [bot_for(seat.name) for seat in job.seats]
    outcome = play_in_process(bots, seed=job.seed, match_format=str(job.match_format))
    return report_from_outcome(job, outcome, 0.0)


def first_stable(correct: list[bool]) -> int | None:
    """Matches after which the ranking is right and stays right to the end (None: wrong at the end)."""
    if not correct or not correct[-1]:
        return None
    index = len(correct)
    while index > 0 and correct[index - 1]:
        index -= 1
    return index + 1


def ladder_arm(seed: int, matches: int, deals: int, mode: Mode) -> int | None:
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        store = Store.open(ArenaData(root, f"sqlite:///{root / 'ladder.db'}"))
        env = RatingEnv()
        for name in NAMES:
            bot = root / "src" / name
            bot.mkdir(parents=True)
            (bot / "bot.toml").write_text(f'name = "{name}"\nversion = "1"\nauthor = "b"\ncommand = ["python"]\n')
            submit(store, env, bot, "local", lambda *_: None)
        correct: list[bool] = []

        def track(_: RunProgress) -> None:
            with store.reading() as session:
                correct.append([row.bot for row in ranking(session)] == TRUE_ORDER)

        run = LadderRun(store, env, Scheduler(env, mode, random.Random(seed)),
                        MatchSettings(match_format=f"duplicate:{deals}", runner="local"), InlineExecutor,
                        play=play_inprocess_job, rng=random.Random(seed + 1), on_progress=track)
        run.run(StopRule(matches=matches))
        store.close()
        return first_stable(correct)


def baseline_arm(seed: int, matches: int, deals: int, mode: Mode) -> int | None:
    """Random tables (two bots partnering themselves, or four different bots), single deals (2D
    hands per match), rated by the match result with the ladder's TrueSkill parameters, except
    the draw rate, which is a whole match's."""
    rng = random.Random(seed)
    env = RatingEnv(replace(LADDER_PARAMS, draw_probability=MATCH_DRAW_PROBABILITY))
    skills = {name: env.new() for name in NAMES}
    correct: list[bool] = []
    for number in range(matches):
        table = rng.sample(NAMES, 4) if mode is Mode.MIXED else 2 * rng.sample(NAMES, 2)
        outcome = play_in_process([bot_for(n) for n in table], seed=rng.getrandbits(31),
                                  match_format=f"hands:{2 * deals}")
        result = (Outcome.DRAW if outcome.winner_team is None else
                  Outcome.A_WINS if outcome.winner_team == 0 else Outcome.B_WINS)
        index = {name: i for i, name in enumerate(NAMES)}
        updated = env.rate_versions((index[table[0]], index[table[2]]), (index[table[1]], index[table[3]]),
                                    {index[n]: skills[n] for n in NAMES}, result)
        for i, skill in updated.items():
            skills[NAMES[i]] = skill
        order = sorted(NAMES, key=lambda n: -Skill(skills[n].mu, skills[n].sigma).conservative)
        correct.append(order == TRUE_ORDER)
        del number
    return first_stable(correct)


def arm(task: tuple[str, str, int, int, int]) -> tuple[str, str, int, int | None]:
    kind, mode, seed, matches, deals = task
    return kind, mode, seed, (ladder_arm if kind == "ladder" else baseline_arm)(seed, matches, deals, Mode(mode))


def throughput(matches: int, workers: int, deals: int) -> dict[str, object]:
    try:
        check_runner("sandbox")
        runner = "sandbox"
    except RunnerUnavailable:
        runner = "local"
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        store = Store.open(ArenaData(root, f"sqlite:///{root / 'ladder.db'}"))
        env = RatingEnv()
        from ladder.versions.folders import sample_folder  # noqa: PLC0415

        for name in ("random", "heuristic"):
            submit(store, env, sample_folder(name, root / "samples"), runner, lambda *_: None)
        run = LadderRun(store, env, Scheduler(env, Mode.SELF, random.Random(1)),
                        MatchSettings(match_format=f"duplicate:{deals}", runner=runner, release=MoveRelease.ON_REPLY),
                        pool_factory(workers),
                        workers=workers, play=play_match_job, rng=random.Random(2))
        start = time.perf_counter()
        summary = run.run(StopRule(matches=matches))
        elapsed = time.perf_counter() - start
    return {"runner": runner, "workers": workers, "matches": summary.counted, "void": summary.voided,
            "deals_per_match": deals, "seconds": round(elapsed, 1),
            "matches_per_minute": round(60 * summary.counted / elapsed, 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=4)
    parser.add_argument("--matches", type=int, default=150, help="Matches per arm and seed.")
    parser.add_argument("--deals", type=int, default=DEFAULT_DEALS, help="Duplicate deals per ladder match (2D hands).")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--modes", default="self,mixed", help="Partnership modes to compare, comma-separated.")
    parser.add_argument("--throughput-matches", type=int, default=8)
    args = parser.parse_args()
    modes = [Mode(m) for m in args.modes.split(",")]
    tasks = [(kind, mode.value, seed, args.matches, args.deals) for mode in modes
             for seed in range(1, args.seeds + 1) for kind in ("ladder", "baseline")]
    with ProcessPoolExecutor(args.workers) as pool:
        results = list(pool.map(arm, tasks))
    arms = [f"{kind}_{mode.value}" for mode in modes for kind in ("ladder", "baseline")]
    found: dict[str, list[int | None]] = {name: [] for name in arms}
    for kind, mode_name, seed, value in results:
        found[f"{kind}_{mode_name}"].append(value)
        print(f"{kind:8} {mode_name:5} seed {seed}: {value if value is not None else 'not right at the end'}",
              file=sys.stderr)
    cap = args.matches + 1  # a run that never settles counts as more than the whole run

    def median(values: list[int | None]) -> float:
        return float(statistics.median(v if v is not None else cap for v in values))

    figures: dict[str, object] = {"bots": NAMES, "hands_per_match": 2 * args.deals,
                                  "matches_per_run": args.matches, "seeds": args.seeds}
    for mode in modes:
        ladder_median, baseline_median = median(found[f"ladder_{mode.value}"]), median(found[f"baseline_{mode.value}"])
        figures[mode.value] = {
            "ladder_matches_to_true_order": found[f"ladder_{mode.value}"],
            "baseline_matches_to_true_order": found[f"baseline_{mode.value}"],
            "ladder_median": ladder_median, "baseline_median": baseline_median,
            "ratio": round(baseline_median / ladder_median, 2) if ladder_median else None,
        }
    if args.throughput_matches:
        figures["throughput"] = throughput(args.throughput_matches, args.workers, args.deals)
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
