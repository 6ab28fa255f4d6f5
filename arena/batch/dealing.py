"""Deals for many tables from seeds: the same cards as ``arena.engine.deal.Deal.from_seed``.

Each seed's BLAKE2b digest (the scalar engine's source of randomness, ``chance.random_number``)
comes from a kernel (``blake.seed_digests``, held to ``hashlib`` by the tests), and so does the
shuffle it drives (``kernels.deal_tables``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from arena.batch import kernels
from arena.batch.blake import seed_digests
from arena.engine.cards import cards_of
from arena.engine.rules import Rules

_MAX_TAIL = 128 - 20
"""One BLAKE2b block holds the longest seed (20 characters) and this many bytes of labels."""


def digests(seeds: npt.NDArray[np.int64], *labels: str) -> npt.NDArray[np.uint8]:
    """``chance.random_number(seed, *labels)`` for each seed, as 64 big-endian bytes a row."""
    tail = np.frombuffer("".join(f"/{label}" for label in labels).encode(), dtype=np.uint8)
    if tail.size > _MAX_TAIL:
        raise ValueError(f"labels of {tail.size} bytes: the compiled digest takes at most {_MAX_TAIL}")
    out = np.empty((len(seeds), 64), dtype=np.uint8)
    seed_digests(np.ascontiguousarray(seeds, dtype=np.int64), tail, out)
    return out


def deals_from_seeds(rules: Rules, seeds: npt.NDArray[np.int64]) -> npt.NDArray[np.int8]:
    """``deals[t, seat, i]``: the ``i``-th card dealt to ``seat`` from ``seeds[t]``."""
    deck = np.array(cards_of(rules.deck_mask), dtype=np.int64)
    out = np.empty((len(seeds), 4, rules.hand_size), dtype=np.int8)
    kernels.deal_tables(digests(seeds, "shuffle", "deal"), deck, rules.hand_size, out)
    return out


def cut_fallbacks(rules: Rules, chances: Sequence[int] | npt.NDArray[np.int64]) -> npt.NDArray[np.int16]:
    """Under cut trump: which of the first packet's played cards sets trumps if nobody cuts
    (``HandState._cut_after_trick``'s draw), per table; zeros under the other methods."""
    count = 4 * rules.packets[0]
    if rules.trump.value != "cut":
        return np.zeros(len(chances), dtype=np.int16)
    # ``choose_index(count, chance, "cut-fallback")``: the digest of the chance's "choose" stream
    # modulo ``count``, a byte at a time over every table at once (one hashlib call per table in
    # Python had cost more than the tables' whole random playout).
    number = digests(np.asarray(chances, dtype=np.int64), "choose", "cut-fallback")
    rest = np.zeros(len(chances), dtype=np.int64)
    for k in range(number.shape[1]):
        rest = (rest * 256 + number[:, k]) % count
    return rest.astype(np.int16)
