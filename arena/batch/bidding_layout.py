"""Where each fact of a Twenty-eight table lives in ``BiddingBatchTables``' arrays (columns).

The same four arrays as ``layout`` (``ints``, ``masks``, ``history``, ``result``), with the
columns of the bidding game: the auction so far, the face-down trump and its exposure, card
points. The first seven ``ints`` columns and the history's columns are ``layout``'s.
"""

from __future__ import annotations

from arena.batch.layout import (
    DECISION,
    H_CARD0,
    H_LEADER,
    H_TAKEN,
    H_TAKEN_BY,
    H_WINNER,
    HISTORY_FIELDS,
    LEADER,
    LED,
    TO_MOVE,
    TRICK_LEN,
    TRICKS_DONE,
    TRUMP,
)

__all__ = [
    "DECISION", "HISTORY_FIELDS", "H_CARD0", "H_LEADER", "H_TAKEN", "H_TAKEN_BY", "H_WINNER", "LEADER", "LED",
    "TO_MOVE", "TRICKS_DONE", "TRICK_LEN", "TRUMP",
]

# ints (int16); DECISION .. TRICKS_DONE as in ``layout`` (TRUMP: the suit set, even while face down)
DEALER = 7
FIRST = 8
"""The player after the dealer: opens the auction, leads the first trick."""
HIDDEN = 9
"""The face-down trump card while it is down, else -1."""
REVEAL_TRICK = 10
"""The trick in which the trump was exposed (0: not yet)."""
REVEAL_POSITION = 11
"""How many cards of that trick were played before the call."""
REVEAL_SEAT = 12
"""The seat that called for the exposure (-1: not yet)."""
MUST_TRUMP = 13
"""The seat to move called for the exposure and has not played since: a trump if it has one."""
TRUMP_LED = 14
"""A trick has been led with a trump (the bidder may then lead trumps while they are down)."""
HIGH_BID = 15
"""The highest bid so far (0: none yet)."""
HIGH_BIDDER = 16
CALLS = 17
"""Calls made in the auction so far."""
PASSES = 18
"""Passes in a row at the end of the auction so far."""
TRICK_CARD0 = 19
"""The trick in progress: four columns from here, in play order."""
BID_INT_FIELDS = 23

# masks (uint64)
HAND0 = 0
UNDEALT0 = 4
CAPTURED0 = 8
LEGAL = 10
"""The cards the seat to move may play, or the bidder may put face down (0 otherwise)."""
BID_MASK_FIELDS = 11

# result (int16)
BR_BIDDER = 0
BR_BID = 1
BR_POINTS0 = 2
"""Card points per team (two columns), the last trick's point included."""
BR_VOID = 4
BR_MADE = 5
BR_GAME_POINTS = 6
"""Signed, for the bidding team."""
BR_PLAYED = 7
BR_WINNER = 8
"""The team that won the hand, -1 for a void hand (or a hand not over)."""
BID_RESULT_FIELDS = 9
MAX_BID_TRICKS = 8
