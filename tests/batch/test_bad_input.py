"""Bad input to the batched engine: one clear error naming the table and the problem, and no
table changed (every array compared before and after)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from arena.batch import (
    BatchShapeError,
    BatchTables,
    FinishedTableError,
    IllegalBatchActionError,
    UnsupportedRulesError,
)
from arena.batch.differential import play_recorded, seeded_uniforms
from arena.engine.action_ids import CALL_BASE, DOWN_BASE, HIDE_BASE, NUM_ACTIONS, REVEAL_ID
from arena.engine.cards import Card
from arena.engine.deal import Deal
from arena.engine.rules import rules_for


def _tables(size: int = 4) -> BatchTables:
    tables = BatchTables(rules_for("dehla-pakad"), size)
    tables.reset(list(range(10, 10 + size)), 1)
    tables.step([CALL_BASE] * size)  # spades everywhere: every table is at a play decision
    return tables


def _unchanged(tables: BatchTables, call: Callable[[], object], error: type[Exception], words: str) -> None:
    before = [a.copy() for a in (tables.ints, tables.masks, tables.history, tables.result)]
    with pytest.raises(error) as caught:
        call()
    assert words in str(caught.value)
    assert "\n" not in str(caught.value)
    for old, new in zip(before, (tables.ints, tables.masks, tables.history, tables.result), strict=True):
        assert (old == new).all()


@pytest.mark.parametrize("action", [NUM_ACTIONS, 10_000, -2])
def test_an_action_out_of_range_is_refused(action: int) -> None:
    tables = _tables()
    legal = tables.random_actions(np.zeros(4))
    legal[2] = action
    _unchanged(tables, lambda: tables.step(legal), IllegalBatchActionError, f"table 2: action {action} is out of range")


def test_a_masked_out_card_is_refused_and_no_table_moves() -> None:
    tables = _tables()
    actions = tables.random_actions(np.zeros(4))
    actions[3] = next(c for c in range(52) if not int(tables.legal_cards[3]) >> c & 1)
    _unchanged(tables, lambda: tables.step(actions), IllegalBatchActionError, "not legal for seat")
    tables.step(tables.random_actions(np.zeros(4)))  # the batch still plays on


def test_a_call_during_play_and_a_card_during_the_call_are_refused() -> None:
    tables = _tables()
    _unchanged(tables, lambda: tables.step([CALL_BASE + 1, -1, -1, -1]), IllegalBatchActionError, "table 0: call H")
    fresh = BatchTables(rules_for("dehla-pakad"), 2)
    fresh.reset([1, 2])
    card = int(Card.parse("AS"))
    _unchanged(fresh, lambda: fresh.step([card, -1]), IllegalBatchActionError, "seat 1 must call trumps")


def test_a_hide_of_a_card_not_held_and_a_reveal_out_of_turn_are_refused() -> None:
    tables = BatchTables(rules_for("mendikot"), 2)
    tables.reset([3, 4])
    held = int(tables.legal_cards[1])
    other = next(c for c in range(52) if not held >> c & 1)
    _unchanged(tables, lambda: tables.step([-1, HIDE_BASE + other]), IllegalBatchActionError,
               "must put one of its cards face down")
    tables.step(tables.random_actions(np.zeros(2)))  # both hide their lowest card
    tables.step(tables.random_actions(np.zeros(2)))  # both owners lead their lowest card
    assert not tables.reveal_allowed()[0]  # seat 2 holds the led suit
    _unchanged(tables, lambda: tables.step([REVEAL_ID, -1]), IllegalBatchActionError, "table 0: reveal: not legal")


def test_a_card_face_down_is_refused_but_to_the_trump_maker_out_of_the_led_suit() -> None:
    tables = BatchTables(rules_for("court-piece-double-sir"), 1)
    tables.reset([0], 0)  # seat 3 hides, leads, and is the maker
    tables.step(tables.random_actions(np.zeros(1)))  # hide the lowest card
    lead = int(tables.random_actions(np.zeros(1))[0])
    _unchanged(tables, lambda: tables.step([DOWN_BASE + lead]), IllegalBatchActionError,
               "only the trump maker, unable to follow while its trump is face down, may")
    tables.step([lead])
    for _ in range(3):
        assert not tables.down_allowed()[0]  # the three others are not the maker
        tables.step(tables.random_actions(np.zeros(1)))
    assert tables.tricks_done[0] == 1


def test_stepping_a_finished_table_is_refused() -> None:
    tables = BatchTables(rules_for("dehla-pakad"), 3)
    tables.reset([1, 2, 3])
    play_recorded(tables, seeded_uniforms(1, 3))
    assert tables.over.all()
    _unchanged(tables, lambda: tables.step([-1, 0, -1]), FinishedTableError, "table 1: play 2S: the hand is over")
    tables.step([-1, -1, -1])  # passing is fine


@pytest.mark.parametrize("actions", [
    np.zeros(5, dtype=np.int64), np.zeros((4, 1), dtype=np.int64), np.zeros(4, dtype=np.float64), [[0, 1]],
])
def test_actions_of_the_wrong_shape_or_type_are_refused(actions: object) -> None:
    tables = _tables()
    _unchanged(tables, lambda: tables.step(actions), BatchShapeError, "expected (4,) integers")  # type: ignore[arg-type]


def test_seeds_dealers_uniforms_and_deals_of_the_wrong_shape_are_refused() -> None:
    tables = _tables()
    _unchanged(tables, lambda: tables.reset([1, 2, 3]), BatchShapeError, "seeds has shape (3,)")
    _unchanged(tables, lambda: tables.reset([1, 2, 3, 4], [0, 1, 2]), BatchShapeError, "dealers has shape (3,)")
    _unchanged(tables, lambda: tables.reset([1, 2, 3, 4], [0, 1, 2, 4]), BatchShapeError, "table 3: dealer must be")
    _unchanged(tables, lambda: tables.reset([1, 2, 3, 2**70]), BatchShapeError, "seeds has shape")
    _unchanged(tables, lambda: tables.random_actions(np.zeros(3)), BatchShapeError, "uniforms has shape (3,)")
    rules = rules_for("dehla-pakad")
    deals = np.array([Deal.from_seed(rules, s).hands for s in range(4)])
    deals[1, 0, 0] = deals[1, 0, 1]
    _unchanged(tables, lambda: tables.reset_deals(deals), BatchShapeError, "table 1: the deal does not use every card")
    _unchanged(tables, lambda: tables.reset_deals(deals[:3]), BatchShapeError, "deals has shape (3, 4, 13)")


@pytest.mark.parametrize("size", [0, -3, 2.5, True])
def test_a_bad_size_is_refused(size: object) -> None:
    with pytest.raises(BatchShapeError, match="size must be a positive number of tables"):
        BatchTables(rules_for("dehla-pakad"), size)  # type: ignore[arg-type]


@pytest.mark.parametrize(("preset", "overrides", "named"), [
    ("court-piece-double-sir", {"hidden_blind": True}, "hidden_blind=true"),
    ("dehla-pakad-hidden", {"hidden_blind": True}, "hidden_blind=true"),
    ("dehla-pakad", {"trump": "open_random"}, "trump=open_random"),
    ("dehla-pakad", {"trump_card": "later"}, "trump_card=later"),
    ("dehla-pakad", {"decline": "second_packet"}, "decline=second_packet"),
])
def test_unsupported_rules_are_refused_by_name(preset: str, overrides: dict[str, object], named: str) -> None:
    with pytest.raises(UnsupportedRulesError, match=f"does not play {named} yet"):
        BatchTables(rules_for(preset, overrides), 2)
