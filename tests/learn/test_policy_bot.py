"""The policy bot sees what the environment showed in training: for every decision of seeded
``dehla_v0`` hands, the bot's choice from the SDK's view is the network's choice from the
environment's observation vector and mask."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from arena.engine.action_ids import action_id
from arena.engine.match import MatchScore
from arena.engine.observation import observe
from sdk.bot import BotView
from sdk.encoding import encode
from sdk.learn import dehla_v0
from sdk.learn.aec import seat_of
from sdk.policy_bot import PolicyBot
from sdk.policy_network import PolicyNetwork


@pytest.mark.parametrize("preset", ["dehla-pakad", "dehla-pakad-hidden", "mendikot", "court-piece"])
def test_the_bot_chooses_what_the_network_chooses_from_the_environments_view(preset: str) -> None:
    network = PolicyNetwork.initial(hidden=32, seed=7)
    bot = PolicyBot(network)
    env = dehla_v0.raw_env(preset=preset)
    decisions = 0
    for seed in range(2):
        env.reset(seed=seed)
        for agent in env.agent_iter():
            observed, _, termination, truncation, _ = env.last()
            if termination or truncation:
                env.step(None)
                continue
            expected = int(network.choose(observed["observation"][None], observed["action_mask"][None])[0])
            view = observe(env.table, seat_of(agent), env.score)
            assert action_id(bot.decide(BotView(view, 1.0, 1.0))) == expected
            decisions += 1
            env.step(expected)
    assert decisions >= 2 * 52


def test_the_bot_leaves_the_match_score_out_as_one_hand_episodes_did() -> None:
    env = dehla_v0.raw_env()
    env.reset(seed=1)
    view = observe(env.table, 0, MatchScore(dealer=0, kots=(2, 1), runs=(1, 0)))
    assert not np.array_equal(encode(view), encode(replace(view, match=None))), "the control: a score shows"
    assert np.array_equal(PolicyBot.observation_vector(BotView(view, 1.0, 1.0)), encode(replace(view, match=None)))
