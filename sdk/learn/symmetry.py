"""The four suits are interchangeable in the trick-taking games: a decision with its suits renamed
is as good a lesson as the original. Renaming a labelled decision's suits (observation vector,
mask, action) multiplies a teacher's decisions without asking the teacher again.

A permutation ``perm`` renames suit ``s`` to ``perm[s]``: every 52-card block of the layout
(``sdk.encoding``: cards are ``suit * 13 + rank``) and every per-suit block (``SUIT_BLOCKS``) moves
its entries; the action ids of cards and suit calls (``arena.engine.action_ids``) move alike.
Which suit is trumps is itself in the observation (the ``trump`` blocks), so the renamed decision
is a legal, equivalent one.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import permutations

import numpy as np
import numpy.typing as npt

from arena.engine.action_ids import CALL_BASE, DOWN_BASE, HIDE_BASE, NUM_ACTIONS, PLAY_BASE
from sdk.encoding import BLOCKS, LAYOUT, OBSERVATION_SIZE

IntArray = npt.NDArray[np.int64]
SUIT_BLOCKS = frozenset({"voids", "trump", "trump_in_force", "hidden_suits"})
"""The blocks whose last axis is the suit (S H D C); the other 4-wide blocks are seats."""
CARD_BASES = (PLAY_BASE, HIDE_BASE, DOWN_BASE)


@dataclass(frozen=True, eq=False)
class SuitRenaming:
    """Index arrays: ``vector[observation_source]`` and ``mask[action_source]`` are the renamed
    decision's vector and mask; ``action_target[a]`` is the renamed action of ``a``."""

    observation_source: IntArray
    action_source: IntArray
    action_target: IntArray


def _card(card: int, perm: tuple[int, ...]) -> int:
    return perm[card // 13] * 13 + card % 13


def renaming(perm: tuple[int, ...]) -> SuitRenaming:
    """The index arrays of renaming suit ``s`` to ``perm[s]``."""
    if sorted(perm) != [0, 1, 2, 3]:
        raise ValueError(f"not a permutation of the four suits: {perm}")
    target = np.arange(OBSERVATION_SIZE)
    for block in BLOCKS:
        start, width = LAYOUT.starts[block.name], block.shape[-1]
        rows = block.size // width
        if width == 52:
            moved = [_card(c, perm) for c in range(52)]
        elif block.name in SUIT_BLOCKS:
            moved = list(perm)
        else:
            continue
        for row in range(rows):
            base = start + row * width
            target[base:base + width] = base + np.array(moved)
    actions = np.arange(NUM_ACTIONS)
    for base in CARD_BASES:
        actions[base:base + 52] = [base + _card(c, perm) for c in range(52)]
    actions[CALL_BASE:CALL_BASE + 4] = [CALL_BASE + perm[s] for s in range(4)]
    return SuitRenaming(np.argsort(target), np.argsort(actions), actions)


ALL_RENAMINGS = tuple(renaming(perm) for perm in permutations(range(4)))
"""The 24 renamings, the identity first."""
