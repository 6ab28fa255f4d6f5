"""A Gymnasium vector environment over the batched engine: N tables stepped at once.

An episode is one hand, or a whole match (``match="hands:4"``, ``"kots:3"``, ``"tens:20"``; a
bidding game's ``hands:N`` ends at its target too), as in ``dehla_v0``. Every preset plays:
the trick-taking games on ``BatchTables``, Twenty-eight and Twenty-nine on ``BiddingBatchTables``
with their own action space and observation layout (``vector_games``). Some seats are the
learner's (``learning_seats``); the others are played by an opponent policy: uniformly random
legal play by default, or a batched function ``policy(observations, masks) -> actions`` over
the opponent seats to move. After every step each table waits for one of the learner's seats
(``infos["seat"]``), and the observation is that seat's: ``{"observation": (N, 767) float32,
"action_mask": (N, 162) int8}``, the layout of ``sdk.encoding`` (``(N, 596)`` and ``(N, 228)``
in a bidding game: ``bidding_encoding``), the same values ``dehla_v0`` gives on the same deal
and choices (``tests/learn/test_vector.py``), computed in numba (``vector_encoding``,
``vector_bidding_encoding``).

Auto-reset is Gymnasium's "same step": a table whose episode ends in a step is dealt its next
episode at once; ``terminations[t]`` says so, the returned observation is the new episode's, and
``infos["final_obs"]`` / ``infos["final_info"]`` hold the acting seat's last view and the last
hand's actions, the seed and the winner. Within a match, a finished hand is followed by the
match's next hand (``infos["hand_over"]``, ``infos["hand_actions"]``). Episode seeds come from
the generator ``reset(seed=...)`` starts: a table's episode with seed ``S`` is the one
``dehla_v0.env(match=...).reset(seed=S)`` deals (``infos["episode_seed"]``).

Rewards are paid when a hand ends (``reward="hand"``) or when the episode ends
(``reward="match"``): ``rewards[t]`` to the seat that acted at table ``t`` in this
step, ``infos["seat_rewards"][t]`` to all four seats (a learner seat that did not act in the
last step of the hand finds its reward there). Bad input raises a ``LearnEnvError`` (a
``ValueError``) naming the table and the problem, and leaves every table as it was.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from arena.batch import BatchError, BatchTables, BiddingBatchTables
from arena.engine.chance import derive_seed
from arena.engine.match import MatchFormat
from sdk.encoding import MaskArray
from sdk.encoding_layout import FloatArray
from sdk.learn.config import EnvConfig, Reward
from sdk.learn.errors import ActionShapeError, IllegalEnvActionError, LearnEnvError, OpponentPolicyError
from sdk.learn.games import game_for
from sdk.learn.vector_deals import MAX_SEED, first_hands
from sdk.learn.vector_games import vector_game

IntArray = npt.NDArray[np.int64]
Observations = dict[str, npt.NDArray[Any]]
Policy = Callable[[FloatArray, MaskArray], npt.ArrayLike]
"""A batched policy: ``(observations (M, 767), masks (M, 162))`` of M seats to move -> M action ids
(``(M, 596)`` and ``(M, 228)`` in a bidding game)."""

_TEAM_SIGN = np.array([1.0, -1.0, 1.0, -1.0], dtype=np.float32)


class DehlaVectorEnv(VectorEnv[Observations, IntArray, npt.NDArray[Any]]):
    """``num_envs`` tables of one preset, the learner's seats stepped together."""

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}  # noqa: RUF012

    def __init__(
        self,
        num_envs: int = 1024,
        preset: str = "dehla-pakad",
        options: Mapping[str, Any] | None = None,
        learning_seats: Sequence[int] = (0,),
        opponent: Policy | None = None,
        reward: str | Reward = Reward.HAND,
        match: str | MatchFormat | None = None,
    ) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int | np.integer) or num_envs < 1:
            raise LearnEnvError(f"num_envs must be a positive number of tables, not {num_envs!r}")
        self.config = EnvConfig.of(preset, options, match, reward)
        rules = self.config.rules
        try:
            self._game = vector_game(rules, int(num_envs))
        except BatchError as exc:
            raise LearnEnvError(f"preset {preset!r}: {exc}") from None
        self._tables = self._game.tables
        self.rules = rules
        self._match_game = game_for(rules, self.config.match_format)
        self.learning_seats = _seats(learning_seats)
        if opponent is not None and not callable(opponent):
            raise LearnEnvError(f"opponent must be a policy function (observations, masks) -> actions, or None "
                                f"for random legal play, not {opponent!r}")
        self.opponent = opponent
        self.num_envs = int(num_envs)
        game = self._game
        self.single_observation_space = spaces.Dict({
            "observation": spaces.Box(0.0, 1.0, (game.observation_size,), dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (game.num_actions,), dtype=np.int8),
        })
        self.single_action_space = spaces.Discrete(game.num_actions)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self._learner = np.zeros(4, dtype=np.bool_)
        self._learner[list(self.learning_seats)] = True
        self._initial_blocks = game.score_blocks(self._match_game.new_score(0))
        self._blocks = np.broadcast_to(self._initial_blocks, (self.num_envs, 2, game.score_width)).copy()
        self._scores: list[Any] = [None] * self.num_envs
        """Each table's match score (the engine's), in a match; ``None`` for one-hand episodes."""
        self._generator: np.random.Generator | None = None
        self._episode_seeds = np.zeros(self.num_envs, dtype=np.int64)
        self._seat = np.zeros(self.num_envs, dtype=np.int64)
        self._log = np.full((self.num_envs, game.max_actions), -1, dtype=np.int16)
        self._in_match = self.config.match_format is not None
        """An episode is a match: the score block changes from hand to hand. In a one-hand episode
        it is the zero score's until the last view (written once for every table, not gathered per step)."""
        self._log_len = np.zeros(self.num_envs, dtype=np.int64)
        self._all_rows = np.arange(self.num_envs, dtype=np.int64)
        self._ready = False

    # ----------------------------------------------------------------- Gymnasium's API
    def reset(
        self, *, seed: int | Sequence[int] | None = None, options: dict[str, Any] | None = None,
    ) -> tuple[Observations, dict[str, Any]]:
        """Deal every table's first hand. ``seed``: one integer (the generator of every episode
        seed and opponent draw), or one episode seed per table; ``options`` is accepted and unused."""
        seeds = self._start_generator(seed)
        self._deal(self._all_rows, seeds)
        self._advance()
        self._ready = True
        return self._observe(), {"seat": self._seat.copy(), "episode_seed": self._episode_seeds.copy()}

    def step(self, actions: npt.ArrayLike) -> tuple[Observations, npt.NDArray[np.float32], npt.NDArray[np.bool_],
                                                   npt.NDArray[np.bool_], dict[str, Any]]:
        """Apply one action per table for the seat it waits for, play the opponents, redeal the
        finished tables."""
        if not self._ready:
            raise LearnEnvError("the environment has no tables yet: call reset() first")
        array = self._checked(actions)
        saved = self._snapshot() if self.opponent is not None else None
        saved_scores = list(self._scores)
        acting = self._seat.copy()
        self._apply(array, by_learner=True)
        try:
            over, seat_rewards, infos = self._finish_step(acting)
        except OpponentPolicyError:
            if saved is not None:
                self._restore(saved)
                self._scores = saved_scores
            raise
        rewards = seat_rewards[self._all_rows, acting]
        observations = self._observe()
        infos.update(seat=self._seat.copy(), episode_seed=self._episode_seeds.copy(), seat_rewards=seat_rewards)
        return observations, rewards, over, np.zeros(self.num_envs, dtype=np.bool_), infos

    def _finish_step(self, acting: IntArray) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.float32], dict[str, Any]]:
        """Play the opponents, score the finished hands, deal the next hands or episodes."""
        self._advance()
        hand_over = self._tables.over.copy()
        seat_rewards = np.zeros((self.num_envs, 4), dtype=np.float32)
        infos: dict[str, Any] = {}
        if not hand_over.any():
            return hand_over, seat_rewards, infos
        rows = np.flatnonzero(hand_over)
        if not self._in_match:
            over, to_team_0 = hand_over, self._one_hand_rewards()
            self._blocks[rows] = self._game.one_hand_blocks(rows)
        else:
            over, to_team_0 = self._score_hands(rows)
        seat_rewards[hand_over] = to_team_0[hand_over, None] * _TEAM_SIGN
        hand_actions = np.where(hand_over[:, None], self._log, -1).astype(np.int16)
        if self._in_match:
            infos["hand_over"], infos["hand_actions"] = hand_over, hand_actions
        if over.any():
            last_hands = hand_actions
            if self._in_match:
                last_hands = np.where(over[:, None], hand_actions, -1).astype(np.int16)
            infos["final_obs"], infos["final_info"] = self._final(over, acting, last_hands)
            infos["_final_obs"] = infos["_final_info"] = over
        ended = np.flatnonzero(over)
        going_on = np.flatnonzero(hand_over & ~over)
        if going_on.size:
            self._deal_next_hands(going_on)
        if ended.size:
            self._deal(ended, self._generator_or_new().integers(MAX_SEED, size=ended.size))
        self._advance()
        return over, seat_rewards, infos

    def _one_hand_rewards(self) -> npt.NDArray[np.float32]:
        """Each finished one-hand episode's reward to team 0 (``Reward``: the hand's value, or its winner's sign)."""
        if self.config.reward is Reward.MATCH:
            winners = self._game.winners()
            out: npt.NDArray[np.float32] = np.where(winners == 0, 1.0, np.where(winners == 1, -1.0, 0.0)).astype(
                np.float32)
            return out
        return self._game.hand_values()

    def _score_hands(self, rows: IntArray) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.float32]]:
        """Count the finished hands at ``rows`` in their matches (the engine's scores, as
        ``dehla_v0`` counts them): the tables whose match is over, and each table's reward to team 0."""
        over = np.zeros(self.num_envs, dtype=np.bool_)
        to_team_0 = np.zeros(self.num_envs, dtype=np.float32)
        game, match_format = self._match_game, self.config.match_format
        for t in (int(r) for r in rows):
            result = self._game.result(t)
            score, value = game.scored(self._scores[t], result)
            self._scores[t] = score
            self._blocks[t] = self._game.score_blocks(score)
            if self.config.reward is Reward.HAND:
                to_team_0[t] = value
            if game.match_over(score, match_format):
                over[t] = True
                if self.config.reward is Reward.MATCH:
                    winner = game.winner(score, result, match_format)
                    to_team_0[t] = 0.0 if winner is None else (1.0 if winner == 0 else -1.0)
        return over, to_team_0

    def close(self, **kwargs: Any) -> None:
        """Nothing to release: the tables are arrays."""
        self.closed = True

    # ----------------------------------------------------------------- for tests and tools
    @property
    def tables(self) -> BatchTables | BiddingBatchTables:
        """The batched tables (every card: not for a policy)."""
        return self._tables

    def hand_actions(self, table: int) -> list[int]:
        """The action ids of the hand being played at ``table`` so far, every seat's, in order."""
        return [int(a) for a in self._log[table, : self._log_len[table]]]

    # ----------------------------------------------------------------- dealing and playing
    def _start_generator(self, seed: int | Sequence[int] | None) -> IntArray:
        """Start the generator from ``seed`` and return the first episode seed of every table."""
        if seed is None:
            return self._generator_or_new().integers(MAX_SEED, size=self.num_envs)
        if isinstance(seed, int | np.integer) and not isinstance(seed, bool):
            if seed < 0:
                raise LearnEnvError(f"seed must be a non-negative integer, not {seed!r}")
            self._generator = np.random.default_rng(int(seed))
            return self._generator.integers(MAX_SEED, size=self.num_envs)
        array = np.asarray(seed)
        if array.shape != (self.num_envs,) or not np.issubdtype(array.dtype, np.integer):
            raise LearnEnvError(f"seed must be a non-negative integer or {self.num_envs} of them (one per table), "
                                f"not an array of shape {array.shape} ({array.dtype})")
        bad = np.flatnonzero((array < 0) | (array >= MAX_SEED))
        if bad.size:
            raise LearnEnvError(f"seed of table {int(bad[0])}: {int(array[bad[0]])} is not in 0..{MAX_SEED - 1}")
        self._generator = np.random.default_rng([int(s) for s in array])
        return array.astype(np.int64)

    def _generator_or_new(self) -> np.random.Generator:
        if self._generator is None:
            self._generator = np.random.default_rng()
        return self._generator

    def _deal(self, rows: IntArray, episode_seeds: IntArray) -> None:
        """Deal the first hand of each episode seed at its table (every table, or a few of them)."""
        deal_seeds, dealers = first_hands(np.asarray(episode_seeds, dtype=np.int64))
        self._episode_seeds[rows] = episode_seeds
        self._blocks[rows] = self._initial_blocks
        if self._in_match:
            for t, dealer in zip(rows.tolist(), dealers.tolist(), strict=True):
                self._scores[t] = self._match_game.new_score(dealer)
        self._deal_hands(rows, deal_seeds, dealers)

    def _deal_next_hands(self, rows: IntArray) -> None:
        """The match's next hand at each table of ``rows``: hand ``n`` of episode seed ``S`` is
        ``derive_seed(S, "deal", n)``, dealt by the score's dealer (``games.Game.new_table``)."""
        scores = [self._scores[t] for t in rows.tolist()]
        deal_seeds = np.array([derive_seed(int(self._episode_seeds[t]), "deal", score.hands_played)
                               for t, score in zip(rows.tolist(), scores, strict=True)], dtype=np.int64)
        self._deal_hands(rows, deal_seeds, np.array([score.dealer for score in scores], dtype=np.int64))

    def _deal_hands(self, rows: IntArray, deal_seeds: IntArray, dealers: IntArray) -> None:
        self._log[rows] = -1
        self._log_len[rows] = 0
        tables = self._tables
        if rows.size == self.num_envs:
            tables.reset(deal_seeds, dealers)
            return
        fresh = self._game.new_tables(int(rows.size))
        fresh.reset(deal_seeds, dealers)
        tables.ints[rows] = fresh.ints
        tables.masks[rows] = fresh.masks
        tables.history[rows] = fresh.history
        tables.result[rows] = fresh.result

    def _advance(self) -> None:
        """Play the opponents' seats until every table waits for a learner's seat or is over."""
        tables = self._tables
        if self.opponent is None:  # one compiled pass plays every random move
            key = np.uint64(self._generator_or_new().integers(2**64, dtype=np.uint64))
            self._game.play_random_until(self._learner, key, self._log, self._log_len)
            return
        while True:
            waiting = ~tables.over & ~self._learner[tables.to_move]
            if not waiting.any():
                return
            self._apply(self._ask_opponent(np.flatnonzero(waiting)), by_learner=False)

    def _ask_opponent(self, rows: IntArray) -> IntArray:
        assert self.opponent is not None
        seats = self._tables.to_move[rows].astype(np.int64)
        observations = self._encode(rows, seats)
        masks = self._tables.legal_mask()[rows].view(np.int8)
        try:
            answer = np.asarray(self.opponent(observations, masks))
        except Exception as exc:
            raise OpponentPolicyError(f"the opponent policy failed: {type(exc).__name__}: {exc}") from exc
        if answer.shape != rows.shape or not np.issubdtype(answer.dtype, np.integer):
            raise OpponentPolicyError(f"the opponent policy answered an array of shape {answer.shape} "
                                      f"({answer.dtype}); expected {rows.shape} integers, one per seat asked")
        actions = np.full(self.num_envs, -1, dtype=np.int64)
        actions[rows] = answer
        return actions

    def _apply(self, actions: IntArray, by_learner: bool) -> None:
        """Step the tables (checked first: a bad action changes nothing) and log the actions; the
        learner's actions are one per table, an opponent policy's -1 where it was not asked."""
        try:
            self._tables.step(actions)
        except BatchError as exc:
            if by_learner:
                raise IllegalEnvActionError(str(exc)) from None
            raise OpponentPolicyError(f"the opponent policy: {exc}") from None
        if by_learner:
            self._log[self._all_rows, self._log_len] = actions
            self._log_len += 1
            return
        rows = np.flatnonzero(actions >= 0)
        self._log[rows, self._log_len[rows]] = actions[rows]
        self._log_len[rows] += 1

    def _checked(self, actions: npt.ArrayLike) -> IntArray:
        array = np.asarray(actions)
        if array.shape != (self.num_envs,) or not np.issubdtype(array.dtype, np.integer):
            raise ActionShapeError(f"actions has shape {array.shape} ({array.dtype}); expected ({self.num_envs},) "
                                   f"integers, one per table")
        array = array.astype(np.int64, copy=False)
        low = np.flatnonzero(array < 0)
        if low.size:
            raise IllegalEnvActionError(f"table {int(low[0])}: action {int(array[low[0]])} is out of range "
                                        f"(0..{self._game.num_actions - 1}; every table waits for an action)")
        return array

    # ----------------------------------------------------------------- observing
    def _encode(self, rows: IntArray, seats: IntArray, live: bool | None = None) -> FloatArray:
        """The observations of ``seats`` at ``rows``, the match score's block included (``live``:
        each table's own, not the zero score's; by default in a match)."""
        game = self._game
        out = game.encode(rows, seats, self._log)
        at = game.score_at
        if self._in_match if live is None else live:
            out[:, at:at + game.score_width] = self._blocks[rows, seats & 1]
        elif self._initial_blocks.any():  # the same for both teams at the zero score
            out[:, at:at + game.score_width] = self._initial_blocks[0]
        return out

    def _observe(self) -> Observations:
        """Every table's learner seat to move: its observation and action mask."""
        self._seat = self._tables.to_move.astype(np.int64)
        return {"observation": self._encode(self._all_rows, self._seat),
                "action_mask": self._tables.legal_mask().view(np.int8)}

    def _final(self, over: npt.NDArray[np.bool_], acting: IntArray,
               last_hands: npt.NDArray[np.int16]) -> tuple[Observations, dict[str, Any]]:
        """The finished tables' last view for the seat that acted (the score with the last hand
        counted, as the AEC environment shows it then), and their last hands' facts."""
        rows = np.flatnonzero(over)
        game = self._game
        observation = np.zeros((self.num_envs, game.observation_size), dtype=np.float32)
        observation[rows] = self._encode(rows, acting[rows], live=True)
        final_obs: Observations = {"observation": observation,
                                   "action_mask": np.zeros((self.num_envs, game.num_actions), dtype=np.int8)}
        info: dict[str, Any] = {"actions": last_hands,
                "episode_seed": self._episode_seeds.copy(),
                "winner": self._winners(over)}
        return final_obs, info

    def _winners(self, over: npt.NDArray[np.bool_]) -> IntArray:
        """The episode's winning team per finished table (-1: none): the last hand's, or the match's."""
        if not self._in_match:
            return self._game.winners()
        out = np.full(self.num_envs, -1, dtype=np.int64)
        game, match_format = self._match_game, self.config.match_format
        for t in np.flatnonzero(over).tolist():
            winner = game.winner(self._scores[t], None, match_format)
            out[t] = -1 if winner is None else winner
        return out

    # ----------------------------------------------------------------- undoing a failed step
    def _snapshot(self) -> tuple[npt.NDArray[Any], ...]:
        t = self._tables
        return (t.ints.copy(), t.masks.copy(), t.history.copy(), t.result.copy(), self._log.copy(),
                self._log_len.copy(), self._episode_seeds.copy(), self._blocks.copy())

    def _restore(self, saved: tuple[npt.NDArray[Any], ...]) -> None:
        t = self._tables
        (t.ints[:], t.masks[:], t.history[:], t.result[:], self._log[:], self._log_len[:], self._episode_seeds[:],
         self._blocks[:]) = saved


def _seats(learning_seats: Sequence[int]) -> tuple[int, ...]:
    if isinstance(learning_seats, str | bytes) or not isinstance(learning_seats, Sequence):
        raise LearnEnvError(f"learning_seats must be a sequence of seats 0..3, not {learning_seats!r}")
    seats = tuple(learning_seats)
    if (not seats or len(set(seats)) != len(seats)
            or any(isinstance(s, bool) or not isinstance(s, int | np.integer) or not 0 <= s <= 3 for s in seats)):
        raise LearnEnvError(f"learning_seats must be distinct seats 0..3, at least one, not {learning_seats!r}")
    return tuple(int(s) for s in seats)


def vector_env(
    num_envs: int = 1024,
    preset: str = "dehla-pakad",
    options: Mapping[str, Any] | None = None,
    learning_seats: Sequence[int] = (0,),
    opponent: Policy | None = None,
    reward: str | Reward = Reward.HAND,
    match: str | MatchFormat | None = None,
) -> DehlaVectorEnv:
    """The vector environment (see ``DehlaVectorEnv``)."""
    return DehlaVectorEnv(num_envs, preset, options, learning_seats, opponent, reward, match)


