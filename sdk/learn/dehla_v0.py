"""``dehla_v0``: the PettingZoo AEC environment of Dehla Pakad, Mendikot and Court Piece.

Usage, as PettingZoo's own environments::

    from sdk.learn import dehla_v0

    env = dehla_v0.env(preset="dehla-pakad", render_mode="ansi")
    env.reset(seed=42)
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        action = None if termination or truncation else env.action_space(agent).sample(observation["action_mask"])
        env.step(action)

``env()`` is ``raw_env()`` inside PettingZoo's standard wrappers (an action outside the action
space fails their check; observing or stepping before ``reset`` is refused), and a step after
the episode is over raises ``FinishedEpisodeError`` where PettingZoo's wrapper only warns.
``illegal_reward=r`` adds PettingZoo's ``TerminateIllegalWrapper``: a masked-out action then
ends the episode with reward ``r`` to its agent instead of raising ``IllegalEnvActionError``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from arena.engine.match import MatchFormat
from sdk.learn.aec import DehlaEnv, Observed
from sdk.learn.config import Reward
from sdk.learn.errors import FinishedEpisodeError


class _EpisodeOrderWrapper(wrappers.OrderEnforcingWrapper[str, Observed, int]):
    """PettingZoo's order checks, with a step after the end of the episode an error."""

    def step(self, action: int | None) -> None:
        if self._has_reset and not self.agents:
            raise FinishedEpisodeError("the episode is over (every agent is done): call reset() first")
        super().step(action)


def raw_env(
    preset: str = "dehla-pakad",
    options: Mapping[str, Any] | None = None,
    match: str | MatchFormat | None = None,
    reward: str | Reward = Reward.HAND,
    render_mode: str | None = None,
) -> DehlaEnv:
    """The environment without wrappers (see ``sdk.learn.aec.DehlaEnv``)."""
    return DehlaEnv(preset, options, match, reward, render_mode)


def env(
    preset: str = "dehla-pakad",
    options: Mapping[str, Any] | None = None,
    match: str | MatchFormat | None = None,
    reward: str | Reward = Reward.HAND,
    render_mode: str | None = None,
    illegal_reward: float | None = None,
) -> AECEnv[str, Observed, int]:
    """The environment inside PettingZoo's standard wrappers."""
    inner: AECEnv[str, Observed, int] = raw_env(preset, options, match, reward, render_mode)
    if illegal_reward is not None:
        inner = wrappers.TerminateIllegalWrapper(inner, illegal_reward)
    inner = wrappers.AssertOutOfBoundsWrapper(inner)
    return _EpisodeOrderWrapper(inner)
