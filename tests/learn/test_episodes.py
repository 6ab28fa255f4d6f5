"""Episodes of ``dehla_v0``: seeded deals, rewards per hand or per match, the text rendering."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from arena.engine.chance import choose_index, derive_seed
from arena.engine.deal import Deal
from arena.engine.hand import HandState
from arena.engine.observation import observe
from arena.engine.outcome import hand_value
from arena.engine.rules import PRESETS
from sdk.encoding import action_mask, encode
from sdk.learn import dehla_v0
from sdk.learn.aec import AGENTS, DehlaEnv
from tests.engine_helpers import examples


def random_step(env: DehlaEnv, rng: random.Random) -> None:
    legal = np.flatnonzero(env.observe(env.agent_selection)["action_mask"])
    env.step(int(legal[rng.randrange(len(legal))]))


def play_hands(env: DehlaEnv, rng: random.Random) -> list[tuple[HandState, dict[str, float]]]:
    """Play the episode at random; each finished hand with the rewards its last step paid."""
    finished = []
    while not any(env.terminations.values()):
        table = env.table
        random_step(env, rng)
        if table.is_over:
            finished.append((table, dict(env.rewards)))
        else:
            assert env.rewards == dict.fromkeys(AGENTS, 0.0)
    return finished


@pytest.mark.parametrize("preset", ["dehla-pakad", "mendikot", "court-piece"])
def test_hand_rewards_are_each_hands_value_to_each_team(preset: str) -> None:
    env = dehla_v0.raw_env(preset=preset, match="hands:4")
    env.reset(seed=11)
    finished = play_hands(env, random.Random(11))
    assert len(finished) == 4 and env.score.hands_played == 4
    for table, rewards in finished:
        assert table.result is not None
        value = hand_value(table.rules, table.result)
        assert rewards == {"player_0": value, "player_1": -value, "player_2": value, "player_3": -value}
    assert any(rewards["player_0"] != 0 for _, rewards in finished)


def test_a_match_reward_comes_once_at_the_end() -> None:
    env = dehla_v0.raw_env(match="hands:3", reward="match")
    env.reset(seed=4)
    finished = play_hands(env, random.Random(4))
    assert [rewards for _, rewards in finished[:-1]] == [dict.fromkeys(AGENTS, 0.0)] * 2
    winner = env.score.winner(env.config.rules)
    expected = 0.0 if winner is None else (1.0 if winner == 0 else -1.0)
    assert finished[-1][1] == {"player_0": expected, "player_1": -expected, "player_2": expected, "player_3": -expected}
    assert all(env.terminations.values())


def test_a_seed_deals_the_hands_of_selfplay_with_that_seed() -> None:
    env = dehla_v0.raw_env(match="hands:3")
    env.reset(seed=77)
    rules, rng = env.config.rules, random.Random(0)
    assert env.table.dealer == choose_index(4, 77, "first-dealer")
    for number in range(3):
        assert env.table.deal == Deal.from_seed(rules, derive_seed(77, "deal", number))
        assert env.table.dealer == env.score.dealer
        table = env.table
        while env.table is table and not table.is_over:
            random_step(env, rng)


def test_resets_repeat_from_the_first_seed() -> None:
    def first_deals(env: DehlaEnv) -> list[Deal | None]:
        deals = []
        for seed in (5, None, None):
            env.reset(seed=seed)
            deals.append(env.table.deal)
        return deals

    one, two = first_deals(dehla_v0.raw_env()), first_deals(dehla_v0.raw_env())
    assert one == two
    assert len({str(d) for d in one}) == 3


def test_the_agent_to_act_is_the_seat_to_move() -> None:
    env = dehla_v0.raw_env(preset="mendikot-closed")
    env.reset(seed=8)
    rng = random.Random(8)
    while not any(env.terminations.values()):
        assert env.agent_selection == AGENTS[env.table.to_move or 0]
        for agent in AGENTS:
            assert env.observe(agent)["action_mask"].any() == (agent == env.agent_selection)
        random_step(env, rng)


def test_ansi_rendering_shows_the_table() -> None:
    env = dehla_v0.env(preset="court-piece", render_mode="ansi")
    env.reset(seed=3)
    text = env.render()
    assert isinstance(text, str)
    assert text.splitlines()[0].startswith("court-piece  hand 1  dealer player_")
    assert "to move: player_" in text and "call_trump" in text
    play_out_randomly(env)
    text = env.render()
    assert isinstance(text, str)
    assert text.splitlines()[0].startswith("court-piece  hand 1  ") and "hand over: " in text


def play_out_randomly(env: Any) -> None:
    rng = random.Random(0)
    for _agent in env.agent_iter():
        observation, _, termination, truncation, _ = env.last()
        legal = np.flatnonzero(observation["action_mask"])
        env.step(None if termination or truncation else int(legal[rng.randrange(len(legal))]))


def test_rendering_without_a_mode_warns_and_returns_nothing() -> None:
    env = dehla_v0.env()
    env.reset(seed=3)
    with pytest.warns(UserWarning, match="without a render_mode"):
        assert env.render() is None


def test_an_agent_observes_the_encoding_of_its_seats_view() -> None:
    """What the hiding test checks (``encode`` of ``observe``) is what the environment gives."""
    env = dehla_v0.raw_env(preset="dehla-pakad-hidden", match="hands:2")
    env.reset(seed=21)
    rng = random.Random(21)
    for _ in range(70):
        for seat, agent in enumerate(AGENTS):
            view = observe(env.table, seat, env.score)
            given = env.observe(agent)
            assert np.array_equal(given["observation"], encode(view))
            assert np.array_equal(given["action_mask"], action_mask(view))
        random_step(env, rng)


@examples(12)
@given(preset=st.sampled_from(sorted(PRESETS)), match=st.sampled_from([None, "hands:2", "kots:1"]),
       reward=st.sampled_from(["hand", "match"]), seed=st.integers(0, 2**32 - 1))
def test_random_episodes_keep_the_environments_invariants(preset: str, match: str | None, reward: str,
                                                          seed: int) -> None:
    """Through whole episodes: every observation is in its space, only the agent to move has
    legal actions, the teams' rewards are opposite and partners' equal, and each agent's return
    is the sum of its hands' values (per-hand rewards) or the match's sign (a match reward)."""
    env = dehla_v0.raw_env(preset=preset, match=match, reward=reward)
    env.reset(seed=seed)
    rng = random.Random(seed)
    returns = dict.fromkeys(AGENTS, 0.0)
    values = []
    while not any(env.terminations.values()):
        for agent in AGENTS:
            observed = env.observe(agent)
            assert env.observation_space(agent).contains(observed)
            assert observed["action_mask"].any() == (agent == env.agent_selection)
        table = env.table
        random_step(env, rng)
        if table.is_over:
            assert table.result is not None
            values.append(hand_value(table.rules, table.result))
        paid = env.rewards
        assert paid["player_0"] == paid["player_2"] == -paid["player_1"] == -paid["player_3"]
        for agent in AGENTS:
            returns[agent] += env.rewards[agent]
    if reward == "hand":
        assert returns["player_0"] == pytest.approx(sum(values))
    elif match is None:
        assert returns["player_0"] == float(np.sign(values[-1]))
    else:
        winner = env.score.winner(env.config.rules, env.config.match_format)
        assert returns["player_0"] == (0.0 if winner is None else 1.0 - 2.0 * winner)
    assert returns["player_1"] == -returns["player_0"]
