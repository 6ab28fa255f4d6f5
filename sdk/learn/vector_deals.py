"""An episode seed's first hand, for many seeds at once: what ``dehla_v0``'s ``reset(seed=S)`` deals.

The AEC environment deals hand 0 of an episode with seed ``S`` from
``derive_seed(S, "deal", 0)`` and makes ``choose_index(4, S, "first-dealer")`` the dealer
(``sdk.learn.aec``). Both are BLAKE2b numbers of ``S`` (``arena.engine.chance``), computed here
by the batched engine's compiled digest, so a vector environment's table and an AEC environment
reset with the same seed play the same hand.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from arena.batch.dealing import digests

IntArray = npt.NDArray[np.int64]
MAX_SEED = 2**63 - 1
"""Episode seeds are in ``0 .. MAX_SEED - 1`` (what ``Generator.integers(MAX_SEED)`` draws)."""


def first_hands(episode_seeds: IntArray) -> tuple[IntArray, IntArray]:
    """Per episode seed, the first hand's deal seed (``Deal.from_seed``'s) and its dealer."""
    derived = digests(episode_seeds, "derive", "deal", "0")
    # derive_seed: the 512-bit number's top 63 bits, i.e. its first eight bytes shifted right by one.
    top = derived[:, :8].copy().view(">u8").reshape(-1)
    deal_seeds = (top >> np.uint64(1)).astype(np.int64)
    # choose_index(4, ...): the number modulo 4, i.e. the low two bits of its last byte.
    dealers = (digests(episode_seeds, "choose", "first-dealer")[:, 63] & 3).astype(np.int64)
    return deal_seeds, dealers
