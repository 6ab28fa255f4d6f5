"""The expert's tree search (``sample_bots/expert/tree.py``, ``--tree``) and the ceiling's arm
on it (``bench/ismcts.py``): one tree over many sampled deals, each iteration counted once at
the root, its children only the actions legal in that deal; bounded by its deadline."""

from __future__ import annotations

import math
import random
import time

import pytest

import bench.ismcts
from arena.engine.actions import DOWN, PLAY, Action, PlayCard
from arena.engine.cards import Card
from arena.engine.deal import Deal
from arena.engine.hand import Decision, HandState
from arena.engine.observation import observe
from arena.engine.rules import PRESETS, rules_for
from arena.referee.in_process import play_in_process
from bench.ceiling import play_table, team_for
from bench.clairvoyant import ENDGAME_TRICKS, TrueHand
from bench.ismcts import IsmctsBot, override
from sample_bots.expert.bot import TREE_MARGIN_START, ExpertBot
from sample_bots.expert.margin import START_SECONDS, STEP
from sample_bots.expert.tree import EXPLORATION, Grown, Node, grow, iterate, root_actions, tree_search
from sample_bots.heuristic.bot import HeuristicBot
from sample_bots.search.bot import SearchBudget, Solver
from sdk.bot import BotView
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


def test_the_first_action_is_expanded_before_the_others() -> None:
    state = a_card_decision(7)
    seat = state.to_move
    assert seat is not None
    view = observe(state, seat)
    for first in view.legal_actions:
        grown = grow(view, random.Random(4), math.inf, 1, first=first)
        assert set(grown.root.children) == {first} and grown.iterations == 1


def test_the_exploration_constant_decides_the_roots_selection() -> None:
    """Every action tried: a well-known action of mean 1 against one tried once at mean 0. Without
    exploration the iteration takes the better mean; with a large constant, the less known one."""
    state = a_card_decision(7)
    legal = state.legal_actions()
    known, unknown = legal[0], legal[1]
    for exploration, chosen in ((0.0, known), (10.0, unknown)):
        root = Node(children={action: Node(visits=1, total=-5.0, available=200) for action in legal})
        root.children[known] = Node(visits=100, total=100.0, available=200)
        root.children[unknown] = Node(visits=1, total=0.0, available=200)
        before = {action: node.visits for action, node in root.children.items()}
        iterate(root, state.clone(), random.Random(1), exploration)
        assert [a for a, node in root.children.items() if node.visits != before[a]] == [chosen]
    # and ``grow`` hands its constant down: the same draws grow another tree
    assert state.to_move is not None
    view = observe(state, state.to_move)
    greedy, broad = (grow(view, random.Random(2), math.inf, 150, exploration=c) for c in (0.0, 10.0))
    visits = [{a: n.visits for a, n in grown.root.children.items()} for grown in (greedy, broad)]
    assert visits[0] != visits[1]


def test_a_nodes_standard_error_is_that_of_its_values() -> None:
    node = Node()
    assert node.variance_of_mean() == math.inf
    for value in (1.0, 3.0, 2.0, 6.0):
        node.visits += 1
        node.total += value
        node.squares += value * value
    # mean 3, sample variance (4 + 0 + 1 + 9) / 3, of the mean a quarter of that
    assert node.mean() == 3.0 and node.variance_of_mean() == pytest.approx(14 / 3 / 4)


def _stats(values: list[float]) -> Node:
    return Node(visits=len(values), total=sum(values), squares=sum(v * v for v in values), available=len(values))


def test_the_prior_arm_keeps_the_heuristics_card_unless_another_is_surely_better() -> None:
    heuristic, other = PLAY[Card.parse("7H")], PLAY[Card.parse("AS")]
    spread = [0.0, 2.0] * 8  # mean 1, standard error about 0.26
    close = Grown(Node(children={heuristic: _stats(spread), other: _stats([v + 0.3 for v in spread])}),
                  (heuristic, other), 32)
    far = Grown(Node(children={heuristic: _stats(spread), other: _stats([v + 1.0 for v in spread])}),
                (heuristic, other), 32)
    assert override(close, heuristic, 1.0) == heuristic  # ahead by 0.3: about 0.8 standard errors
    assert override(far, heuristic, 1.0) == other
    assert override(close, heuristic, 0.5) == other
    # a heuristic's card searched face down is compared in that form
    # (the other card more visited: taken for the heuristic's it would be the fallback's choice)
    down = Grown(Node(children={DOWN[Card.parse("7H")]: _stats(spread), other: _stats(spread * 2)}),
                 (DOWN[Card.parse("7H")], other), 48)
    assert override(down, heuristic, 1.0) == DOWN[Card.parse("7H")]


