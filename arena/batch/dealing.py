"""Deals for many tables from seeds: the same cards as ``arena.engine.deal.Deal.from_seed``.

The seed's BLAKE2b digest comes from ``hashlib`` (the scalar engine's own source of
randomness), the shuffle it drives from a kernel (``kernels.deal_tables``).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from hashlib import blake2b

import numpy as np
import numpy.typing as npt

from arena.batch import kernels
from arena.engine.cards import cards_of
from arena.engine.chance import choose_index
from arena.engine.rules import Rules

_LIMIT = 1 << 32


def digests(seeds: Sequence[int] | npt.NDArray[np.int64], *labels: str) -> npt.NDArray[np.uint8]:
    """``chance.random_number(seed, *labels)`` for each seed, as 64 big-endian bytes a row."""
    tail = "".join(f"/{label}" for label in labels).encode()
    values = seeds.tolist() if isinstance(seeds, np.ndarray) else [int(s) for s in seeds]
    joined = b"".join([blake2b(b"%d%s" % (seed, tail), digest_size=64).digest() for seed in values])
    return np.frombuffer(joined, dtype=np.uint8).reshape(-1, 64)


@functools.cache
def _groups(count: int) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """The divisors ``count, count - 1, ..., 2`` of the shuffle in runs whose product is below 2**32."""
    products: list[int] = []
    lengths: list[int] = []
    product, length = 1, 0
    for divisor in range(count, 1, -1):
        if product * divisor >= _LIMIT:
            products.append(product)
            lengths.append(length)
            product, length = 1, 0
        product *= divisor
        length += 1
    products.append(product)
    lengths.append(length)
    return np.array(products, dtype=np.int64), np.array(lengths, dtype=np.int64)


def deals_from_seeds(rules: Rules, seeds: Sequence[int] | npt.NDArray[np.int64]) -> npt.NDArray[np.int8]:
    """``deals[t, seat, i]``: the ``i``-th card dealt to ``seat`` from ``seeds[t]``."""
    deck = np.array(cards_of(rules.deck_mask), dtype=np.int64)
    products, lengths = _groups(len(deck))
    out = np.empty((len(seeds), 4, rules.hand_size), dtype=np.int8)
    kernels.deal_tables(digests(seeds, "shuffle", "deal"), deck, products, lengths, rules.hand_size, out)
    return out


def cut_fallbacks(rules: Rules, chances: Sequence[int] | npt.NDArray[np.int64]) -> npt.NDArray[np.int16]:
    """Under cut trump: which of the first packet's played cards sets trumps if nobody cuts
    (``HandState._cut_after_trick``'s draw), per table; zeros under the other methods."""
    count = 4 * rules.packets[0]
    if rules.trump.value != "cut":
        return np.zeros(len(chances), dtype=np.int16)
    return np.array([choose_index(count, int(c), "cut-fallback") for c in chances], dtype=np.int16)
