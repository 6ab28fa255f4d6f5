"""The bidding twin held to the reference: the same deals and choices through ``BiddingBatchTables``
and ``arena.engine.bidding_hand.BiddingHand``, compared at every step and at the end of every hand.

At every step: the decision, the seat to move and the legal actions (the calls: a pass and which
bids; the hides; the cards and the call for the trump). At the end: each trick (leader, cards,
winner, its team), both teams' captured cards, the contract, the trump suit, the exposure (which
trick, after how many cards, by whom) and every field of the hand's result (bidder, bid, points,
void, made, game points, tricks played, winner). A mismatch is reported with its table, seed and
step (``differential.Mismatch``), never raised.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from arena.batch.bidding_layout import (
    BR_BID,
    BR_BIDDER,
    BR_GAME_POINTS,
    BR_MADE,
    BR_PLAYED,
    BR_POINTS0,
    BR_VOID,
    BR_WINNER,
    CAPTURED0,
    H_CARD0,
    H_LEADER,
    H_TAKEN,
    H_TAKEN_BY,
    H_WINNER,
    REVEAL_POSITION,
    REVEAL_SEAT,
    REVEAL_TRICK,
    TRUMP,
)
from arena.batch.bidding_tables import BiddingBatchTables
from arena.batch.differential import DifferentialReport, Mismatch
from arena.batch.layout import Phase
from arena.engine.action_ids import BID_BASE, HIDE_BASE, PASS_ID, REVEAL_ID, bidding_action_id, bidding_action_of
from arena.engine.bidding_hand import BiddingDecision, BiddingHand
from arena.engine.bidding_rules import BiddingRules
from arena.engine.deal import Deal

PLAY_STEPS = 1 + 32 + 1
"""After the auction: the hide, 32 cards and the call for the trump."""


def max_steps(rules: BiddingRules) -> int:
    """Decisions of the longest hand under ``rules``: every bid from the minimum up, two passes
    between bids and three at the end, then ``PLAY_STEPS``."""
    bids = rules.max_bid - rules.min_bid + 1
    return 3 * bids + 1 + PLAY_STEPS


@dataclass(frozen=True)
class BiddingRecording:
    """What the batched engine did, step by step (``[s, t]``): the decision, the seat to move,
    the legal cards (play) or cards to hide, the least bid (in the auction), whether the trump
    could be called for, and the action taken (-1 once the hand is over)."""

    decision: npt.NDArray[np.int16]
    to_move: npt.NDArray[np.int16]
    legal: npt.NDArray[np.uint64]
    least: npt.NDArray[np.int64]
    reveal: npt.NDArray[np.bool_]
    actions: npt.NDArray[np.int64]


def play_recorded(tables: BiddingBatchTables, uniforms: npt.NDArray[np.float64]) -> BiddingRecording:
    """Play every table to the end with ``uniforms[s, t]`` choosing step ``s`` at table ``t``
    (``random_actions``, then the checked ``step``), recording each step."""
    decisions, movers, legals, leasts, reveals, actions = [], [], [], [], [], []
    for s in range(uniforms.shape[0]):
        if tables.over.all():
            break
        decisions.append(tables.decision.copy())
        movers.append(tables.to_move.copy())
        legals.append(tables.legal_cards.copy())
        least, reveal = tables.call_options()
        leasts.append(least)
        reveals.append(reveal)
        chosen = tables.random_actions(uniforms[s])
        actions.append(chosen)
        tables.step(chosen)
    if not tables.over.all():
        raise ValueError(f"{uniforms.shape[0]} steps of uniforms did not finish every hand")
    return BiddingRecording(np.array(decisions), np.array(movers), np.array(legals), np.array(leasts),
                            np.array(reveals), np.array(actions))


def compare(
    rules: BiddingRules,
    seeds: Sequence[int],
    dealers: Sequence[int],
    uniforms: npt.NDArray[np.float64],
    make_tables: Callable[[BiddingRules, int], BiddingBatchTables] = BiddingBatchTables,
    keep: int = 5,
) -> DifferentialReport:
    """Play ``seeds`` (dealt by ``dealers``) through both engines with the batched engine's random
    choices from ``uniforms[s, t]``; ``make_tables`` builds the twin (a test passes a broken one)."""
    tables = make_tables(rules, len(seeds))
    tables.reset(np.asarray(seeds, dtype=np.int64), np.asarray(dealers, dtype=np.int64))
    rec = play_recorded(tables, uniforms)
    columns = zip(rec.decision.T.tolist(), rec.to_move.T.tolist(), rec.legal.T.tolist(), rec.least.T.tolist(),
                  rec.reveal.T.tolist(), rec.actions.T.tolist(), strict=True)
    problems = (_replay(rules, tables, steps, t, int(seed), int(dealer))
                for t, (seed, dealer, steps) in enumerate(zip(seeds, dealers, columns, strict=True)))
    return DifferentialReport.of(problems, int((rec.actions >= 0).sum()), keep)


_PHASE_OF = {None: int(Phase.OVER), BiddingDecision.BID: int(Phase.BID), BiddingDecision.PLAY: int(Phase.PLAY),
             BiddingDecision.HIDE_TRUMP: int(Phase.HIDE_TRUMP)}
_BID, _HIDE, _PLAY = int(Phase.BID), int(Phase.HIDE_TRUMP), int(Phase.PLAY)


def _ours(rules: BiddingRules, decision: int, legal: int, least: int, opening: bool) -> int:
    """The batched engine's legal calls or hides at a step as a bitmask of action ids."""
    if decision == _BID:
        bids = ((1 << (rules.max_bid - least + 1)) - 1) << (BID_BASE + least) if least <= rules.max_bid else 0
        return bids | (0 if opening else 1 << PASS_ID)
    return legal << HIDE_BASE if decision == _HIDE else legal