def test_the_arms_flags_reach_the_bot() -> None:
    north, _ = team_for("ismcts:120+prior+endgame+c30", TrueHand(), 50)
    assert isinstance(north, IsmctsBot)
    assert (north.iterations, north.prior, north.endgame_worlds, north.exploration) == (120, True, 16, 3.0)
    plain, _ = team_for("ismcts:80", TrueHand(), 50)
    assert isinstance(plain, IsmctsBot)
    assert (plain.prior, plain.endgame_worlds, plain.exploration, plain.consistent_worlds) == (False, 0, EXPLORATION, 0)
    assert (plain.cycled_worlds, plain.model) == (0, False)
    modelled, _ = team_for("ismcts:80+model+cycled24", TrueHand(), 50)
    assert isinstance(modelled, IsmctsBot) and (modelled.cycled_worlds, modelled.model) == (24, True)
    thinned, _ = team_for("ismcts:80+consistent200+thin2", TrueHand(), 50)
    assert isinstance(thinned, IsmctsBot) and (thinned.consistent_worlds, thinned.thin) == (200, 2)
    assert plain.thin == 6 and plain.generator.thin == 6 and IsmctsBot(10, thin=2).generator.thin == 2
    for arm, worlds in (("ismcts:80+consistent", 32), ("ismcts:80+consistent64+c20", 64)):
        bot, _ = team_for(arm, TrueHand(), 50)
        assert isinstance(bot, IsmctsBot) and bot.consistent_worlds == worlds
    with pytest.raises(SystemExit, match="unknown ismcts flag endgam"):  # a typo is not a plain tree
        team_for("ismcts:80+endgam", TrueHand(), 50)


