"""A teacher's choices as labelled decisions: the warm start of a training run (behaviour cloning).

The teacher is any ``sdk.Bot`` that decides from its view alone (the heuristic sample bot does:
``examples/train_policy.py`` passes it; ``sdk.learn`` does not import the sample bots). It plays
team 0's seats of ``dehla_v0`` hands against random legal play, the state distribution the
trained policy meets against ``random``; each of its decisions is recorded as the environment's
observation vector, the action mask and the action id it chose. ``training`` fits the network to
them (cross-entropy over the legal actions) before PPO takes over.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from arena.engine.action_ids import action_id
from arena.engine.observation import observe
from sdk.bot import Bot, BotView
from sdk.learn import dehla_v0
from sdk.learn.aec import seat_of
from sdk.policy_network import FloatArray

TEACHER_CLOCK = 1.0
"""The per-move seconds a teacher's view shows (a teacher that reads its clock sees a calm one)."""


@dataclass(frozen=True, eq=False)
class Decisions:
    """Labelled decisions: observation vectors, legal-action masks, the teacher's action ids."""

    observations: FloatArray
    masks: npt.NDArray[np.bool_]
    actions: npt.NDArray[np.int64]


def teacher_decisions(teacher: Bot, hands: int, preset: str = "dehla-pakad", seed: int = 0) -> Decisions:
    """``hands`` hands, ``teacher`` at seats 0 and 2, random legal play at 1 and 3: the teacher's decisions."""
    env = dehla_v0.raw_env(preset=preset)
    rng = np.random.default_rng(seed)
    xs: list[FloatArray] = []
    masks: list[npt.NDArray[np.int8]] = []
    actions: list[int] = []
    for _ in range(hands):
        env.reset(seed=int(rng.integers(2**31)))
        for agent in env.agent_iter():
            if env.terminations[agent] or env.truncations[agent]:
                env.step(None)
                continue
            seat = seat_of(agent)
            if seat % 2 == 0:
                observed = env.observe(agent)
                view = observe(env.unwrapped.table, seat, env.unwrapped.score)
                action = action_id(teacher.decide(BotView(view, TEACHER_CLOCK, TEACHER_CLOCK)))
                xs.append(observed["observation"])
                masks.append(observed["action_mask"])
                actions.append(action)
            else:
                # The random seats need only their legal ids (the mask's nonzero places, in order),
                # not an encoded observation: about half the encoding time of the run.
                legal = sorted(action_id(a) for a in env.unwrapped.table.legal_actions())
                action = int(rng.choice(np.array(legal)))
            env.step(action)
    return Decisions(np.array(xs, dtype=np.float32), np.array(masks, dtype=bool), np.array(actions, dtype=np.int64))
