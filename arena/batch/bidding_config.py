"""The bidding games' rules (Twenty-eight, Twenty-nine) as the integer switches their kernels read.

``BiddingKernelRules.array`` is one small ``int64`` array, as ``config.KernelRules`` is for the
trick-taking games: the options of ``BiddingRules`` plus the rank order's strengths and the card
points by rank, so the compiled code looks them up instead of branching on names. Every option
of ``BiddingRules`` is played; ``target`` is a match's, which the batched engine (one hand per
table) leaves to ``BiddingMatchScore``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from arena.engine.auction import MAX_AMOUNT
from arena.engine.bidding_outcome import game_point_value
from arena.engine.bidding_rules import AuctionKind, BiddingRules, NoExposure
from arena.engine.ranking import CARD_POINTS_28, strength
from arena.engine.rules import Direction

# Slots of the bidding rules array.
B_ANTICLOCKWISE = 0
B_LAST_TRICK_POINTS = 1
B_MIN_BID = 2
B_MAX_BID = 3
B_SINGLE_ROUND = 4
B_OVERBID_PARTNER_MIN = 5
"""0 (off) or the least bid that may overbid a partner after the previous speaker passed."""
B_EXPOSE_LAST = 6
"""``no_exposure=last_trick``: the hand goes on after seven tricks without a call (else void)."""
B_FIRST_PACKET = 7
B_HAND_SIZE = 8
B_STRENGTH = 9
"""13 slots from here: ``ranking.strength`` of each rank under the rules' rank order."""
B_POINTS = B_STRENGTH + 13
"""13 slots from here: Twenty-eight's card points of each rank."""
B_VALUES = B_POINTS + 13
"""``MAX_AMOUNT + 1`` slots from here: what a hand bid at each amount is worth (``game_point_value``)."""
B_SIZE = B_VALUES + MAX_AMOUNT + 1

SUPPORTED_BIDDING_PRESETS: tuple[str, ...] = ("twenty-eight", "twenty-nine")
"""The bidding presets the batched engine plays (``BiddingBatchTables``), every option with them."""


@dataclass(frozen=True)
class BiddingKernelRules:
    """Validated bidding rules plus their kernel array; build it with ``BiddingKernelRules.of``."""

    rules: BiddingRules
    array: npt.NDArray[np.int64]

    def __post_init__(self) -> None:
        # Read-only whoever built it (a test's broken twin too): numba types a writable array
        # apart, and every kernel taking the rules would be compiled a second time for it.
        self.array.setflags(write=False)

    @classmethod
    def of(cls, rules: BiddingRules) -> BiddingKernelRules:
        array = np.zeros(B_SIZE, dtype=np.int64)
        array[B_ANTICLOCKWISE] = rules.direction is Direction.ANTICLOCKWISE
        array[B_LAST_TRICK_POINTS] = rules.last_trick_points
        array[B_MIN_BID] = rules.min_bid
        array[B_MAX_BID] = rules.max_bid
        array[B_SINGLE_ROUND] = rules.auction is AuctionKind.SINGLE_ROUND
        array[B_OVERBID_PARTNER_MIN] = rules.overbid_partner_min
        array[B_EXPOSE_LAST] = rules.no_exposure is NoExposure.LAST_TRICK
        array[B_FIRST_PACKET] = rules.packets[0]
        array[B_HAND_SIZE] = rules.hand_size
        for rank in range(13):
            array[B_STRENGTH + rank] = strength(rules.rank_order, rank)
            array[B_POINTS + rank] = CARD_POINTS_28[rank]
        for bid in range(MAX_AMOUNT + 1):
            array[B_VALUES + bid] = game_point_value(rules, bid)
        return cls(rules, array)
