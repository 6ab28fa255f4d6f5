"""The vector environment gives what ``dehla_v0`` gives, on the same deals and choices.

Each table of a ``DehlaVectorEnv`` is shadowed by an AEC environment reset with the table's
episode seed; after every vector step the shadow replays the table's new actions (its own and
the opponents', ``hand_actions``) and must then wait for the same seat and give that seat the
same observation and action mask, value for value. Hands end with the same rewards, and the
finished tables' last views and action logs match. Every preset is covered (the bidding games
with their own layout, Double Sir with its face-down discards), with every seat learning, with
one seat against random opponents and with two seats against a policy function, in one-hand
episodes and in matches (hands, kots, tens; the bidding games' target).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from arena.engine.action_ids import REVEAL_ID
from arena.engine.bidding_rules import BIDDING_PRESETS
from arena.engine.chance import choose_index, derive_seed
from arena.engine.rules import PRESETS
from sdk.encoding import OFFSETS, MaskArray
from sdk.encoding_layout import FloatArray
from sdk.learn import dehla_v0
from sdk.learn.aec import DehlaEnv
from sdk.learn.bidding_encoding import BIDDING_LAYOUT
from sdk.learn.vector import DehlaVectorEnv, Observations
from sdk.learn.vector_deals import first_hands
from tests.batch_helpers import VECTOR_OPTIONS
from tests.engine_helpers import examples

VECTOR_PRESETS = (*PRESETS, *BIDDING_PRESETS)
"""Every preset ``dehla_v0`` plays."""


def leader_block(env: DehlaVectorEnv) -> slice:
    """The ``trick_leader`` block of the env's layout: set while a trick is in progress."""
    offsets = BIDDING_LAYOUT.offsets if env.config.preset in BIDDING_PRESETS else OFFSETS
    return offsets["trick_leader"]


def lowest_indices_policy(observations: FloatArray, masks: MaskArray) -> np.ndarray[Any, Any]:
    """A deterministic opponent: a legal action picked by the observation's nonzero entries (so
    an observation that differs from the AEC's would soon change the choices)."""
    out = np.empty(len(masks), dtype=np.int64)
    for i in range(len(masks)):
        legal = np.flatnonzero(masks[i])
        out[i] = legal[int(np.flatnonzero(observations[i]).sum()) % legal.size]
    return out


class Shadow:
    """One AEC environment per table, kept at the table's hand by replaying its actions."""

    def __init__(self, env: DehlaVectorEnv, seeds: np.ndarray[Any, Any]) -> None:
        self.env = env
        options = env.rules.options()
        config = env.config
        self.aecs: list[DehlaEnv] = [dehla_v0.raw_env(preset=config.preset, options=options,
                                                      match=config.match_format, reward=config.reward)
                                     for _ in range(env.num_envs)]
        self.paid = np.zeros((env.num_envs, 4), dtype=np.float32)
        """Per table, the rewards the shadow's hands paid so far, every seat's."""
        self.applied: list[list[int]] = [[] for _ in range(env.num_envs)]
        for t, seed in enumerate(seeds):
            self.aecs[t].reset(seed=int(seed))

    def catch_up(self, t: int, actions: list[int]) -> None:
        """Replay the actions of table ``t``'s hand that the shadow has not applied yet; an
        opponent policy's choices must be what it chooses on the AEC environment's view."""
        applied = self.applied[t]
        assert actions[: len(applied)] == applied, (t, actions, applied)
        aec = self.aecs[t]
        opponent = self.env.opponent
        for action in actions[len(applied):]:
            seat = int(aec.agent_selection[-1])
            if opponent is not None and seat not in self.env.learning_seats:
                view = aec.observe(aec.agent_selection)
                chosen = np.asarray(opponent(view["observation"][None], view["action_mask"][None]))
                assert chosen[0] == action, (t, seat)
            aec.step(action)
            self.paid[t] += [aec.rewards[f"player_{s}"] for s in range(4)]
            applied.append(action)

    def hand_over(self, t: int, infos: dict[str, Any]) -> None:
        """Table ``t``'s hand ended within its match: the shadow plays it out and goes on to the next one."""
        self.catch_up(t, [int(a) for a in infos["hand_actions"][t] if a >= 0])
        assert not any(self.aecs[t].terminations.values())
        self.applied[t] = []

    def check(self, observations: Observations, infos: dict[str, Any]) -> None:
        for t, aec in enumerate(self.aecs):
            self.catch_up(t, self.env.hand_actions(t))
            seat = int(infos["seat"][t])
            assert aec.agent_selection == f"player_{seat}", (t, aec.agent_selection, seat)
            expected = aec.observe(aec.agent_selection)
            where = (self.env.config.preset, t, len(self.applied[t]))
            assert np.array_equal(observations["observation"][t], expected["observation"]), where
            assert np.array_equal(observations["action_mask"][t], expected["action_mask"]), where

    def finish(self, t: int, infos: dict[str, Any], acting: int, reward: float) -> None:
        """Table ``t``'s hand ended: the shadow ends it too, with the same rewards and last view."""
        final = infos["final_info"]
        self.catch_up(t, [int(a) for a in final["actions"][t] if a >= 0])
        aec = self.aecs[t]
        assert all(aec.terminations.values())
        expected = np.array([aec.rewards[f"player_{s}"] for s in range(4)], dtype=np.float32)
        assert np.array_equal(infos["seat_rewards"][t], expected)
        assert reward == expected[acting]
        view = aec.observe(f"player_{acting}")
        assert np.array_equal(infos["final_obs"]["observation"][t], view["observation"])
        config = self.env.config
        if config.match_format is None:
            winner = aec.table.result.winner
        else:
            winner = aec.game.winner(aec.score, aec.table.result, config.match_format)
        assert int(final["winner"][t]) == (-1 if winner is None else winner)
        aec.reset(seed=int(infos["episode_seed"][t]))
        self.applied[t] = []


