"""The twin held to the reference: the same deals and choices through ``BatchTables`` and
``arena.engine.HandState``, compared at every step and at the end of every hand.

At every step: the decision, the seat to move and the legal actions (cards, cards face down,
calls, hides, the reveal). At the end: each trick (leader, cards, winner, who took the pile and
how many tricks it held), the captured cards and trick counts, the pile, the cards played face
down, and every field of the hand's result. The tests and the bench both
call ``compare``; a mismatch is reported with its table, seed and step, never raised.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from arena.batch.layout import (
    CAPTURED0,
    FACE_DOWN,
    H_CARD0,
    H_LEADER,
    H_TAKEN,
    H_TAKEN_BY,
    H_WINNER,
    OUTCOMES,
    PILE,
    Phase,
)
from arena.batch.tables import BatchTables
from arena.engine.action_ids import CALL_BASE, DOWN_BASE, HIDE_BASE, REVEAL_ID, action_id, action_of
from arena.engine.deal import Deal
from arena.engine.hand import Decision, HandState
from arena.engine.outcome import HandResult
from arena.engine.rules import Rules, TrumpMethod

MAX_STEPS = 2 + 4 * 13
"""Decisions of the longest hand the batched engine plays: a call (or a hide), 52 cards and a
reveal asked for."""


@dataclass(frozen=True)
class Mismatch:
    table: int
    seed: int
    step: int | None
    """The decision's number in the hand (``None``: at the end of the hand)."""
    what: str

    def __str__(self) -> str:
        where = "at the end" if self.step is None else f"at step {self.step}"
        return f"table {self.table} (seed {self.seed}) {where}: {self.what}"


@dataclass(frozen=True)
class Recording:
    """What the batched engine did, step by step: ``decision[s, t]``, ``to_move``, the legal
    cards, whether a reveal could be asked, whether the legal cards could be played face down,
    and the action taken (-1 once the hand is over)."""

    decision: npt.NDArray[np.int16]
    to_move: npt.NDArray[np.int16]
    legal: npt.NDArray[np.uint64]
    reveal: npt.NDArray[np.bool_]
    down: npt.NDArray[np.bool_]
    actions: npt.NDArray[np.int64]


@dataclass(frozen=True)
class DifferentialReport:
    hands: int
    steps: int
    mismatched_hands: int
    first: tuple[Mismatch, ...] = field(default=())
    """The first few mismatches (one per hand at most)."""

    @classmethod
    def of(cls, problems: Iterable[Mismatch | None], steps: int, keep: int) -> DifferentialReport:
        """The report of each hand's first problem (``None``: the hand matched), keeping ``keep``."""
        hands = bad = 0
        first: list[Mismatch] = []
        for problem in problems:
            hands += 1
            if problem is not None:
                bad += 1
                if len(first) < keep:
                    first.append(problem)
        return cls(hands, steps, bad, tuple(first))

    @property
    def ok(self) -> bool:
        return self.mismatched_hands == 0

    def summary(self) -> str:
        head = f"{self.hands} hands, {self.steps} steps, {self.mismatched_hands} mismatched"
        return "\n".join([head, *map(str, self.first)])


def play_recorded(tables: BatchTables, uniforms: npt.NDArray[np.float64]) -> Recording:
    """Play every table to the end with ``uniforms[s, t]`` choosing step ``s`` at table ``t``
    (``BatchTables.random_actions``), recording each step."""
    decisions, movers, legals, reveals, downs, actions = [], [], [], [], [], []
    for s in range(uniforms.shape[0]):
        if tables.over.all():
            break
        decisions.append(tables.decision.copy())
        movers.append(tables.to_move.copy())
        legals.append(tables.legal_cards.copy())
        reveals.append(tables.reveal_allowed())
        downs.append(tables.down_allowed())
        chosen = tables.random_actions(uniforms[s])
        actions.append(chosen)
        tables.step(chosen)
    if not tables.over.all():
        raise ValueError(f"{uniforms.shape[0]} steps of uniforms did not finish every hand")
    return Recording(np.array(decisions), np.array(movers), np.array(legals), np.array(reveals), np.array(downs),
                     np.array(actions))


def compare(
    rules: Rules,
    seeds: Sequence[int],
    dealers: Sequence[int],
    uniforms: npt.NDArray[np.float64],
    make_tables: Callable[[Rules, int], BatchTables] = BatchTables,
    keep: int = 5,
) -> DifferentialReport:
    """Play ``seeds`` (dealt by ``dealers``) through both engines with the batched engine's
    random choices from ``uniforms[s, t]``; ``make_tables`` builds the twin (a test passes a
    deliberately broken one)."""
    tables = make_tables(rules, len(seeds))
    tables.reset(np.asarray(seeds, dtype=np.int64), np.asarray(dealers, dtype=np.int64))
    rec = play_recorded(tables, uniforms)
    columns = zip(rec.decision.T.tolist(), rec.to_move.T.tolist(), rec.legal.T.tolist(), rec.reveal.T.tolist(),
                  rec.down.T.tolist(), rec.actions.T.tolist(), strict=True)
    problems = (_replay(rules, tables, steps, t, int(seed), int(dealer))
                for t, (seed, dealer, steps) in enumerate(zip(seeds, dealers, columns, strict=True)))
    return DifferentialReport.of(problems, int((rec.actions >= 0).sum()), keep)


