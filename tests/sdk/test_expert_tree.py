"""The expert's tree search (``sample_bots/expert/tree.py``, ``--tree``) and the ceiling's arm
on it (``bench/ismcts.py``): one tree over many sampled deals, each iteration counted once at
the root, its children only the actions legal in that deal; bounded by its deadline."""

from __future__ import annotations

import math
import random
import time

import pytest

from arena.engine.actions import DOWN, PLAY
from arena.engine.cards import Card
from arena.engine.deal import Deal
from arena.engine.hand import Decision, HandState
from arena.engine.observation import observe
from arena.engine.rules import PRESETS, rules_for
from arena.referee.in_process import play_in_process
from bench.ceiling import play_table, team_for
from bench.clairvoyant import TrueHand
from bench.ismcts import IsmctsBot
from sample_bots.expert.bot import TREE_MARGIN_START, ExpertBot
from sample_bots.expert.margin import START_SECONDS, STEP
from sample_bots.expert.tree import Node, iterate, root_actions, tree_search
from sample_bots.heuristic.bot import HeuristicBot
from sample_bots.search.bot import SearchBudget, Solver
from sdk.sampling import Sampler

BUDGET_S = 0.01


def a_card_decision(seed: int) -> HandState:
    """A hand of the default preset played at random to a card decision with a choice, in its
    third trick or later."""
    rules = rules_for("dehla-pakad")
    rng = random.Random(seed)
    state = HandState(rules, Deal.from_seed(rules, seed), 0)
    while state.decision is not Decision.PLAY or len(state.tricks) < 2 or len(state.legal_actions()) < 2:
        if state.is_over:
            state = HandState(rules, Deal.from_seed(rules, rng.randrange(10**6)), 0)
            continue
        state.apply(rng.choice(state.legal_actions()))
    return state


def test_every_iteration_is_counted_once_at_the_root_among_the_actions_it_could_take() -> None:
    state = a_card_decision(7)
    seat = state.to_move
    assert seat is not None
    view = observe(state, seat)
    sampler = Sampler(view)
    rng = random.Random(1)
    root = Node()
    for _ in range(200):
        iterate(root, sampler.state(sampler.sample(rng)), rng)
    assert sum(child.visits for child in root.children.values()) == 200
    assert set(root.children) == set(view.legal_actions)  # the seat's own cards: legal in every deal
    for child in root.children.values():
        # each tried; available in every iteration from the one that expanded it
        assert 0 < child.visits <= child.available <= 200
        assert all(grandchild.available < child.visits for grandchild in child.children.values())


def test_an_opponents_card_is_available_only_in_the_deals_where_it_is_legal() -> None:
    """Iterations on one deal, then on another that gives an opponent other cards: below each of
    the seat's actions, a reply legal in the first deal only is not counted available in the second."""
    state = a_card_decision(7)
    seat = state.to_move
    assert seat is not None
    sampler = Sampler(observe(state, seat))
    rng = random.Random(3)
    first, second = sampler.state(sampler.sample(rng)), sampler.state(sampler.sample(rng))
    root = Node()
    for _ in range(150):
        iterate(root, first.clone(), rng)
    before = {(mine, reply): node.available for mine, child in root.children.items()
              for reply, node in child.children.items()}
    for _ in range(150):
        iterate(root, second.clone(), rng)
    not_in_second = 0
    for mine, child in root.children.items():
        after = second.clone()
        after.apply(mine)
        legal = set(after.legal_actions())
        for reply, node in child.children.items():
            if reply not in legal and (mine, reply) in before:
                assert node.available == before[mine, reply], (mine, reply)
                not_in_second += 1
    assert not_in_second > 0  # the two deals differ where it shows


