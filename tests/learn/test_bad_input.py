"""Bad input to ``dehla_v0`` gets one clear error naming the problem and changes nothing."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import numpy as np
import pytest

from arena.engine.errors import ArenaError, MatchFormatError, RulesError
from sdk.learn import dehla_v0
from sdk.learn.aec import DehlaEnv
from sdk.learn.errors import FinishedEpisodeError, IllegalEnvActionError, LearnEnvError, UnsupportedFormatError


@pytest.mark.parametrize(("kwargs", "error", "words"), [
    ({"preset": "dehla"}, RulesError, "unknown preset 'dehla'"),
    ({"preset": 3}, LearnEnvError, "preset must be a preset's name"),
    ({"preset": "twenty-eight", "match": "kots:3"}, MatchFormatError, "a bidding game plays to its rules' target"),
    ({"preset": "twenty-nine", "options": {"trump": "cut"}}, RulesError, "unknown option trump"),
    ({"options": {"trumps": "called"}}, RulesError, "unknown option trumps"),
    ({"options": {"trump": "sideways"}}, RulesError, "trump"),
    ({"options": ["trump=cut"]}, LearnEnvError, "options must be a mapping"),
    ({"match": "kots"}, MatchFormatError, "expected a positive count"),
    ({"match": "duplicate:4"}, UnsupportedFormatError, "duplicate matches are the referee's"),
    ({"preset": "court-piece", "match": "tens:10"}, MatchFormatError, "tens totals need rules"),
    ({"match": 3}, LearnEnvError, "match must be a match format"),
    ({"reward": "trick"}, LearnEnvError, "unknown reward 'trick' (known: hand, match)"),
    ({"render_mode": "human"}, LearnEnvError, "unknown render_mode 'human' (known: ansi)"),
])
def test_bad_settings_are_refused_by_name(kwargs: dict[str, Any], error: type[ArenaError], words: str) -> None:
    with pytest.raises(error, match=words.replace("(", r"\(").replace(")", r"\)")) as caught:
        dehla_v0.env(**kwargs)
    assert "\n" not in str(caught.value)


def started(seed: int = 5, **kwargs: Any) -> DehlaEnv:
    env = dehla_v0.raw_env(**kwargs)
    env.reset(seed=seed)
    return env


def snapshot(env: DehlaEnv) -> tuple[object, ...]:
    """Everything a step could change."""
    return (env.table.history, env.table.to_move, env.agent_selection, dict(env.rewards), dict(env._cumulative_rewards),
            dict(env.terminations), env.score, list(env.agents))


def masked_out(env: DehlaEnv) -> int:
    mask = env.observe(env.agent_selection)["action_mask"]
    return int(np.flatnonzero(mask == 0)[0])


@pytest.mark.parametrize(("action", "words"), [
    (162, "action 162 is out of range (0..161)"),
    (-1, "action -1 is out of range (0..161)"),
    ("3", "action '3' is not an integer of the action space"),
    (2.0, "action 2.0 is not an integer of the action space"),
    (True, "action True is not an integer"),
])
def test_an_action_outside_the_space_is_refused_and_changes_nothing(action: object, words: str) -> None:
    env = started()
    before = snapshot(env)
    with pytest.raises(IllegalEnvActionError, match=words.replace("(", r"\(").replace(")", r"\)")):
        env.step(action)  # type: ignore[arg-type]
    assert snapshot(env) == before


def test_a_masked_out_action_is_refused_naming_the_legal_ones_and_changes_nothing() -> None:
    env = started()
    env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))  # the trump call
    before = snapshot(env)
    action = masked_out(env)
    with pytest.raises(IllegalEnvActionError, match=rf"{env.agent_selection}: action {action} \(.*\) is masked out now "
                                                    r"\(legal: \d+ \(play "):
        env.step(action)
    assert snapshot(env) == before


def test_the_wrapped_environment_refuses_an_action_outside_the_space_as_pettingzoo_does() -> None:
    env = dehla_v0.env()
    env.reset(seed=1)
    with pytest.raises(AssertionError, match="action is not in action space"):
        env.step(400)


def test_a_numpy_integer_action_is_an_action() -> None:
    env = started()
    action = np.int32(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0])
    env.step(action)  # type: ignore[arg-type]
    assert len(env.table.history) == 1


def play_out(env: Any) -> None:
    for _agent in env.agent_iter():
        observation, _, termination, truncation, _ = env.last()
        env.step(None if termination or truncation else int(np.flatnonzero(observation["action_mask"])[0]))


def test_a_step_after_the_episode_raises_on_both_environments() -> None:
    for env in (dehla_v0.env(), dehla_v0.raw_env()):
        env.reset(seed=2)
        play_out(env)
        assert env.agents == []
        with pytest.raises(FinishedEpisodeError, match=r"the episode is over .*call reset\(\) first"):
            env.step(0)


def test_an_action_for_an_agent_that_is_done_is_refused() -> None:
    env = started(seed=3)
    while not any(env.terminations.values()):
        env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    with pytest.raises(ValueError, match="when an agent is dead, the only valid action is None"):
        env.step(0)


def test_stepping_or_observing_before_reset_is_refused() -> None:
    with pytest.raises(LearnEnvError, match=r"no table yet: call reset\(\) first"):
        dehla_v0.raw_env().observe("player_0")
    with pytest.raises(AttributeError, match="cannot be accessed before reset"):
        dehla_v0.env().agent_selection  # noqa: B018 - PettingZoo's wrapper refuses the read


def test_unknown_agents_and_bad_seeds_are_refused() -> None:
    env = started()
    with pytest.raises(LearnEnvError, match="unknown agent 'player_4'"):
        env.observe("player_4")
    for seed in (-1, 1.5, "7"):
        with pytest.raises(LearnEnvError, match="seed must be a non-negative integer"):
            env.reset(seed=seed)  # type: ignore[arg-type]


def test_the_rest_of_the_sdk_loads_no_learning_library() -> None:
    """A bot imports ``sdk``: none of PettingZoo, Gymnasium or ``sdk.learn`` comes with it."""
    code = ("import sys, sdk, sdk.bot, sdk.tracker, sdk.sampling, sdk.worlds; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('pettingzoo', 'gymnasium') "
            "or m.startswith('sdk.learn')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    assert done.stdout.strip() == "[]"


def test_with_an_illegal_reward_a_masked_out_action_ends_the_episode_as_pettingzoo_does(
    caplog: pytest.LogCaptureFixture,
) -> None:
    env = dehla_v0.env(illegal_reward=-1.0)
    env.reset(seed=5)
    agent = env.agent_selection
    mask = env.observe(agent)["action_mask"]
    env.step(int(np.flatnonzero(mask == 0)[0]))
    assert "Illegal move made" in caplog.text
    assert all(env.terminations.values())
    assert env.rewards[agent] == -1.0
    assert env.unwrapped.table.history == ()