def run_differential(env: DehlaVectorEnv, seeds: list[int], steps: int, choice_seed: int, prefer: int = -1) -> int:
    """Step ``env`` with random legal actions (``prefer`` wherever it is legal but on lead), shadowed by AEC
    environments; returns the hands ended."""
    observations, infos = env.reset(seed=seeds)
    assert list(infos["episode_seed"]) == seeds
    shadow = Shadow(env, infos["episode_seed"])
    rng = np.random.default_rng(choice_seed)
    ended = 0
    paid = np.zeros((env.num_envs, 4), dtype=np.float32)
    leader = leader_block(env)
    for _ in range(steps):
        shadow.check(observations, infos)
        masks = observations["action_mask"]
        following = np.asarray(observations["observation"][:, leader].any(axis=1))  # a trick in progress
        actions = np.array([prefer if prefer >= 0 and m[prefer] and f else rng.choice(np.flatnonzero(m))
                            for m, f in zip(masks, following, strict=True)], dtype=np.int64)
        acting = infos["seat"]
        observations, rewards, terminated, truncated, infos = env.step(actions)
        assert not truncated.any()
        paid += infos["seat_rewards"]
        for t in np.flatnonzero(infos.get("hand_over", terminated) & ~terminated):
            shadow.hand_over(int(t), infos)
        for t in np.flatnonzero(terminated):
            shadow.finish(int(t), infos, int(acting[t]), float(rewards[t]))
            ended += 1
        assert np.array_equal(paid, shadow.paid)
        if env.config.match_format is None:
            assert not rewards[~terminated].any()
    shadow.check(observations, infos)
    return ended


@pytest.mark.parametrize("preset", VECTOR_PRESETS)
def test_every_seat_learning_sees_what_the_aec_environment_shows(preset: str) -> None:
    env = DehlaVectorEnv(6, preset, learning_seats=(0, 1, 2, 3))
    ended = run_differential(env, [11, 12, 13, 14, 15, 16], 75, 1)
    assert ended >= 6  # every table went through its first hand and an auto-reset


@pytest.mark.parametrize("preset", VECTOR_PRESETS)
def test_one_seat_against_random_opponents_sees_what_the_aec_environment_shows(preset: str) -> None:
    env = DehlaVectorEnv(8, preset, learning_seats=(0,))
    ended = run_differential(env, list(range(100, 108)), 30, 2)
    assert ended >= 8


@pytest.mark.parametrize("preset", VECTOR_PRESETS)
def test_two_seats_against_a_policy_function_see_what_the_aec_environment_shows(preset: str) -> None:
    env = DehlaVectorEnv(6, preset, learning_seats=(1, 3), opponent=lowest_indices_policy)
    ended = run_differential(env, list(range(200, 206)), 40, 3)
    assert ended >= 6


@pytest.mark.parametrize(("preset", "overrides"), VECTOR_OPTIONS)
def test_the_options_the_batched_engine_plays_are_seen_as_the_aec_environment_shows(
        preset: str, overrides: dict[str, Any]) -> None:
    env = DehlaVectorEnv(4, preset, options=overrides, learning_seats=(0, 1, 2, 3))
    seeds = [400 + 10 * VECTOR_OPTIONS.index((preset, overrides)) + t for t in range(4)]
    assert run_differential(env, seeds, 60, 5) >= 4


def test_asking_for_the_trump_whenever_allowed_sees_what_the_aec_environment_shows() -> None:
    """Mendikot's reveal on request, whenever a seat out of the led suit may ask: a seat that
    asked and then played no trump has shown a void in trumps."""
    env = DehlaVectorEnv(24, "mendikot", learning_seats=(0, 1, 2, 3))
    assert run_differential(env, list(range(300, 324)), 60, 4, prefer=REVEAL_ID) >= 24


