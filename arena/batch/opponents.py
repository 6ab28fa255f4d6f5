"""Random legal play at some seats until others are to move: the opponents of a learning seat.

``play_random_until`` is one pass over the tables: at each, while the hand is not over and the
seat to move is not one of ``stop``, it takes a uniformly random legal action (the choice of
``kernels.random_actions``, its uniform ``keyed_uniform(key + move * STRIDE, table)``) and logs
it. One compiled loop instead of a round of calls per opponent move: the vector environment's
hot path (``sdk.learn.vector``). A new module beside ``kernels`` rather than a change to it.
``play_random_until_bidding`` is the same for the bidding games (``bidding_kernels``).
"""

from __future__ import annotations

import numpy as np

from arena.batch.bidding_kernels import _apply as _apply_bidding
from arena.batch.bidding_kernels import _random_action as _random_bidding_action
from arena.batch.kernels import (
    CALL_BASE,
    HIDE_BASE,
    _apply_play,
    _call,
    _hide,
    _kth,
    _random_play,
    kernel,
    keyed_uniform,
)
from arena.batch.layout import DECISION, LEGAL, TO_MOVE, Phase

OVER = int(Phase.OVER)
PLAY = int(Phase.PLAY)
CALL_TRUMP = int(Phase.CALL_TRUMP)
STRIDE = np.uint64(0xD1B54A32D192ED03)
"""Added to the key for each further move at a table in one call (an odd constant: distinct keys)."""


@kernel
def play_random_until(ints, masks, history, result, rules, stop, key, log, log_len):
    """Random legal play at every table until a seat with ``stop[seat]`` is to move or the hand
    is over; each action is appended to ``log[t]`` (``log_len[t]`` its length)."""
    for t in range(ints.shape[0]):
        move = 0
        while ints[t, DECISION] != OVER and not stop[ints[t, TO_MOVE]]:
            uniform = keyed_uniform(key + np.uint64(move) * STRIDE, t)
            decision = ints[t, DECISION]
            if decision == PLAY:
                action = _random_play(ints, masks, t, uniform, rules)
                _apply_play(ints, masks, history, result, t, action, rules)  # a card, face down, or the reveal
            elif decision == CALL_TRUMP:
                suit = int(uniform * 4)
                action = CALL_BASE + suit
                _call(ints, masks, t, suit)
            else:
                card = _kth(masks[t, LEGAL], uniform)
                action = HIDE_BASE + card
                _hide(ints, masks, t, card, rules)
            log[t, log_len[t]] = action
            log_len[t] += 1
            move += 1


@kernel
def play_random_until_bidding(ints, masks, history, result, rules, stop, key, log, log_len):
    """``play_random_until`` for ``BiddingBatchTables`` (calls, the hide, the call for the trump, cards)."""
    for t in range(ints.shape[0]):
        move = 0
        while ints[t, DECISION] != OVER and not stop[ints[t, TO_MOVE]]:
            action = _random_bidding_action(ints, masks, t, keyed_uniform(key + np.uint64(move) * STRIDE, t), rules)
            _apply_bidding(ints, masks, history, result, t, action, rules)
            log[t, log_len[t]] = action
            log_len[t] += 1
            move += 1
