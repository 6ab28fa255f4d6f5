"""The PettingZoo AEC environment (``sdk.learn.dehla_v0``): agent steps per second on one core.

Random legal play through the wrapped environment as a training loop drives it: per step
``env.last()`` (the agent's observation: ``observe()``, the tracker, the encoding and the
action mask), a random action under the mask, ``env.step``. One episode is one hand, reset with
seed ``base + i``. For comparison the same hands are played through the bare engine with the
same choices (the table's ``apply``: ``HandState`` or ``BiddingHand``, no observation):
``engine_steps_per_s``; and the observation alone is timed per call (``observe_us``: the seat
to move's view, its encoding and its action mask). Times are this process's CPU time; each
part runs ``--rounds`` times and its best run counts (the machine is shared).

The vector environment (``sdk.learn.vector``, over the batched engine) is measured in the same
run on the same preset: ``--tables`` tables (1,024) stepped ``--vector-steps`` times, a random
legal action per table under the returned mask, the observations and masks computed every step.
Two set-ups: one learning seat against random opponents (``vector_steps_per_s``: the learner's
steps, each with its observation; the opponents' moves are not counted) and every seat learning
(``vector_selfplay_steps_per_s``: every move is an agent step, as in the AEC figure). Only the
environment's ``step`` is timed (the random choice under the mask is the caller's); the first
reset, which compiles the kernels or loads them from numba's cache, is reported apart
(``vector_first_reset_s``).

``--preset all`` measures every preset in turn (AEC and vector environment in the same run,
a line each) and ``--match hands:4`` (or ``kots:3``, ...) makes both environments' episodes whole
matches. Run: ``python bench/learn_env.py [--hands N] [--preset P|all] [--match M] [--rounds R]
[--tables N] [--vector-steps S]``. The last line is one JSON object (``{"presets": [...]}`` for
``all``).
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import numpy as np

from arena.engine.bidding_rules import BIDDING_PRESETS
from arena.engine.chance import choose_index
from arena.engine.rules import DEFAULT_PRESET, PRESETS
from sdk.learn import dehla_v0
from sdk.learn.games import Game, Table
from sdk.learn.vector import DehlaVectorEnv


def first_hand(game: Game, seed: int) -> tuple[Table, Any]:
    """The first hand an environment reset with ``seed`` deals (``sdk.learn.aec``), and its score."""
    score = game.new_score(choose_index(4, seed, "first-dealer"))
    return game.new_table(seed, score), score


def env_run(preset: str, hands: int, base: int, match: str | None = None) -> tuple[float, int, list[list[int]]]:
    """CPU seconds, agent steps and each episode's actions, through the wrapped environment."""
    env = dehla_v0.env(preset=preset, match=match)
    rng = np.random.default_rng(base)
    steps, played = 0, []
    start = time.process_time()
    for i in range(hands):
        env.reset(seed=base + i)
        actions: list[int] = []
        for _agent in env.agent_iter():
            observation, _, termination, truncation, _ = env.last()
            if termination or truncation:
                env.step(None)
                continue
            legal = np.flatnonzero(observation["action_mask"])
            action = int(legal[rng.integers(len(legal))])
            actions.append(action)
            env.step(action)
            steps += 1
        played.append(actions)
    return time.process_time() - start, steps, played


def engine_run(preset: str, base: int, played: list[list[int]]) -> float:
    """CPU seconds for the same hands and choices on the bare engine (the env's deals)."""
    game = dehla_v0.raw_env(preset=preset).game
    start = time.process_time()
    for i, actions in enumerate(played):
        seed = base + i
        state, _ = first_hand(game, seed)
        for action in actions:
            state.apply(game.action_of(action))
        if not state.is_over:
            raise SystemExit(f"hand {seed}: the engine's replay did not finish (the environment's deals changed?)")
    return time.process_time() - start


