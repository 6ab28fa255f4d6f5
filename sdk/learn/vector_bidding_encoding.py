"""The bidding games' observation (``bidding_encoding``) computed in numba from the batched tables.

``encode_bidding_rows`` fills one row per (table, seat) with the vector ``encode_bidding(
observe_bidding(...))`` gives on the scalar engine, except the ``score`` block, which is the
caller's (the match score: ``DehlaVectorEnv`` writes it). The auction's calls are not in the
tables' arrays, only their sum (the highest bid, its bidder, the count); they are the first
``CALLS`` entries of the hand's action log, which the vector environment keeps, the speakers in
turn from the first player. ``tests/learn/test_vector.py`` holds the vector to the scalar
encoding step by step on Twenty-eight and Twenty-nine.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

from arena.batch.bidding_config import B_ANTICLOCKWISE, B_HAND_SIZE, B_LAST_TRICK_POINTS, B_MAX_BID, B_POINTS
from arena.batch.bidding_layout import (
    CALLS,
    CAPTURED0,
    DEALER,
    DECISION,
    FIRST,
    H_CARD0,
    H_LEADER,
    H_WINNER,
    HAND0,
    HIDDEN,
    HIGH_BID,
    HIGH_BIDDER,
    LEADER,
    MUST_TRUMP,
    REVEAL_TRICK,
    TO_MOVE,
    TRICK_CARD0,
    TRICK_LEN,
    TRICKS_DONE,
    TRUMP,
    TRUMP_LED,
    UNDEALT0,
)
from arena.batch.kernels import lowest, popcount
from arena.batch.layout import Phase
from arena.engine.action_ids import BID_BASE
from sdk.encoding import MAX_TRICKS
from sdk.learn.bidding_encoding import BIDDING_LAYOUT

BLOCK_NAMES: tuple[str, ...] = (
    "hand", "played", "trick", "trick_leader", "bids", "passed", "high_bidder", "contract", "voids", "trump",
    "hidden_holder", "own_hidden_card", "trump_flags", "decision", "to_move", "dealer", "first_player",
    "hand_sizes", "cards_to_come", "trick_number", "points",
)
"""The blocks the kernel writes, in the order of ``BIDDING_OFFSETS`` (``score`` is the caller's)."""
BIDDING_OFFSETS: npt.NDArray[np.int64] = np.array([BIDDING_LAYOUT.starts[n] for n in BLOCK_NAMES], dtype=np.int64)
BIDDING_OFFSETS.setflags(write=False)

(O_HAND, O_PLAYED, O_TRICK, O_LEADER, O_BIDS, O_PASSED, O_HIGH, O_CONTRACT, O_VOIDS, O_TRUMP, O_HOLDER,
 O_OWN_HIDDEN, O_FLAGS, O_DECISION, O_TO_MOVE, O_DEALER, O_FIRST, O_HAND_SIZES, O_TO_COME, O_TRICK_NUMBER,
 O_POINTS) = range(len(BLOCK_NAMES))

OVER = int(Phase.OVER)
BID = int(Phase.BID)
HIDE_TRUMP = int(Phase.HIDE_TRUMP)
ONE = np.uint64(1)
RANK_MASK = np.uint64(1 | 1 << 13 | 1 << 26 | 1 << 39)


@njit(cache=True, inline="always")
def _seat_at(leader: int, position: int, anticlockwise: int) -> int:
    return (leader - position) & 3 if anticlockwise else (leader + position) & 3


@njit(cache=True, inline="always")
def _points(cards, rules):
    total = 0
    for rank in range(13):
        total += rules[B_POINTS + rank] * popcount(cards & (RANK_MASK << np.uint64(rank)))
    return total


@njit(cache=True)
def encode_bidding_rows(ints, masks, history, rules, at, log, rows, seats, out):
    """``out[i]``: the observation of seat ``seats[i]`` at table ``rows[i]`` (all but ``score``)."""
    anticlockwise = rules[B_ANTICLOCKWISE]
    size = rules[B_HAND_SIZE]
    max_bid = rules[B_MAX_BID]
    bonus = rules[B_LAST_TRICK_POINTS]
    total = bonus  # the hand's points (``BiddingRules.total_points``): the pack's card points and the last trick's
    for rank in range(13):
        total += 4 * rules[B_POINTS + rank]
    voids = np.zeros(4, dtype=np.int64)
    for i in range(rows.shape[0]):
        t = rows[i]
        me = seats[i]
        mine = me & 1
        o = out[i]
        o[:] = 0.0
        cards = masks[t, HAND0 + me]
        while cards:
            o[at[O_HAND] + lowest(cards)] = 1.0
            cards &= cards - ONE
        voids[:] = 0
        done = ints[t, TRICKS_DONE]
        for k in range(done):
            leader = history[t, k, H_LEADER]
            led = history[t, k, H_CARD0] // 13
            for p in range(4):
                seat = _seat_at(leader, p, anticlockwise)
                card = history[t, k, H_CARD0 + p]
                o[at[O_PLAYED] + ((seat - me) & 3) * 52 + card] = 1.0
                if card // 13 != led:
                    voids[seat] |= 1 << led
        length = ints[t, TRICK_LEN]
        if length:
            leader = ints[t, LEADER]
            led = ints[t, TRICK_CARD0] // 13
            o[at[O_LEADER] + ((leader - me) & 3)] = 1.0
            for p in range(length):
                seat = _seat_at(leader, p, anticlockwise)
                card = ints[t, TRICK_CARD0 + p]
                r = (seat - me) & 3
                o[at[O_PLAYED] + r * 52 + card] = 1.0
                o[at[O_TRICK] + r * 52 + card] = 1.0
                if card // 13 != led:
                    voids[seat] |= 1 << led
        for seat in range(4):
            r = (seat - me) & 3
            for suit in range(4):
                if voids[seat] >> suit & 1:
                    o[at[O_VOIDS] + r * 4 + suit] = 1.0
            o[at[O_HAND_SIZES] + r] = np.float32(popcount(masks[t, HAND0 + seat]) / MAX_TRICKS)
            o[at[O_TO_COME] + r] = np.float32(popcount(masks[t, UNDEALT0 + seat]) / MAX_TRICKS)
        # The auction: the first CALLS actions of the hand, the speakers in turn from the first player.
        speaker = ints[t, FIRST]
        best_amount = 0
        best_seat = -1
        for c in range(ints[t, CALLS]):
            action = log[t, c]
            r = (speaker - me) & 3
            if action >= BID_BASE:
                amount = action - BID_BASE
                o[at[O_BIDS] + r] = max(o[at[O_BIDS] + r], np.float32(amount / max_bid))
                o[at[O_PASSED] + r] = 0.0
                if amount > best_amount:
                    best_amount = amount
                    best_seat = r
            else:
                o[at[O_PASSED] + r] = 1.0
            speaker = (speaker - 1) & 3 if anticlockwise else (speaker + 1) & 3
        if best_seat >= 0:
            o[at[O_HIGH] + best_seat] = 1.0
        decision = ints[t, DECISION]
        over = decision == OVER
        bidder = ints[t, HIGH_BIDDER]
        if decision != BID and bidder >= 0:
            o[at[O_CONTRACT] + ((bidder - me) & 3)] = 1.0
            o[at[O_CONTRACT] + 4] = np.float32(ints[t, HIGH_BID] / max_bid)
        # The trump as this seat may know it: the bidder's own while face down, everybody's once exposed.
        hidden = ints[t, HIDDEN]
        revealed = ints[t, REVEAL_TRICK] > 0
        knows = revealed or (hidden >= 0 and me == bidder)
        if knows and ints[t, TRUMP] >= 0:
            o[at[O_TRUMP] + ints[t, TRUMP]] = 1.0
        if hidden >= 0:
            o[at[O_HOLDER] + ((bidder - me) & 3)] = 1.0
            if me == bidder:
                o[at[O_OWN_HIDDEN] + hidden] = 1.0
        if revealed:
            o[at[O_FLAGS]] = 1.0
        if ints[t, TRUMP_LED] and knows:
            o[at[O_FLAGS] + 1] = 1.0
        if ints[t, MUST_TRUMP] and not over and ints[t, TO_MOVE] == me:
            o[at[O_FLAGS] + 2] = 1.0
        if not over:
            o[at[O_DECISION] + (0 if decision == BID else 1 if decision == HIDE_TRUMP else 2)] = 1.0
            o[at[O_TO_MOVE] + ((ints[t, TO_MOVE] - me) & 3)] = 1.0
        o[at[O_DEALER] + ((ints[t, DEALER] - me) & 3)] = 1.0
        o[at[O_FIRST] + ((ints[t, FIRST] - me) & 3)] = 1.0
        o[at[O_TRICK_NUMBER]] = np.float32(min(done + 1, size) / MAX_TRICKS)
        last_team = history[t, done - 1, H_WINNER] & 1 if done == size else -1
        for team in range(2):
            row = 0 if team == mine else 1
            points = _points(masks[t, CAPTURED0 + team], rules) + (bonus if team == last_team else 0)
            o[at[O_POINTS] + row] = np.float32(min(points, total) / total)
