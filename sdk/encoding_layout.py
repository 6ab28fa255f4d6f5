"""Named blocks of a flat observation vector: where each one starts, and a view of it in its shape.

Each game's encoding (``encoding`` for the trick-taking games, ``bidding_encoding`` for
Twenty-eight and Twenty-nine) declares its blocks in order; ``docs/learning.md`` prints them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from math import prod

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float32]


@dataclass(frozen=True, slots=True)
class Block:
    """A named part of the observation vector."""

    name: str
    shape: tuple[int, ...]
    meaning: str

    @property
    def size(self) -> int:
        return prod(self.shape)


@dataclass(frozen=True)
class Layout:
    """Blocks in order, each one's values following the previous one's (row-major)."""

    blocks: tuple[Block, ...]
    offsets: dict[str, slice] = field(init=False)
    starts: dict[str, int] = field(init=False)
    size: int = field(init=False)

    def __post_init__(self) -> None:
        offsets, start = {}, 0
        for block in self.blocks:
            offsets[block.name] = slice(start, start + block.size)
            start += block.size
        object.__setattr__(self, "offsets", offsets)
        object.__setattr__(self, "starts", {name: s.start for name, s in offsets.items()})
        object.__setattr__(self, "size", start)

    def view(self, vector: FloatArray, name: str) -> FloatArray:
        """The block ``name`` of ``vector``, in its shape (a view: writes go through)."""
        block = next((b for b in self.blocks if b.name == name), None)
        if block is None:
            raise KeyError(f"no block {name!r} (blocks: {', '.join(b.name for b in self.blocks)})")
        return vector[self.offsets[name]].reshape(block.shape)
