"""Bad input to the vector environment gets one clear error naming the problem, and no table changes."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from arena.engine.errors import ArenaError, MatchFormatError, RulesError
from sdk.encoding import OFFSETS, MaskArray
from sdk.encoding_layout import FloatArray
from sdk.learn.errors import (
    ActionShapeError,
    IllegalEnvActionError,
    LearnEnvError,
    OpponentPolicyError,
    UnsupportedFormatError,
)
from sdk.learn.vector import DehlaVectorEnv, Observations


def first_legal(observations: FloatArray, masks: MaskArray) -> np.ndarray[Any, Any]:
    return np.asarray(masks.argmax(axis=1))


@pytest.mark.parametrize(("kwargs", "error", "words"), [
    ({"num_envs": 0}, LearnEnvError, "num_envs must be a positive number of tables, not 0"),
    ({"num_envs": True}, LearnEnvError, "num_envs must be a positive number of tables, not True"),
    ({"preset": "dehla"}, RulesError, "unknown preset 'dehla'"),
    ({"preset": "twenty-eight", "options": {"target": 0}}, RulesError, "target must be at least 1"),
    ({"match": "duplicate:2"}, UnsupportedFormatError, "duplicate matches are the referee's (two tables)"),
    ({"match": "hands:0"}, MatchFormatError, "hands:0"),
    ({"match": 3}, LearnEnvError, "match must be a match format such as 'hands:4'"),
    ({"preset": "twenty-nine", "match": "kots:3"}, MatchFormatError, "kots"),
    ({"options": {"trump": "open_random"}}, LearnEnvError, "does not play trump=open_random"),
    ({"learning_seats": ()}, LearnEnvError, "learning_seats must be distinct seats 0..3, at least one"),
    ({"learning_seats": (0, 4)}, LearnEnvError, "learning_seats must be distinct seats 0..3"),
    ({"learning_seats": (1, 1)}, LearnEnvError, "learning_seats must be distinct seats 0..3"),
    ({"learning_seats": "0"}, LearnEnvError, "learning_seats must be a sequence of seats"),
    ({"opponent": "random"}, LearnEnvError, "opponent must be a policy function"),
    ({"reward": "trick"}, LearnEnvError, "unknown reward 'trick'"),
])
def test_bad_settings_are_refused_by_name(kwargs: dict[str, Any], error: type[ArenaError], words: str) -> None:
    settings = {"num_envs": 4, **kwargs}
    with pytest.raises(error, match=words.replace("(", r"\(").replace(")", r"\)")) as caught:
        DehlaVectorEnv(**settings)
    assert "\n" not in str(caught.value)


GAMES: list[dict[str, Any]] = [
    {"preset": "mendikot"},
    {"preset": "twenty-eight"},
    {"preset": "court-piece-double-sir", "match": "hands:3"},
]
"""A trick-taking game, a bidding game (its own action space) and a match-long episode."""


def started(**kwargs: Any) -> tuple[DehlaVectorEnv, Observations]:
    env = DehlaVectorEnv(**{"num_envs": 4, "preset": "mendikot", **kwargs})
    observations, _ = env.reset(seed=9)
    return env, observations


def state(env: DehlaVectorEnv) -> tuple[bytes, ...]:
    """Every table's hand, action log and match score."""
    t = env.tables
    return (t.ints.tobytes(), t.masks.tobytes(), t.history.tobytes(), t.result.tobytes(),
            str([env.hand_actions(i) for i in range(env.num_envs)]).encode(),
            env._blocks.tobytes(), str(env._scores).encode())


def masked_out(observations: Observations, table: int) -> int:
    return int(np.flatnonzero(observations["action_mask"][table] == 0)[0])