def test_the_endgame_arm_searches_the_last_tricks_by_exact_solves_not_the_tree(monkeypatch: pytest.MonkeyPatch) -> None:
    grown_at: list[int] = []
    real_grow = bench.ismcts.grow

    def counted(observation: object, *args: object, **kwargs: object) -> Grown:
        grown_at.append(len(observation.tricks))  # type: ignore[attr-defined]
        return real_grow(observation, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(bench.ismcts, "grow", counted)
    true_hand = TrueHand()
    north, south = team_for("ismcts:20+endgame", true_hand, 50)
    assert isinstance(north, IsmctsBot) and isinstance(south, IsmctsBot)
    outcome = play_table([north, HeuristicBot(), south, HeuristicBot()], true_hand, 1, "dehla-pakad", 3)
    assert outcome.faults == [] and grown_at
    hand_size = rules_for("dehla-pakad").hand_size
    assert max(grown_at) < hand_size - ENDGAME_TRICKS  # the tree only before the endgame
    assert north.decisions + south.decisions > len(grown_at)  # the endgame's decisions were searched too
    assert north.endgame is not None and south.endgame is not None
    assert north.endgame.decisions + south.endgame.decisions > 0  # by the exact solves


def test_the_tree_arm_is_the_expert_bot_with_its_tree() -> None:
    north, south = team_for("tree", TrueHand(), 20)
    assert isinstance(north, ExpertBot) and isinstance(south, ExpertBot)
    assert north.tree and south.tree and north.budget.max_per_move == 0.02


def face_up_with_a_face_down_twin(legal: list[Action]) -> PlayCard | None:
    return next((a for a in legal if isinstance(a, PlayCard) and not a.face_down and DOWN[a.card] in legal), None)


def test_a_first_card_that_may_go_face_down_is_expanded_face_down() -> None:
    """``court-piece-double-sir``: a decision where a card may be played face up or face down."""
    rules = rules_for("court-piece-double-sir")
    rng = random.Random(3)
    for seed in range(500):
        state = HandState(rules, Deal.from_seed(rules, seed), 0)
        while not state.is_over and (state.decision is not Decision.PLAY
                                     or face_up_with_a_face_down_twin(state.legal_actions()) is None):
            state.apply(rng.choice(state.legal_actions()))
        face_up = None if state.is_over else face_up_with_a_face_down_twin(state.legal_actions())
        if face_up is None:
            continue
        seat = state.to_move
        assert seat is not None
        grown = grow(observe(state, seat), random.Random(1), math.inf, 1, first=face_up)
        assert set(grown.root.children) == {DOWN[face_up.card]}
        return
    pytest.fail("no face-down choice in 500 deals")


def test_every_iteration_adds_its_squared_value() -> None:
    state = a_card_decision(7)
    seat = state.to_move
    assert seat is not None
    grown = grow(observe(state, seat), random.Random(5), math.inf, 120)
    children = list(grown.root.children.values())
    for child in children:  # the mean of the squares is at least the square of the mean
        assert child.squares >= child.total ** 2 / child.visits - 1e-9
    assert any(child.squares > 0 for child in children)


def test_the_prior_arm_with_no_override_plays_the_heuristics_cards() -> None:
    """With an infinite threshold the arm keeps the heuristic's card at every decision, so its
    match is the four heuristics' own: every deal pair drawn (the control's result)."""
    true_hand = TrueHand()
    north, south = (IsmctsBot(40, seed=seat, prior=True, confidence=math.inf) for seat in (0, 2))
    outcome = play_table([north, HeuristicBot(), south, HeuristicBot()], true_hand, 2, "dehla-pakad", 3)
    assert outcome.faults == [] and north.decisions > 0
    assert outcome.deal_scores == [0.0, 0.0]
    plain = [IsmctsBot(40, seed=seat) for seat in (0, 2)]
    played = play_table([plain[0], HeuristicBot(), plain[1], HeuristicBot()], TrueHand(), 2, "dehla-pakad", 3)
    assert played.deal_scores != [0.0, 0.0]  # without the prior the tree's cards differ


def test_with_a_model_the_other_teams_seats_play_its_card_inside_the_tree() -> None:
    """On a known deal, the node after each of the root's cards where an opponent moves next has
    the model's answer as its only child (the model answers only for the opponents)."""
    state = a_card_decision(7)
    seat = state.to_move
    assert seat is not None

    def lowest(deal: HandState) -> Action | None:
        mover = deal.to_move
        assert mover is not None
        return None if (mover - seat) % 2 == 0 else min(deal.legal_actions(), key=str)

    grown = grow(observe(state, seat), random.Random(3), math.inf, 400, lambda _: state.clone(), model=lowest)
    replies_with_a_choice = 0
    for action, child in grown.root.children.items():
        after = state.clone()
        after.apply(action)
        if after.is_over or child.visits < 2:
            continue
        assert set(child.children) == {lowest(after)}
        replies_with_a_choice += len(after.legal_actions()) > 1
    assert replies_with_a_choice > 0  # the model chose where the tree would have had a choice


def test_the_cycled_arm_searches_the_same_few_uniform_deals_in_turn() -> None:
    bot, _ = team_for("ismcts:40+cycled4", TrueHand(), 50)
    assert isinstance(bot, IsmctsBot)
    state = a_card_decision(7)
    assert state.to_move is not None
    view = BotView(observe(state, state.to_move), 1.0, 30.0)
    deals = bot._deals(view)
    assert deals is not None
    hands = [tuple(deals(i).hand(s) for s in range(4)) for i in range(12)]
    assert len(set(hands[:4])) == 4 and hands[4:8] == hands[:4] and hands[8:] == hands[:4]


def test_the_model_arm_answers_for_the_other_team_only_with_the_heuristics_card() -> None:
    bot = IsmctsBot(10, model=True)
    state = a_card_decision(11)
    me = state.to_move
    assert me is not None
    answer = bot._opponents(me)
    assert answer(state) is None  # the searching seat's own move is the tree's
    state.apply(state.legal_actions()[0])
    while not state.is_over:
        mover = state.to_move
        assert mover is not None
        expected = None if (mover - me) % 2 == 0 else HeuristicBot().decide(BotView(observe(state, mover), 1.0, 30.0))
        assert answer(state) == expected
        state.apply(state.legal_actions()[0])
