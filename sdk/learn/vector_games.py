"""The two kinds of game the vector environment plays on batched tables, behind one interface.

As ``games`` is for the AEC environment: the trick-taking games (``BatchTables``, the 767-value
observation, ``vector_encoding``) and the bidding games (``BiddingBatchTables``, the 596-value
layout, ``vector_bidding_encoding``) differ in tables, action space, encoding, hand values and the
``score`` block; ``DehlaVectorEnv`` is the same for both. Between the hands of a match the score is
the engine's own (``games.Game.scored``, ``MatchScore`` / ``BiddingMatchScore``) so a match ends,
deals and pays exactly as in ``dehla_v0``; a one-hand episode's score needs none of it and is
computed over all tables at once.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any

import numpy as np
import numpy.typing as npt

from arena.batch import BatchTables, BiddingBatchTables
from arena.batch.bidding_layout import BR_BID, BR_BIDDER, BR_GAME_POINTS, BR_MADE, BR_PLAYED, BR_POINTS0, BR_VOID
from arena.batch.bidding_layout import BR_WINNER as BR_HAND_WINNER
from arena.batch.layout import (
    OUTCOMES,
    RES_ALL_ACES,
    RES_CAUGHT0,
    RES_KOT,
    RES_MENDIKOT,
    RES_OUTCOME,
    RES_PLAYED,
    RES_POINTS,
    RES_TENS0,
    RES_WINNER,
    RES_WON0,
)
from arena.batch.opponents import play_random_until, play_random_until_bidding
from arena.engine.action_ids import NUM_ACTIONS, NUM_BIDDING_ACTIONS
from arena.engine.bidding_outcome import BiddingMatchScore, BiddingResult
from arena.engine.bidding_rules import BiddingRules
from arena.engine.match import KOT_RUN, MatchScore
from arena.engine.outcome import HandResult
from arena.engine.rules import Rules
from sdk.encoding import LAYOUT, OBSERVATION_SIZE, SCORE_SCALE
from sdk.encoding_layout import FloatArray
from sdk.learn.bidding_encoding import BIDDING_LAYOUT, BIDDING_OBSERVATION_SIZE
from sdk.learn.vector_bidding_encoding import BIDDING_OFFSETS, encode_bidding_rows
from sdk.learn.vector_encoding import OFFSETS, encode_rows

IntArray = npt.NDArray[np.int64]
ScoreBlocks = npt.NDArray[np.float32]
"""``(N, 2, width)``: per table, the ``score`` block as a seat of team 0 (``[:, 0]``) and of team 1 sees it."""


class VectorGame(ABC):
    """One kind of game on batched tables: its tables, encoding, hand values and score block."""

    num_actions: int
    observation_size: int
    score_at: int
    score_width: int
    max_actions: int
    """Room in a hand's action log."""
    tables: BatchTables | BiddingBatchTables

    @abstractmethod
    def new_tables(self, size: int) -> BatchTables | BiddingBatchTables:
        """Fresh tables of these rules."""

    @abstractmethod
    def encode(self, rows: IntArray, seats: IntArray, log: npt.NDArray[np.int16]) -> FloatArray:
        """The observations of ``seats`` at ``rows``, the ``score`` block left at zero."""

    @abstractmethod
    def play_random_until(self, learner: npt.NDArray[np.bool_], key: np.uint64, log: npt.NDArray[np.int16],
                          log_len: IntArray) -> None:
        """Random legal play until a learner's seat is to move or the hand is over, logged."""

    @abstractmethod
    def hand_values(self) -> npt.NDArray[np.float32]:
        """Each finished hand's value to team 0 (``dehla_v0``'s ``reward="hand"``)."""

    @abstractmethod
    def winners(self) -> IntArray:
        """Each finished hand's winning team, -1 for none (a draw, a void hand)."""

    @abstractmethod
    def one_hand_blocks(self, rows: IntArray) -> ScoreBlocks:
        """The score blocks after the finished hands at ``rows``, counted from the zero score."""

    @abstractmethod
    def result(self, table: int) -> HandResult | BiddingResult:
        """Table ``table``'s finished hand as the engine's result."""

    @abstractmethod
    def score_blocks(self, score: Any) -> npt.NDArray[np.float32]:
        """A match score's block, ``(2, width)``: as team 0 and as team 1 see it."""


