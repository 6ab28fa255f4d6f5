"""Seeded randomness that is the same on every machine and Python version.

The standard library only promises a stable ``random()`` stream, not a stable ``shuffle``,
so deals come from BLAKE2b in counter mode: a 512-bit number read as a permutation index
(52! < 2**226, so the bias is below 2**-280).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


def random_number(seed: int, *labels: str | int) -> int:
    """A 512-bit number determined by ``seed`` and the labels (one independent stream each)."""
    text = "/".join([str(seed), *map(str, labels)])
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=64).digest(), "big")


def derive_seed(seed: int, *labels: str | int) -> int:
    """A 63-bit seed for a sub-stream, e.g. deal ``i`` of a match."""
    return random_number(seed, "derive", *labels) >> (512 - 63)


def shuffled(items: Sequence[T], seed: int, *labels: str | int) -> list[T]:
    """Fisher-Yates shuffle driven by ``random_number(seed, *labels)``."""
    out = list(items)
    number = random_number(seed, "shuffle", *labels)
    for i in range(len(out) - 1, 0, -1):
        number, j = divmod(number, i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def choose_index(count: int, seed: int, *labels: str | int) -> int:
    """An index in ``range(count)`` from the seed's stream for ``labels``."""
    if count <= 0:
        raise ValueError("choose_index needs a positive count")
    return random_number(seed, "choose", *labels) % count