def test_on_a_known_deal_the_tree_plays_the_exact_solvers_best_card() -> None:
    """Every iteration on the true deal, three tricks from the end: the tree's choice is the card
    the perfect-information solver values highest (a wrong sign or choice would play another)."""
    rules = rules_for("dehla-pakad")
    rng = random.Random(5)
    for seed in range(200):
        state = HandState(rules, Deal.from_seed(rules, seed), 0)
        while not state.is_over and (len(state.tricks) < rules.hand_size - 3 or state.decision is not Decision.PLAY
                                     or state.trick_cards):
            state.apply(rng.choice(state.legal_actions()))
        if state.is_over or len(state.legal_actions()) < 2:
            continue
        seat = state.to_move
        assert seat is not None
        values = {}
        for action in state.legal_actions():
            child = state.clone()
            child.apply(action)
            values[action] = Solver(rules, seat & 1).value(child)
        ranked = sorted(values.values(), reverse=True)
        if ranked[0] - ranked[1] < 0.5:
            continue  # no clearly best card here
        best = max(values, key=values.__getitem__)
        chosen, done = tree_search(observe(state, seat), random.Random(1), math.inf, iterations=400,
                                   deals=lambda _, known=state: known.clone())
        assert done == 400 and chosen == best, (seed, values, chosen)
        return
    pytest.fail("no position with a clearly best card among 200 deals")


def test_a_card_that_may_go_face_down_is_searched_as_the_bot_plays_it() -> None:
    seven, ace = Card.parse("7H"), Card.parse("AS")
    legal = (PLAY[seven], DOWN[seven], PLAY[ace])
    assert root_actions(legal) == (DOWN[seven], PLAY[ace])


def test_the_search_stops_at_its_iterations_or_its_deadline() -> None:
    state = a_card_decision(11)
    seat = state.to_move
    assert seat is not None
    view = observe(state, seat)
    action, done = tree_search(view, random.Random(2), math.inf, iterations=50)
    assert done == 50 and action in view.legal_actions
    assert tree_search(view, random.Random(2), time.perf_counter() - 1.0) == (None, 0)
    started = time.perf_counter()
    action, done = tree_search(view, random.Random(2), started + 0.02)
    assert action in view.legal_actions and done > 0
    assert time.perf_counter() - started < 0.02 + 0.25  # one iteration past the deadline at most


@pytest.mark.parametrize("preset", list(PRESETS))
def test_the_expert_with_the_tree_plays_every_preset_without_faults(preset: str) -> None:
    bots = [ExpertBot(0, SearchBudget(max_per_move=BUDGET_S), tree=True), HeuristicBot(),
            ExpertBot(2, SearchBudget(max_per_move=BUDGET_S), tree=True), HeuristicBot()]
    outcome = play_in_process(bots, deals=1, seed=5, preset=preset)
    assert outcome.status == "done" and not outcome.faults
    experts = [bots[0], bots[2]]
    assert any(bot.tree_iterations for bot in experts)  # type: ignore[attr-defined]
    assert not any(bot.worlds for bot in experts)  # type: ignore[attr-defined]  # not the candidates' search


def test_the_arm_plays_deal_pairs_at_the_table_with_its_iterations() -> None:
    true_hand = TrueHand()
    north, south = team_for("ismcts:30", true_hand, 50)
    assert isinstance(north, IsmctsBot) and isinstance(south, IsmctsBot)
    assert north.iterations == south.iterations == 30
    outcome = play_table([north, HeuristicBot(), south, HeuristicBot()], true_hand, 1, "dehla-pakad", 3)
    assert outcome.faults == []
    assert north.decisions > 0 and north.cpu_seconds > 0


def test_the_trees_margin_starts_thinner_and_learns_as_the_candidates_search_does() -> None:
    tree, candidates = ExpertBot(0, tree=True).margin, ExpertBot(0).margin
    tree.reset()
    candidates.reset()
    assert tree.current(0.05) == TREE_MARGIN_START < candidates.current(0.05) == START_SECONDS
    assert tree.observe(0.05, 30.0) == TREE_MARGIN_START
    assert tree.observe(0.05, 29.99) == TREE_MARGIN_START + STEP * 0.05  # a move over the limit widens it
