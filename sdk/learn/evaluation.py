"""A policy against random legal play on duplicate deal pairs, in the vector environment.

Each deal is played twice: the policy at team 0's seats, then at team 1's, the other seats
random. A pair's score is the sum of the policy team's two hand values; the pair is won when it
is positive, drawn at zero. The same measure as ``dehla match POLICY random`` (duplicate deal
pairs), without processes: for training runs and tests. The figures to publish come from
``dehla match`` with the exported bot (``docs/learning.md``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from sdk.learn.errors import LearnEnvError
from sdk.learn.vector import DehlaVectorEnv
from sdk.policy_ensemble import Policy

MAX_HAND_STEPS = 40


@dataclass(frozen=True, slots=True)
class PairResults:
    """Deal pairs won, drawn and lost by the policy, and the mean pair score."""

    won: int
    drawn: int
    lost: int
    mean_score: float

    @property
    def pairs(self) -> int:
        return self.won + self.drawn + self.lost

    @property
    def won_share(self) -> float:
        """Pairs won plus half the drawn ones, over all pairs (``dehla match``'s ``won_share``)."""
        return (self.won + self.drawn / 2) / self.pairs


def hand_values(network: Policy | None, team: int, seeds: npt.NDArray[np.int64], preset: str,
                seed: int) -> npt.NDArray[np.float32]:
    """Each seed's hand played once, ``network`` (``None``: random play) at ``team``'s seats: its value
    to that team."""
    env = DehlaVectorEnv(len(seeds), preset, learning_seats=(team, team + 2))
    observations, _ = env.reset(seed=[int(s) for s in seeds])
    playing = np.ones(len(seeds), dtype=bool)
    values = np.zeros(len(seeds), dtype=np.float32)
    draw = np.random.default_rng(seed)
    for _ in range(MAX_HAND_STEPS):
        masks = observations["action_mask"]
        if network is None:
            scores = np.where(masks.astype(bool), draw.random(masks.shape), -1.0)
            actions = np.argmax(scores, axis=1)
        else:
            actions = network.choose(observations["observation"], masks)
        observations, _, over, _, infos = env.step(actions)
        ended = over & playing
        values[ended] = infos["seat_rewards"][ended, team]
        playing &= ~over
        if not playing.any():
            return values
    raise LearnEnvError(f"a hand took more than {MAX_HAND_STEPS} team decisions")


def against_random(network: Policy | None, pairs: int, preset: str = "dehla-pakad",
                   seed: int = 0) -> PairResults:
    """``pairs`` duplicate deal pairs of ``network`` (``None``: random play itself) against random play."""
    seeds = np.random.default_rng(seed).integers(2**62, size=pairs)
    scores = hand_values(network, 0, seeds, preset, seed) + hand_values(network, 1, seeds, preset, seed + 1)
    return PairResults(int((scores > 0).sum()), int((scores == 0).sum()), int((scores < 0).sum()),
                       float(scores.mean()))
