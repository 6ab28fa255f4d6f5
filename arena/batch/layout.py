"""Where each fact of a table lives in the batched state's arrays (column numbers).

A batch of N tables is four arrays, one row per table, so a table's facts sit together in
memory and every kernel walks the rows once: ``ints`` (small numbers), ``masks`` (card sets as
``uint64`` bitmasks, bit ``c`` for card ``c`` as in ``arena.engine.cards``), ``history`` (the
finished tricks) and ``result`` (the hand's result once it is over).
"""

from __future__ import annotations

from enum import IntEnum

from arena.engine.outcome import HandOutcome


class Phase(IntEnum):
    """The decision a table waits for (``ints[:, DECISION]``)."""

    OVER = 0
    CALL_TRUMP = 1
    PLAY = 2
    HIDE_TRUMP = 3
    BID = 4
    """A call in the auction (the bidding games: ``BiddingBatchTables``)."""


# ints (int16)
DECISION = 0
TO_MOVE = 1
TRUMP = 2
"""The suit in force (public), or -1; a face-down trump's suit is ``HIDDEN // 13`` until turned up."""
LEADER = 3
LED = 4
TRICK_LEN = 5
TRICKS_DONE = 6
PILE_TRICKS = 7
STREAK = 8
"""The winner of the previous trick while the pile waits (sweep capture), else -1."""
LAST_WON_WITH_TRUMPS = 9
SETTING_TRICK = 10
"""The trick whose card set trumps (cut, first discard), 0 before or for other methods."""
DEALER = 11
FIRST = 12
CAUGHT0 = 13
CAUGHT1 = 14
TRICK_CARD0 = 15
"""The trick in progress: four columns from here, in play order."""
CUT_FALLBACK = 19
"""Under cut trump, which of the first tricks' cards sets trumps if nobody cut (drawn at reset
from the hand's chance seed, as the scalar engine draws it)."""
HIDDEN = 20
"""The face-down trump card while it is down (hidden trump), else -1."""
REVEAL_TRICK = 21
"""The trick in which the face-down trump was turned up (0: not yet)."""
REVEAL_POSITION = 22
"""How many cards of that trick were played before it was turned up."""
REVEAL_CARD = 23
"""The face-down trump card once turned up (-1 before)."""
MUST_TRUMP = 24
"""The seat to move asked for the reveal (on_request) and has not played since: a trump if it has one."""
INT_FIELDS = 25

# masks (uint64)
HAND0 = 0
UNDEALT0 = 4
PILE = 8
CAPTURED0 = 9
LEGAL = 11
"""The cards the seat to move may play (0 outside a play decision)."""
FACE_DOWN = 12
"""The cards the trump maker discarded face down so far (Double Sir's ``maker_discard=face_down``)."""
MASK_FIELDS = 13

# history (int8), per trick
H_LEADER = 0
H_CARD0 = 1
H_WINNER = 5
H_TAKEN_BY = 6
"""The team that took the pile with this trick, or -1."""
H_TAKEN = 7
"""How many tricks that pile held (0 when nobody took it)."""
HISTORY_FIELDS = 8
MAX_TRICKS = 13

# result (int16)
RES_WINNER = 0
"""The winning team, or -1 for a draw (or a hand not over)."""
RES_OUTCOME = 1
"""``OUTCOMES[code]``, or -1 while the hand is not over."""
RES_TENS0 = 2
RES_WON0 = 4
RES_CAUGHT0 = 6
RES_PLAYED = 8
RES_KOT = 9
RES_MENDIKOT = 10
RES_ALL_ACES = 11
RES_POINTS = 12
RESULT_FIELDS = 13

OUTCOMES: tuple[HandOutcome, ...] = tuple(HandOutcome)
"""Outcome codes of ``result[:, RES_OUTCOME]``, in ``HandOutcome``'s order."""
OUT_FOUR_TENS = OUTCOMES.index(HandOutcome.FOUR_TENS)
OUT_THREE_TENS = OUTCOMES.index(HandOutcome.THREE_TENS)
OUT_TWO_TWO_NON_DEALER = OUTCOMES.index(HandOutcome.TWO_TWO_NON_DEALER)
OUT_TWO_TWO_AT_TABLE = OUTCOMES.index(HandOutcome.TWO_TWO_TRICKS_AT_TABLE)
OUT_TWO_TWO_CAPTURED = OUTCOMES.index(HandOutcome.TWO_TWO_TRICKS_CAPTURED)
OUT_TWO_TWO_DRAW = OUTCOMES.index(HandOutcome.TWO_TWO_DRAW)
OUT_MAJORITY = OUTCOMES.index(HandOutcome.MAJORITY_OF_TRICKS)
OUT_TIED = OUTCOMES.index(HandOutcome.TRICKS_TIED)
