"""The heuristic's numbers (``sample_bots.heuristic.weights``): each reaches the decisions it is
named for, the hand-set ones are the bot's default, and the expert ranks with its own."""

from __future__ import annotations

from dataclasses import replace
from functools import cache

import pytest

from arena.engine.deal import Deal
from arena.engine.hand import HandState
from arena.engine.observation import observe
from arena.engine.rules import rules_for
from sample_bots.expert.bot import ExpertBot
from sample_bots.expert.levels import Level, budget_for
from sample_bots.expert.weights import expert_weights
from sample_bots.heuristic.bot import HeuristicBot
from sample_bots.heuristic.weights import DEFAULT_WEIGHTS, Weights, WeightsFor, hand_set
from sdk.bot import BotView
from tests.heuristic_helpers import positions

PRESET_OF = {"cut_length": "dehla-pakad-cut", "cut_points": "dehla-pakad-cut",
             "edge_no_claim": "court-piece-double-sir", "show_cost": "mendikot",
             "ask_cost": "mendikot", "hidden_ruff": "dehla-pakad-hidden"}
"""Fields only one preset's rules use; the others are tried on the default preset."""

FAR = {"overtake_strength": 0.0, "sure_lead": 0.0, "last_tricks_keep": 0.0, "show_cost": -1.0, "ask_cost": -1.0}
"""Where a number is moved to show it matters, if not to three times its value and more (odds
and shares down to nothing; a reveal's costs below zero: a dearer reveal is only rarer)."""


@cache
def calls(preset: str, deals: int = 200) -> tuple[BotView, ...]:
    """The trump call of ``deals`` seeded deals (a hand has one: too few to find a rare one)."""
    rules = rules_for(preset)
    views = []
    for seed in range(deals):
        state = HandState(rules, Deal.from_seed(rules, 1000 + seed), seed % 4)
        seat = state.to_move
        assert seat is not None
        views.append(BotView(observe(state, seat), 1.0, 30.0))
    return tuple(views)


def changed_decisions(weights: Weights, preset: str) -> int:
    hand_set, other = HeuristicBot(), HeuristicBot(weights)
    return sum(hand_set.decide(v) != other.decide(v) for v in positions(preset) + calls(preset))


@pytest.mark.parametrize("name", Weights.names())
def test_every_number_reaches_some_decision(name: str) -> None:
    """Moving one number far (to three times its value and more) changes at least one decision on
    the positions of its preset: a number the reasoning ignored could not be tuned."""
    value = getattr(DEFAULT_WEIGHTS, name)
    moved = replace(DEFAULT_WEIGHTS, **{name: FAR.get(name, 3 * value + 1.0)})
    assert changed_decisions(moved, PRESET_OF.get(name, "dehla-pakad")) > 0, name


def test_the_hand_set_numbers_are_the_default() -> None:
    assert HeuristicBot().weights is DEFAULT_WEIGHTS
    assert changed_decisions(Weights(), "dehla-pakad") == 0


@pytest.mark.parametrize("weights", [hand_set, expert_weights], ids=["hand-set", "expert"])
@pytest.mark.parametrize("preset", ["dehla-pakad", "mendikot"])
def test_the_expert_plays_the_card_and_call_of_its_own_numbers_when_it_searches_nothing(
        weights: WeightsFor, preset: str) -> None:
    """Level 1 searches no world: its card and call are its heuristic's, with its numbers."""
    expert = ExpertBot(0, budget_for(Level(1), None, None), weights=weights)
    heuristic = HeuristicBot(weights(rules_for(preset)))
    views = positions(preset)[:300] + calls(preset)[:100]
    assert all(expert.decide(v) == heuristic.decide(v) for v in views)


FAMILIES = ("dehla-pakad", "dehla-pakad-cut", "mendikot", "court-piece-double-sir")
"""A preset of each family of games the expert has numbers of its own for."""


@pytest.mark.parametrize("preset", FAMILIES)
def test_the_expert_plays_tuned_numbers_where_they_measured_better(preset: str) -> None:
    """Its numbers differ from the hand-set ones on the tens games, the cut game, Mendikot and
    Court Piece, each family's its own (and so does its play there)."""
    assert expert_weights(rules_for(preset)) != DEFAULT_WEIGHTS
    assert changed_decisions(expert_weights(rules_for(preset)), preset) > 0
    assert len({expert_weights(rules_for(p)) for p in FAMILIES}) == len(FAMILIES)