def test_the_same_seed_plays_the_same_episodes() -> None:
    def run(seed: int) -> list[np.ndarray[Any, Any]]:
        env = DehlaVectorEnv(16, "mendikot")
        observations, _ = env.reset(seed=seed)
        seen = [observations["observation"]]
        for _ in range(20):
            actions = observations["action_mask"].argmax(axis=1)
            observations, rewards, *_ = env.step(actions)
            seen += [observations["observation"], rewards]
        return seen

    first, again, other = run(7), run(7), run(8)
    assert all(np.array_equal(a, b) for a, b in zip(first, again, strict=True))
    assert not all(np.array_equal(a, b) for a, b in zip(first, other, strict=True))


def test_finished_tables_are_dealt_their_next_hand_in_the_same_step() -> None:
    env = DehlaVectorEnv(4, "court-piece", learning_seats=(0, 1, 2, 3))
    observations, infos = env.reset(seed=3)
    first_seeds = infos["episode_seed"].copy()
    for step in range(53):  # a call and 52 plays
        observations, rewards, terminated, _, infos = env.step(observations["action_mask"].argmax(axis=1))
        assert terminated.all() == (step == 52)
    assert not np.array_equal(infos["episode_seed"], first_seeds)
    assert (rewards != 0).all()  # court piece: every hand has a winner
    assert infos["_final_info"].all()
    for t in range(4):
        assert env.hand_actions(t) == []  # the new hand waits for its first decision
    assert (observations["observation"][:, 733] == 1).all()  # the decision block: call trumps


@given(seeds=st.lists(st.integers(0, 2**63 - 2), min_size=1, max_size=8))
@examples(40)
def test_first_hands_are_the_aec_environments(seeds: list[int]) -> None:
    deal_seeds, dealers = first_hands(np.array(seeds, dtype=np.int64))
    assert list(deal_seeds) == [derive_seed(s, "deal", 0) for s in seeds]
    assert list(dealers) == [choose_index(4, s, "first-dealer") for s in seeds]


def test_observations_are_in_the_observation_space() -> None:
    env = DehlaVectorEnv(8, "dehla-pakad-hidden", learning_seats=(2,))
    observations, _ = env.reset(seed=1)
    for _ in range(5):
        assert env.observation_space.contains(observations)
        observations, *_ = env.step(observations["action_mask"].argmax(axis=1))


@given(preset=st.sampled_from(VECTOR_PRESETS), seed=st.integers(0, 2**32),
       seats=st.sets(st.integers(0, 3), min_size=1).map(sorted), steps=st.integers(1, 40),
       match=st.sampled_from([None, "hands:2"]))
@examples(15)
def test_every_table_waits_for_a_learning_seat_and_hands_are_zero_sum(
        preset: str, seed: int, seats: list[int], steps: int, match: str | None) -> None:
    env = DehlaVectorEnv(8, preset, learning_seats=seats, match=match)
    observations, infos = env.reset(seed=seed)
    for _ in range(steps):
        assert set(infos["seat"]) <= set(seats)
        assert observations["action_mask"].any(axis=1).all()
        vectors = observations["observation"]
        assert ((vectors >= 0) & (vectors <= 1)).all()
        acting = infos["seat"]
        observations, rewards, terminated, _, infos = env.step(observations["action_mask"].argmax(axis=1))
        paid = infos["seat_rewards"]
        assert np.array_equal(rewards, paid[np.arange(8), acting])
        assert not paid[~infos.get("hand_over", terminated)].any()  # paid when a hand ends, and only then
        assert not (terminated & ~infos.get("hand_over", terminated)).any()
        assert (paid[:, 0] == paid[:, 2]).all() and (paid[:, 0] == -paid[:, 1]).all()
        assert (paid[:, 1] == paid[:, 3]).all()


MATCHES: list[tuple[str, str, str]] = [
    ("dehla-pakad", "kots:1", "hand"),
    ("mendikot", "hands:2", "match"),
    ("court-piece-double-sir", "hands:3", "hand"),
    ("dehla-pakad-hidden", "tens:6", "match"),
    ("twenty-eight", "hands:3", "hand"),
    ("twenty-nine", "hands:2", "match"),
]
"""(preset, match, reward): each match format, both reward modes, both kinds of game."""


@pytest.mark.parametrize(("preset", "match", "reward"), MATCHES)
def test_a_match_long_episode_is_the_aec_environments_match(preset: str, match: str, reward: str) -> None:
    """Scores carried from hand to hand (the observation's score block), the next hand's deal and
    dealer, the rewards and the end of the match: as ``dehla_v0`` with the same match and reward."""
    env = DehlaVectorEnv(4, preset, learning_seats=(0, 3), reward=reward, match=match)
    hands_before = 0

    def count_hands(infos: dict[str, Any]) -> None:
        nonlocal hands_before
        hands_before += int(infos.get("hand_over", np.zeros(1, dtype=bool)).sum())

    original_step = env.step

    def step(actions: Any) -> Any:
        out = original_step(actions)
        count_hands(out[4])
        return out

    env.step = step  # type: ignore[method-assign]
    ended = run_differential(env, [31, 32, 33, 34], 90, 6)
    assert ended >= 1 and hands_before > ended  # matches ended, and hands ended within matches
