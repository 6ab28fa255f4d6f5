"""``BiddingBatchTables``' API: the playout shortcuts take the checked API's actions, the legal
mask is what the kernels allow, and bad input gets one clear error with no table changed."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from arena.batch import (
    NUM_BIDDING_ACTIONS,
    BatchShapeError,
    BatchTables,
    BiddingBatchTables,
    FinishedTableError,
    IllegalBatchActionError,
    Phase,
    UnsupportedRulesError,
)
from arena.batch.bidding_differential import play_recorded, seeded_uniforms
from arena.engine.action_ids import BID_BASE, HIDE_BASE, PASS_ID, REVEAL_ID, bidding_action_id, bidding_action_of
from arena.engine.bidding_hand import BiddingHand
from arena.engine.bidding_rules import bidding_rules_for
from arena.engine.deal import Deal


def _pair(preset: str, size: int) -> tuple[BiddingBatchTables, BiddingBatchTables]:
    seeds = np.arange(700, 700 + size)
    a, b = BiddingBatchTables.of_preset(preset, size), BiddingBatchTables.of_preset(preset, size)
    a.reset(seeds, seeds % 4)
    b.reset(seeds, seeds % 4)
    return a, b


def _same(a: BiddingBatchTables, b: BiddingBatchTables) -> None:
    for x, y in ((a.ints, b.ints), (a.masks, b.masks), (a.history, b.history), (a.result, b.result)):
        assert (x == y).all()


@pytest.mark.parametrize("preset", ["twenty-eight", "twenty-nine"])
def test_step_random_and_step_keyed_are_the_checked_step_of_random_actions(preset: str) -> None:
    a, b = _pair(preset, 400)
    c, _ = _pair(preset, 400)
    key = 5
    while not a.over.all():
        uniforms = a.keyed_uniforms(key)
        chosen = a.random_actions(uniforms)
        mask = a.legal_mask()
        rows = np.flatnonzero(chosen >= 0)
        assert mask[rows, chosen[rows]].all()  # every random choice is in the mask
        assert (mask.any(axis=1) == ~a.over).all()
        a.step(chosen)
        assert (b.step_random(uniforms) == chosen).all()
        assert (c.step_keyed(key) == chosen).all()
        _same(a, b)
        _same(a, c)
        key += 1


def _tables(phase: Phase) -> BiddingBatchTables:
    """Four Twenty-eight tables, all at the first decision of ``phase``."""
    tables = BiddingBatchTables.of_preset("twenty-eight", 4)
    tables.reset([1, 2, 3, 4], 0)
    if phase is Phase.BID:
        return tables
    tables.step([BID_BASE + 28] * 4)  # the maximum ends the auction at once
    if phase is Phase.HIDE_TRUMP:
        return tables
    tables.step(tables.random_actions(np.zeros(4)))
    return tables


def _unchanged(tables: BiddingBatchTables, call: Callable[[], object], error: type[Exception], words: str) -> None:
    before = [x.copy() for x in (tables.ints, tables.masks, tables.history, tables.result)]
    with pytest.raises(error) as caught:
        call()
    assert words in str(caught.value)
    assert "\n" not in str(caught.value)
    for old, new in zip(before, (tables.ints, tables.masks, tables.history, tables.result), strict=True):
        assert (old == new).all()


def test_the_opener_may_not_pass_and_a_bid_must_be_in_range() -> None:
    tables = _tables(Phase.BID)
    assert (tables.decision == Phase.BID).all() and (tables.least_bid() == 14).all()
    _unchanged(tables, lambda: tables.step([BID_BASE + 14, PASS_ID, -1, -1]), IllegalBatchActionError,
               "table 1: pass: seat 3 may bid 14..28 (the opener may not pass)")
    _unchanged(tables, lambda: tables.step([BID_BASE + 29, -1, -1, -1]), IllegalBatchActionError,
               "table 0: bid 29: seat 3 may bid 14..28")
    tables.step([BID_BASE + 20] * 4)
    _unchanged(tables, lambda: tables.step([-1, -1, BID_BASE + 20, -1]), IllegalBatchActionError,
               "table 2: bid 20: seat 2 may bid 21..28 or pass")


def test_a_hide_of_a_card_not_held_and_a_play_during_the_hide_are_refused() -> None:
    tables = _tables(Phase.HIDE_TRUMP)
    held = int(tables.legal_cards[0])
    other = next(c for c in range(52) if not held >> c & 1)
    _unchanged(tables, lambda: tables.step([HIDE_BASE + other, -1, -1, -1]), IllegalBatchActionError,
               "must put one of its cards face down")
    card = (held & -held).bit_length() - 1  # the lowest card the bidder holds
    _unchanged(tables, lambda: tables.step([card, -1, -1, -1]), IllegalBatchActionError, "table 0: play")


def test_a_call_for_the_trump_on_lead_and_an_unknown_action_are_refused() -> None:
    tables = _tables(Phase.PLAY)
    assert not tables.reveal_allowed().any()  # a leader may not call
    _unchanged(tables, lambda: tables.step([REVEAL_ID, -1, -1, -1]), IllegalBatchActionError,
               "table 0: reveal: not legal for seat")
    _unchanged(tables, lambda: tables.step([NUM_BIDDING_ACTIONS, -1, -1, -1]), IllegalBatchActionError,
               f"action {NUM_BIDDING_ACTIONS} is out of range")
    _unchanged(tables, lambda: tables.step(np.zeros((4, 2), dtype=np.int64)), BatchShapeError,
               "actions has shape (4, 2)")


def test_an_action_for_a_finished_hand_is_refused() -> None:
    tables = BiddingBatchTables.of_preset("twenty-nine", 3)
    tables.reset([5, 6, 7])
    rules = bidding_rules_for("twenty-nine")
    play_recorded(tables, seeded_uniforms(rules, 1, 3))
    _unchanged(tables, lambda: tables.step([-1, PASS_ID, -1]), FinishedTableError, "table 1: pass: the hand is over")


def test_the_trick_taking_tables_refuse_a_bidding_preset_by_name() -> None:
    with pytest.raises(UnsupportedRulesError, match="twenty-eight is a bidding game: BiddingBatchTables plays it"):
        BatchTables.of_preset("twenty-eight", 2)
    with pytest.raises(BatchShapeError, match="size must be a positive number of tables"):
        BiddingBatchTables.of_preset("twenty-eight", 0)


@pytest.mark.parametrize("preset", ["twenty-eight", "twenty-nine"])
def test_the_legal_mask_is_the_references_legal_actions_at_every_step(preset: str) -> None:
    """``legal_mask()`` itself (the differential tests compare the facts it is built from) against
    ``BiddingHand.legal_actions()`` at every step of 300 random hands."""
    rules = bidding_rules_for(preset)
    tables = BiddingBatchTables(rules, 300)
    seeds = np.arange(300)
    tables.reset(seeds, seeds % 4)
    hands = [BiddingHand(rules, Deal.from_seed(rules.deal_rules, int(s)), int(s) % 4) for s in seeds]
    rng = np.random.default_rng(3)
    while not tables.over.all():
        mask = tables.legal_mask()
        for t, hand in enumerate(hands):
            assert set(np.flatnonzero(mask[t]).tolist()) == {bidding_action_id(a) for a in hand.legal_actions()}
        chosen = tables.random_actions(rng.random(300))
        tables.step(chosen)
        for t in np.flatnonzero(chosen >= 0).tolist():
            hands[t].apply(bidding_action_of(int(chosen[t])))  # type: ignore[arg-type]
    assert all(hand.is_over for hand in hands)