def observe_run(preset: str, base: int, played: list[list[int]]) -> tuple[float, int]:
    """CPU seconds and calls of observe + encode + mask for the seat to move, over the same hands."""
    game = dehla_v0.raw_env(preset=preset).game
    states = []
    for i, actions in enumerate(played):
        seed = base + i
        state, score = first_hand(game, seed)
        for action in actions[: len(actions) // 2]:
            state.apply(game.action_of(action))
        states.append((state, score))
    start = time.process_time()
    for state, score in states:
        game.observed(state, state.to_move if state.to_move is not None else 0, score)
    return time.process_time() - start, len(states)


def random_legal(masks: np.ndarray[Any, Any], uniforms: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """A uniformly random legal action per row of ``masks``."""
    counts = np.cumsum(masks, axis=1, dtype=np.int16)
    pick = (uniforms * counts[:, -1]).astype(np.int16)
    return (counts <= pick[:, None]).sum(axis=1)


def vector_run(preset: str, tables: int, steps: int, seats: tuple[int, ...], base: int,
               match: str | None = None) -> tuple[float, float, int]:
    """CPU seconds of the first reset, CPU seconds in ``step`` and the agent steps taken."""
    start = time.process_time()
    env = DehlaVectorEnv(tables, preset, learning_seats=seats, match=match)
    observations, _ = env.reset(seed=base)
    first = time.process_time() - start
    rng = np.random.default_rng(base)
    stepping = 0.0
    for _ in range(steps):
        actions = random_legal(observations["action_mask"], rng.random(tables))
        start = time.process_time()
        observations, *_ = env.step(actions)
        stepping += time.process_time() - start
    return first, stepping, steps * tables


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=2_000, help="AEC episodes")
    parser.add_argument("--preset", default=DEFAULT_PRESET, help="a preset, or 'all'")
    parser.add_argument("--match", default=None, help="episodes of a whole match (hands:N, kots:K, tens:N)")
    parser.add_argument("--base", type=int, default=1, help="the first episode's seed")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each part; the best counts")
    parser.add_argument("--tables", type=int, default=1024, help="the vector environment's tables")
    parser.add_argument("--vector-steps", type=int, default=300, help="vector environment steps per run")
    args = parser.parse_args()
    if min(args.hands, args.rounds, args.tables, args.vector_steps) < 1:
        raise SystemExit("--hands, --rounds, --tables and --vector-steps must be positive")
    if args.preset != "all":
        print(json.dumps(measure(args.preset, args)))
        return
    results = [measure(preset, args) for preset in (*PRESETS, *BIDDING_PRESETS)]
    print(json.dumps({"presets": results}))


def measure(preset: str, args: argparse.Namespace) -> dict[str, Any]:
    """One preset's figures (printed as two lines): the AEC environment, the bare engine, the vector environment."""
    env_times, engine_times, observe_times = [], [], []
    steps, played, calls = 0, [], 0
    for _ in range(args.rounds):
        seconds, steps, played = env_run(preset, args.hands, args.base, args.match)
        env_times.append(seconds)
        if args.match is None:  # the replays deal one hand per episode
            engine_times.append(engine_run(preset, args.base, played))
            seconds, calls = observe_run(preset, args.base, played)
            observe_times.append(seconds)
    env_s = min(env_times)
    first_resets, vector_times, selfplay_times = [], [], []
    vector_steps = selfplay_steps = 0
    for _ in range(args.rounds):
        first, seconds, vector_steps = vector_run(preset, args.tables, args.vector_steps, (0,), args.base, args.match)
        first_resets.append(first)
        vector_times.append(seconds)
        _, seconds, selfplay_steps = vector_run(preset, args.tables, args.vector_steps, (0, 1, 2, 3), args.base,
                                                args.match)
        selfplay_times.append(seconds)
    vector_rate = vector_steps / min(vector_times)
    selfplay_rate = selfplay_steps / min(selfplay_times)
    result: dict[str, Any] = {
        "preset": preset,
        "match": args.match,
        "hands": args.hands,
        "agent_steps": steps,
        "env_steps_per_s": round(steps / env_s),
        "env_hands_per_s": round(args.hands / env_s, 1),
        "env_us_per_step": round(env_s / steps * 1e6, 1),
        "tables": args.tables,
        "vector_agent_steps": vector_steps,
        "vector_steps_per_s": round(vector_rate),
        "vector_selfplay_steps_per_s": round(selfplay_rate),
        "vector_vs_aec": round(vector_rate / (steps / env_s), 1),
        "vector_first_reset_s": round(first_resets[0], 2),
    }
    engine = ""
    if engine_times:
        result["engine_steps_per_s"] = round(steps / min(engine_times))
        result["observe_us"] = round(min(observe_times) / calls * 1e6, 1)
        engine = (f" ({result['env_us_per_step']} us a step, of which observing the seat to move "
                  f"{result['observe_us']} us); the bare engine {result['engine_steps_per_s']:,} steps/s")
    episodes = f"{args.hands} {'matches ' + args.match if args.match else 'hands'}"
    print(f"{preset}: {steps} agent steps in {episodes}; environment {result['env_steps_per_s']:,} steps/s{engine}")
    print(f"vector environment, {args.tables} tables: {result['vector_steps_per_s']:,} agent steps/s with one "
          f"learning seat against random opponents ({result['vector_vs_aec']}x the AEC environment), "
          f"{result['vector_selfplay_steps_per_s']:,} with every seat learning; first reset "
          f"{result['vector_first_reset_s']} s (compiling, or loading numba's cache)", flush=True)
    return result


if __name__ == "__main__":
    main()