@pytest.mark.parametrize("game", GAMES)
def test_bad_actions_name_the_problem_and_change_no_table(game: dict[str, Any]) -> None:
    env, observations = started(**game)
    good = observations["action_mask"].argmax(axis=1)
    before = state(env)
    size = env.single_action_space.n
    cases: list[tuple[Any, type[ArenaError], str]] = [
        (good[:3], ActionShapeError, r"actions has shape \(3,\) \(int64\); expected \(4,\) integers, one per table"),
        (good.reshape(2, 2), ActionShapeError, r"actions has shape \(2, 2\)"),
        (good.astype(np.float64), ActionShapeError, r"\(float64\); expected \(4,\) integers"),
        (np.where(np.arange(4) == 2, size, good), IllegalEnvActionError,
         rf"table 2: action {size} is out of range \(0..{size - 1}"),
        (np.where(np.arange(4) == 1, -1, good), IllegalEnvActionError, r"table 1: action -1 is out of range"),
        (np.where(np.arange(4) == 3, masked_out(observations, 3), good), IllegalEnvActionError,
         r"table 3: .*(not legal for seat|seat \d may bid)"),
    ]
    for actions, error, words in cases:
        with pytest.raises(error, match=words) as caught:
            env.step(actions)
        assert "\n" not in str(caught.value)
        assert state(env) == before
    env.step(good)  # the tables still play
    assert state(env) != before


def test_a_step_before_reset_is_refused() -> None:
    env = DehlaVectorEnv(2)
    with pytest.raises(LearnEnvError, match=r"call reset\(\) first"):
        env.step(np.zeros(2, dtype=np.int64))


@pytest.mark.parametrize(("seed", "words"), [
    (-1, "seed must be a non-negative integer, not -1"),
    ([1, 2], r"seed must be a non-negative integer or 4 of them \(one per table\), not an array of shape \(2,\)"),
    ([1, 2, -3, 4], r"seed of table 2: -3 is not in 0..9223372036854775806"),
    ([0.5] * 4, r"not an array of shape \(4,\) \(float64\)"),
])
def test_bad_seeds_are_refused(seed: Any, words: str) -> None:
    with pytest.raises(LearnEnvError, match=words):
        DehlaVectorEnv(4).reset(seed=seed)


def wrong_shape(observations: FloatArray, masks: MaskArray) -> np.ndarray[Any, Any]:
    return np.zeros(len(masks) + 1, dtype=np.int64)


def illegal(observations: FloatArray, masks: MaskArray) -> np.ndarray[Any, Any]:
    return np.asarray((masks == 0).argmax(axis=1))


def failing(observations: FloatArray, masks: MaskArray) -> np.ndarray[Any, Any]:
    raise RuntimeError("out of ideas")


@pytest.mark.parametrize(("policy", "words"), [
    (wrong_shape, r"the opponent policy answered an array of shape \(\d+,\) \(int64\); expected \(\d+,\) integers"),
    (illegal, r"the opponent policy: table \d: .*(not legal for seat|seat \d may bid)"),
    (failing, "the opponent policy failed: RuntimeError: out of ideas"),
])
@pytest.mark.parametrize("game", GAMES)
def test_a_bad_opponent_policy_is_named_and_its_step_undone(policy: Any, words: str, game: dict[str, Any]) -> None:
    env, observations = started(opponent=first_legal, **game)
    before = state(env)
    env.opponent = policy
    with pytest.raises(OpponentPolicyError, match=words):
        env.step(observations["action_mask"].argmax(axis=1))
    assert state(env) == before
    env.opponent = first_legal
    env.step(observations["action_mask"].argmax(axis=1))
    assert state(env) != before


def test_a_policy_failing_in_the_next_hand_of_a_match_undoes_the_hand_that_ended() -> None:
    """The step ends a hand (the match score counts it, the next hand is dealt), then the policy
    fails on the next hand's view: the scores, the finished hand and its log come back too."""
    env, observations = started(opponent=first_legal, preset="court-piece", match="hands:3", learning_seats=(0,))
    score = OFFSETS["score"]

    def fails_once_a_hand_is_counted(views: FloatArray, masks: MaskArray) -> np.ndarray[Any, Any]:
        if views[:, score].any():
            raise RuntimeError("a new hand")
        return first_legal(views, masks)

    env.opponent = fails_once_a_hand_is_counted
    for _ in range(30):
        before = state(env)
        try:
            observations, *_ = env.step(observations["action_mask"].argmax(axis=1))
        except OpponentPolicyError as exc:
            assert "a new hand" in str(exc)
            assert state(env) == before
            return
    raise AssertionError("no hand ended in 30 steps")
