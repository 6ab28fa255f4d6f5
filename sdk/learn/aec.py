"""The PettingZoo AEC environment over the rules engine: four agents, one seat each.

``arena.engine`` plays every rule, as for the referee; this module only turns its turns into
PettingZoo's agent-environment cycle (``games`` says how for the trick-taking games and for
the bidding games). Agents are ``player_0`` .. ``player_3`` (seats; teams are 0 and 2 against 1
and 3). An episode is one hand, or a whole match (``match="kots:3"``).
``reset(seed=S)`` deals the hands of ``dehla selfplay --seed S``: hand ``n`` is
``Deal.from_seed(rules, derive_seed(S, "deal", n))`` and the first dealer
``choose_index(4, S, "first-dealer")``; a reset without a seed draws the next seed from the
generator the last seed started, so a run is repeatable from its first seed.

Bad input raises an ``ArenaError`` (a ``ValueError``) naming the problem, before anything
changes: an action that is not an integer of the action space or is masked out
(``IllegalEnvActionError``), a step after the episode is over (``FinishedEpisodeError``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from arena.engine.chance import choose_index
from arena.engine.match import MatchFormat
from arena.engine.seats import Seat
from sdk.learn.config import EnvConfig, Reward
from sdk.learn.errors import FinishedEpisodeError, IllegalEnvActionError, LearnEnvError
from sdk.learn.games import Table, game_for

AGENTS: tuple[str, ...] = ("player_0", "player_1", "player_2", "player_3")
_SEAT_OF = {agent: seat for seat, agent in enumerate(AGENTS)}
RENDER_MODES = ("ansi",)

Observed = dict[str, np.ndarray[Any, Any]]


class DehlaEnv(AECEnv[str, Observed, int]):
    """Every preset as a PettingZoo AEC environment (``dehla_v0``)."""

    def __init__(
        self,
        preset: str = "dehla-pakad",
        options: Mapping[str, Any] | None = None,
        match: str | MatchFormat | None = None,
        reward: str | Reward = Reward.HAND,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.metadata = {"render_modes": list(RENDER_MODES), "name": "dehla_v0", "is_parallelizable": False}
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise LearnEnvError(f"unknown render_mode {render_mode!r} (known: {', '.join(RENDER_MODES)})")
        self.config = EnvConfig.of(preset, options, match, reward)
        self.game = game_for(self.config.rules, self.config.match_format)
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        self.agents: list[str] = []
        self.agent_selection: str = AGENTS[0]
        self.observation_spaces = {agent: _observation_space(self.game.observation_size, self.game.num_actions)
                                   for agent in AGENTS}
        self.action_spaces = {agent: spaces.Discrete(self.game.num_actions) for agent in AGENTS}
        self.infos: dict[str, dict[str, Any]] = {}
        self._generator: np.random.Generator | None = None
        self._seed = 0
        self._state: Table | None = None
        self._score: Any = self.game.new_score(0)

    # ----------------------------------------------------------------- PettingZoo's API
    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal the episode's first hand (``options`` is accepted and unused)."""
        if seed is not None:
            if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
                raise LearnEnvError(f"seed must be a non-negative integer, not {seed!r}")
            self._generator = np.random.default_rng(int(seed))
            self._seed = int(seed)
        else:
            if self._generator is None:
                self._generator = np.random.default_rng()
            self._seed = int(self._generator.integers(2**63 - 1))
        self._score = self.game.new_score(choose_index(4, self._seed, "first-dealer"))
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos = {agent: {} for agent in AGENTS}
        self._deal_hand()

    def step(self, action: int | None) -> None:
        """Apply the selected agent's action (``None`` for an agent whose episode is over)."""
        if not self.agents:
            raise FinishedEpisodeError("the episode is over (every agent is done): call reset() first")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self._table()
        chosen = self.game.action_of(self._action_number(agent, action))
        legal = state.legal_actions()
        if chosen not in legal:
            raise IllegalEnvActionError(
                f"{agent}: action {action} ({chosen}) is masked out now "
                f"(legal: {', '.join(f'{self.game.action_id(a)} ({a})' for a in legal)})"
            )
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        state.apply(chosen)
        if state.is_over:
            self._end_hand(self.game.result(state))
        if not any(self.terminations.values()):
            self.agent_selection = AGENTS[self._table().to_move or 0]
        self._accumulate_rewards()

    def observe(self, agent: str) -> Observed:
        """``agent``'s view as ``{"observation": vector, "action_mask": 0/1 vector}``."""
        vector, mask = self.game.observed(self._table(), seat_of(agent), self._score)
        return {"observation": vector, "action_mask": mask}

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode (pass render_mode='ansi')")
            return None
        table = self._table()
        # A finished table is the episode's last hand, already counted in the score.
        number = self._score.hands_played + (0 if table.is_over else 1)
        return self.game.render(self.config.preset, table, self._score, number)

    def close(self) -> None:
        """Nothing to release: the environment holds no files, processes or sockets."""

    # ----------------------------------------------------------------- for tests and tools
    @property
    def table(self) -> Any:
        """The hand being played (the engine's ``HandState`` or ``BiddingHand``: every card, so
        not for a policy)."""
        return self._table()

    @property
    def score(self) -> Any:
        """The match score before the hand being played (after it, once the episode is over)."""
        return self._score

    # ----------------------------------------------------------------- the cycle
    def _table(self) -> Table:
        if self._state is None:
            raise LearnEnvError("the environment has no table yet: call reset() first")
        return self._state

    def _deal_hand(self) -> None:
        self._state = self.game.new_table(self._seed, self._score)
        self.agent_selection = AGENTS[self._state.to_move or 0]

    def _end_hand(self, result: Any) -> None:
        config = self.config
        self._score, value = self.game.scored(self._score, result)
        if config.reward is Reward.HAND:
            self._pay(value)
        if not self.game.match_over(self._score, config.match_format):
            self._deal_hand()
            return
        if config.reward is Reward.MATCH:
            winner = self.game.winner(self._score, result, config.match_format)
            self._pay(0.0 if winner is None else (1.0 if winner == 0 else -1.0))
        self.terminations = dict.fromkeys(self.agents, True)

    def _pay(self, value_to_team_0: float) -> None:
        for seat, agent in enumerate(AGENTS):
            self.rewards[agent] += value_to_team_0 if seat % 2 == 0 else -value_to_team_0

    def _action_number(self, agent: str, action: object) -> int:
        if isinstance(action, np.ndarray) and action.shape == ():
            action = action.item()
        if isinstance(action, bool) or not isinstance(action, (int, np.integer)):
            raise IllegalEnvActionError(f"{agent}: action {action!r} is not an integer of the action space "
                                        f"(0..{self.game.num_actions - 1})")
        if not 0 <= action < self.game.num_actions:
            raise IllegalEnvActionError(f"{agent}: action {action} is out of range (0..{self.game.num_actions - 1})")
        return int(action)


def _observation_space(size: int, actions: int) -> spaces.Dict:
    return spaces.Dict({
        "observation": spaces.Box(0.0, 1.0, (size,), dtype=np.float32),
        "action_mask": spaces.Box(0, 1, (actions,), dtype=np.int8),
    })


def seat_of(agent: str) -> Seat:
    """The seat of an agent's name (``player_2`` -> 2)."""
    seat = _SEAT_OF.get(agent)
    if seat is None:
        raise LearnEnvError(f"unknown agent {agent!r} (agents: {', '.join(AGENTS)})")
    return seat