class TrickVectorGame(VectorGame):
    """Dehla Pakad, Mendikot and Court Piece on ``BatchTables``."""

    num_actions = NUM_ACTIONS
    observation_size = OBSERVATION_SIZE
    score_at = LAYOUT.starts["score"]
    score_width = 10
    max_actions = 64  # 13 * 4 plays, a call or a hide, a reveal

    def __init__(self, rules: Rules, size: int) -> None:
        self.rules = rules
        self.tables: BatchTables = BatchTables(rules, size)

    def new_tables(self, size: int) -> BatchTables:
        return BatchTables(self.rules, size)

    def encode(self, rows: IntArray, seats: IntArray, log: npt.NDArray[np.int16]) -> FloatArray:
        out = np.empty((rows.size, OBSERVATION_SIZE), dtype=np.float32)
        t = self.tables
        encode_rows(t.ints, t.masks, t.history, t.kernel_rules.array, OFFSETS, rows, seats, out)
        return out

    def play_random_until(self, learner: npt.NDArray[np.bool_], key: np.uint64, log: npt.NDArray[np.int16],
                          log_len: IntArray) -> None:
        t = self.tables
        play_random_until(t.ints, t.masks, t.history, t.result, t.kernel_rules.array, learner, key, log, log_len)

    def hand_values(self) -> npt.NDArray[np.float32]:
        result = self.tables.result
        if self.rules.scores_kots:
            value = (1 + result[:, RES_KOT]).astype(np.float32)
        else:
            value = result[:, RES_POINTS].astype(np.float32)
        return _signed(value, self.winners())

    def winners(self) -> IntArray:
        return self.tables.result[:, RES_WINNER].astype(np.int64)

    def one_hand_blocks(self, rows: IntArray) -> ScoreBlocks:
        """``MatchScore.after`` from zero, a table at a time would cost more than the step."""
        result = self.tables.result[rows]
        winner = result[:, RES_WINNER].astype(np.int64)
        blocks = np.zeros((rows.size, 2, 2, 5), dtype=np.float32)  # [row, as team, team's row, column]
        won = np.flatnonzero(winner >= 0)
        for mine in (0, 1):
            row = np.where(winner[won] == mine, 0, 1)
            blocks[won, mine, row, 2] = 1 / SCORE_SCALE  # hands won
            if not self.rules.scores_kots:
                blocks[won, mine, row, 1] = np.minimum(result[won, RES_POINTS], SCORE_SCALE) / SCORE_SCALE
                continue
            kot = result[won, RES_KOT] != 0
            blocks[won[kot], mine, row[kot], 0] = 1 / SCORE_SCALE  # a kot ends the run
            blocks[won[~kot], mine, row[~kot], 4] = 1 / KOT_RUN  # a run of one hand won
        return blocks.reshape(rows.size, 2, 10)

    def result(self, table: int) -> HandResult:
        r = [int(v) for v in self.tables.result[table]]
        return HandResult(
            winner=None if r[RES_WINNER] < 0 else r[RES_WINNER],
            outcome=OUTCOMES[r[RES_OUTCOME]],
            tens=(r[RES_TENS0], r[RES_TENS0 + 1]),
            tricks_won=(r[RES_WON0], r[RES_WON0 + 1]),
            tricks_captured=(r[RES_CAUGHT0], r[RES_CAUGHT0 + 1]),
            tricks_played=r[RES_PLAYED],
            kot=bool(r[RES_KOT]),
            mendikot=bool(r[RES_MENDIKOT]),
            all_aces=bool(r[RES_ALL_ACES]),
            points=r[RES_POINTS],
        )

    def score_blocks(self, score: MatchScore) -> npt.NDArray[np.float32]:
        teams = [[*(min(value, SCORE_SCALE) / SCORE_SCALE for value in (score.kots[team], score.points[team],
                                                                        score.hands_won[team], score.tens[team])),
                  min(score.runs[team], KOT_RUN) / KOT_RUN] for team in (0, 1)]
        return np.array([teams[0] + teams[1], teams[1] + teams[0]], dtype=np.float32)


