"""Random legal play at some seats until others are to move: the opponents of a learning seat.

``play_random_until`` is one pass over the tables: at each, while the hand is not over and the
seat to move is not one of ``stop``, it takes a uniformly random legal action (the choice of
``kernels.random_actions``, its uniform ``keyed_uniform(key + move * STRIDE, table)``) and logs
it. One compiled loop instead of a round of calls per opponent move: the vector environment's
hot path (``sdk.learn.vector``). ``play_random_until_bidding`` is the same for the bidding games.
Both are the ``UNTIL`` source of the engines' one step kernel (``kernels.advance``,
``bidding_kernels.advance``), which a fresh clone compiles once rather than once per use.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from arena.batch import bidding_kernels, kernels
from arena.batch.kernels import STRIDE, UNTIL

__all__ = ["STRIDE", "play_random_until", "play_random_until_bidding"]

_NO_ACTIONS = np.empty(0, dtype=np.int64)
_NO_UNIFORMS = np.empty(0, dtype=np.float64)


def play_random_until(ints: npt.NDArray[np.int16], masks: npt.NDArray[np.uint64], history: npt.NDArray[np.int8],
                      result: npt.NDArray[np.int16], rules: npt.NDArray[np.int64], stop: npt.NDArray[np.bool_],
                      key: np.uint64, log: npt.NDArray[np.int16], log_len: npt.NDArray[np.int64]) -> None:
    """Random legal play at every table until a seat with ``stop[seat]`` is to move or the hand
    is over; each action is appended to ``log[t]`` (``log_len[t]`` its length)."""
    kernels.advance(ints, masks, history, result, UNTIL, _NO_ACTIONS, _NO_UNIFORMS, key, rules, _NO_ACTIONS,
                    stop, log, log_len)


def play_random_until_bidding(ints: npt.NDArray[np.int16], masks: npt.NDArray[np.uint64],
                              history: npt.NDArray[np.int8], result: npt.NDArray[np.int16],
                              rules: npt.NDArray[np.int64], stop: npt.NDArray[np.bool_], key: np.uint64,
                              log: npt.NDArray[np.int16], log_len: npt.NDArray[np.int64]) -> None:
    """``play_random_until`` for ``BiddingBatchTables`` (calls, the hide, the call for the trump, cards)."""
    bidding_kernels.advance(ints, masks, history, result, UNTIL, _NO_ACTIONS, _NO_UNIFORMS, key, rules,
                            _NO_ACTIONS, stop, log, log_len)