_OVER, _CALL, _PLAY, _HIDE = int(Phase.OVER), int(Phase.CALL_TRUMP), int(Phase.PLAY), int(Phase.HIDE_TRUMP)
_PHASE_OF = {None: _OVER, Decision.CALL_TRUMP: _CALL, Decision.PLAY: _PLAY, Decision.HIDE_TRUMP: _HIDE}
_CALLS = 0xF << CALL_BASE


def _scalar_ids(state: HandState, plays_only: bool) -> int:
    """The scalar engine's legal actions as a bitmask of action ids. Where no face-down trump
    exists (``plays_only``) a play decision's actions are exactly its legal cards."""
    if plays_only and state.decision is Decision.PLAY:
        return state.legal_mask()
    out = 0
    for action in state.legal_actions():
        out |= 1 << action_id(action)
    return out


def _replay(
    rules: Rules, tables: BatchTables,
    steps: tuple[list[int], list[int], list[int], list[bool], list[bool], list[int]],
    t: int, seed: int, dealer: int,
) -> Mismatch | None:
    state = HandState(rules, Deal.from_seed(rules, seed), dealer)
    plays_only = rules.trump is not TrumpMethod.HIDDEN
    for s, (decision, to_move, legal, reveal, down, action) in enumerate(zip(*steps, strict=True)):
        phase = _PHASE_OF[state.decision]
        if phase != decision and not (action < 0 and phase == _OVER):
            return Mismatch(t, seed, s, f"decision {Phase(decision).name} != reference {Phase(phase).name}")
        if action < 0:
            break
        if state.to_move != to_move:
            return Mismatch(t, seed, s, f"seat to move {to_move} != reference {state.to_move}")
        if decision == _PLAY:
            ours = legal | (reveal << REVEAL_ID) | (legal << DOWN_BASE if down else 0)
        else:
            ours = _CALLS if decision == _CALL else legal << HIDE_BASE if decision == _HIDE else 0
        theirs = _scalar_ids(state, plays_only)
        if ours != theirs:
            return Mismatch(t, seed, s, f"legal actions {ours:#x} != reference {theirs:#x}")
        if action < CALL_BASE:
            state.play(action)
        else:
            state.apply(action_of(action))
    if not state.is_over:
        return Mismatch(t, seed, None, "the batched hand ended before the reference's")
    return compare_end(state, tables, t, seed)


def compare_end(state: HandState, tables: BatchTables, t: int, seed: int) -> Mismatch | None:
    """The finished hand at table ``t`` against the reference's: tricks, captures, pile, result."""
    history = tables.history[t].tolist()
    for k, trick in enumerate(state.tricks):
        row = history[k]
        ours = (row[H_LEADER], row[H_CARD0:H_CARD0 + 4], row[H_WINNER], row[H_TAKEN_BY], row[H_TAKEN])
        theirs = (trick.leader, list(trick.cards), trick.winner,
                  -1 if trick.taken_by is None else trick.taken_by, trick.tricks_taken)
        if ours != theirs:
            return Mismatch(t, seed, None, f"trick {k + 1} (leader, cards, winner, taken by, taken) {ours} != "
                                           f"reference {theirs}")
    masks = tables.masks[t].tolist()
    for team in (0, 1):
        if masks[CAPTURED0 + team] != state.captured(team):
            return Mismatch(t, seed, None, f"team {team}'s captured cards differ")
    if masks[PILE] != state.pile:
        return Mismatch(t, seed, None, "the pile differs")
    if masks[FACE_DOWN] != state.face_down_cards:
        return Mismatch(t, seed, None, "the cards played face down differ")
    assert state.result is not None
    ours_result, theirs_result = _result_fields(tables, t), _reference_fields(state.result)
    if ours_result != theirs_result:
        return Mismatch(t, seed, None, f"result {ours_result} != reference {theirs_result}")
    return None


def _result_fields(tables: BatchTables, t: int) -> tuple[object, ...]:
    r = tables.result[t].tolist()
    winner = None if r[0] < 0 else r[0]
    return (winner, OUTCOMES[r[1]] if r[1] >= 0 else None, (r[2], r[3]), (r[4], r[5]), (r[6], r[7]), r[8],
            bool(r[9]), bool(r[10]), bool(r[11]), r[12])


def _reference_fields(result: HandResult) -> tuple[object, ...]:
    return (result.winner, result.outcome, result.tens, result.tricks_won, result.tricks_captured,
            result.tricks_played, result.kot, result.mendikot, result.all_aces, result.points)


def seeded_uniforms(seed: int, tables: int, steps: int = MAX_STEPS) -> npt.NDArray[np.float64]:
    """``uniforms[s, t]`` in [0, 1) from a seeded generator (numpy's PCG64)."""
    return np.random.default_rng(seed).random((steps, tables))