class BiddingVectorGame(VectorGame):
    """Twenty-eight and Twenty-nine on ``BiddingBatchTables``."""

    num_actions = NUM_BIDDING_ACTIONS
    observation_size = BIDDING_OBSERVATION_SIZE
    score_at = BIDDING_LAYOUT.starts["score"]
    score_width = 2

    def __init__(self, rules: BiddingRules, size: int) -> None:
        self.rules = rules
        bids = rules.max_bid - rules.min_bid + 1
        # Every bid at most two passes after the one before, three passes after the last; the hide,
        # the call for the trump and the cards.
        self.max_actions = 3 * bids + 3 + 2 + 4 * rules.hand_size
        self.tables: BiddingBatchTables = BiddingBatchTables(rules, size)

    def new_tables(self, size: int) -> BiddingBatchTables:
        return BiddingBatchTables(self.rules, size)

    def encode(self, rows: IntArray, seats: IntArray, log: npt.NDArray[np.int16]) -> FloatArray:
        out = np.empty((rows.size, BIDDING_OBSERVATION_SIZE), dtype=np.float32)
        t = self.tables
        encode_bidding_rows(t.ints, t.masks, t.history, t.kernel_rules.array, BIDDING_OFFSETS, log, rows, seats, out)
        return out

    def play_random_until(self, learner: npt.NDArray[np.bool_], key: np.uint64, log: npt.NDArray[np.int16],
                          log_len: IntArray) -> None:
        t = self.tables
        play_random_until_bidding(t.ints, t.masks, t.history, t.result, t.kernel_rules.array, learner, key, log,
                                  log_len)

    def hand_values(self) -> npt.NDArray[np.float32]:
        result = self.tables.result
        points = result[:, BR_GAME_POINTS].astype(np.float32)
        value: npt.NDArray[np.float32] = np.where(result[:, BR_BIDDER] & 1 == 0, points, -points).astype(np.float32)
        return value

    def winners(self) -> IntArray:
        return self.tables.result[:, BR_HAND_WINNER].astype(np.int64)

    def one_hand_blocks(self, rows: IntArray) -> ScoreBlocks:
        result = self.tables.result[rows]
        points = np.zeros((rows.size, 2), dtype=np.int64)
        points[np.arange(rows.size), result[:, BR_BIDDER] & 1] = result[:, BR_GAME_POINTS]
        return np.stack([self._block(points), self._block(points[:, ::-1])], axis=1)

    def _block(self, points: IntArray) -> npt.NDArray[np.float32]:
        target = self.rules.target
        return ((np.clip(points, -target, target) + target) / (2 * target)).astype(np.float32)

    def result(self, table: int) -> BiddingResult:
        r = [int(v) for v in self.tables.result[table]]
        return BiddingResult(bidder=r[BR_BIDDER], bid=r[BR_BID], points=(r[BR_POINTS0], r[BR_POINTS0 + 1]),
                             void=bool(r[BR_VOID]), made=bool(r[BR_MADE]), game_points=r[BR_GAME_POINTS],
                             tricks_played=r[BR_PLAYED])

    def score_blocks(self, score: BiddingMatchScore) -> npt.NDArray[np.float32]:
        target = self.rules.target
        ours, theirs = ((max(-target, min(p, target)) + target) / (2 * target) for p in score.points)
        return np.array([[ours, theirs], [theirs, ours]], dtype=np.float32)


def _signed(value: npt.NDArray[np.float32], winner: IntArray) -> npt.NDArray[np.float32]:
    out: npt.NDArray[np.float32] = np.where(winner == 0, value, np.where(winner == 1, -value, 0.0)).astype(np.float32)
    return out


def vector_game(rules: Rules | BiddingRules, size: int) -> VectorGame:
    """The game that plays ``rules`` on ``size`` tables."""
    if isinstance(rules, BiddingRules):
        return BiddingVectorGame(rules, size)
    return TrickVectorGame(rules, size)