def _theirs(hand: BiddingHand) -> int:
    out = 0
    for action in hand.legal_actions():
        out |= 1 << bidding_action_id(action)
    return out


def _replay(
    rules: BiddingRules, tables: BiddingBatchTables,
    steps: tuple[list[int], list[int], list[int], list[int], list[bool], list[int]],
    t: int, seed: int, dealer: int,
) -> Mismatch | None:
    hand = BiddingHand(rules, Deal.from_seed(rules.deal_rules, seed), dealer)
    for s, (decision, to_move, legal, least, reveal, action) in enumerate(zip(*steps, strict=True)):
        phase = _PHASE_OF[hand.decision]
        if phase != decision and not (action < 0 and phase == int(Phase.OVER)):
            return Mismatch(t, seed, s, f"decision {Phase(decision).name} != reference {Phase(phase).name}")
        if action < 0:
            break
        if hand.to_move != to_move:
            return Mismatch(t, seed, s, f"seat to move {to_move} != reference {hand.to_move}")
        if decision == _PLAY:  # the reference's play decision without building its actions
            ours, theirs = legal | reveal << REVEAL_ID, hand.legal_mask() | hand.may_call << REVEAL_ID
        else:
            ours, theirs = _ours(rules, decision, legal, least, hand.auction.high is None), _theirs(hand)
        if ours != theirs:
            return Mismatch(t, seed, s, f"legal actions {ours:#x} != reference {theirs:#x}")
        if action < REVEAL_ID:
            hand.play(action)
        else:
            hand.apply(bidding_action_of(action))  # type: ignore[arg-type]  # a legal action of this game
    if not hand.is_over:
        return Mismatch(t, seed, None, "the batched hand ended before the reference's")
    return compare_end(hand, tables, t, seed)


def compare_end(hand: BiddingHand, tables: BiddingBatchTables, t: int, seed: int) -> Mismatch | None:
    """The finished hand at table ``t`` against the reference's: tricks, captures, contract,
    trump, exposure and result."""
    history = tables.history[t].tolist()
    for k, trick in enumerate(hand.tricks):
        row = history[k]
        ours = (row[H_LEADER], row[H_CARD0:H_CARD0 + 4], row[H_WINNER], row[H_TAKEN_BY], row[H_TAKEN])
        theirs = (trick.leader, list(trick.cards), trick.winner, trick.taken_by, trick.tricks_taken)
        if ours != theirs:
            return Mismatch(t, seed, None, f"trick {k + 1} (leader, cards, winner, team, tricks) {ours} != "
                                           f"reference {theirs}")
    if len(hand.tricks) < len(history) and history[len(hand.tricks)][H_LEADER] >= 0:
        return Mismatch(t, seed, None, f"more tricks than the reference's {len(hand.tricks)}")
    masks = tables.masks[t].tolist()
    for team in (0, 1):
        if masks[CAPTURED0 + team] != hand.captured(team):
            return Mismatch(t, seed, None, f"team {team}'s captured cards differ")
    ints = tables.ints[t].tolist()
    exposure = (ints[REVEAL_TRICK], ints[REVEAL_POSITION], ints[REVEAL_SEAT]) if ints[REVEAL_TRICK] else None
    reveal = hand.reveal
    if exposure != (None if reveal is None else (reveal.trick, reveal.position, reveal.seat)):
        return Mismatch(t, seed, None, f"exposure (trick, position, seat) {exposure} != reference {reveal}")
    if ints[TRUMP] != hand.trump:
        return Mismatch(t, seed, None, f"trump suit {ints[TRUMP]} != reference {hand.trump}")
    result = hand.result
    assert result is not None
    r = tables.result[t].tolist()
    ours_result = (r[BR_BIDDER], r[BR_BID], (r[BR_POINTS0], r[BR_POINTS0 + 1]), bool(r[BR_VOID]), bool(r[BR_MADE]),
                   r[BR_GAME_POINTS], r[BR_PLAYED], None if r[BR_WINNER] < 0 else r[BR_WINNER])
    theirs_result = (result.bidder, result.bid, result.points, result.void, result.made, result.game_points,
                     result.tricks_played, result.winner)
    if ours_result != theirs_result:
        return Mismatch(t, seed, None, f"result {ours_result} != reference {theirs_result}")
    return None


def seeded_uniforms(rules: BiddingRules, seed: int, tables: int) -> npt.NDArray[np.float64]:
    """``uniforms[s, t]`` in [0, 1) from a seeded generator (numpy's PCG64), ``max_steps(rules)`` rows."""
    return np.random.default_rng(seed).random((max_steps(rules), tables))

