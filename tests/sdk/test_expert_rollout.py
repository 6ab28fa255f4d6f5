"""The expert's policy rollouts (``sample_bots/expert/rollout.py``): each team's policy plays its
own seats, on their own views, and a rollout cut to no trick is the greedy playout."""

from __future__ import annotations

import random

import pytest

from arena.engine.actions import Action
from arena.engine.deal import Deal
from arena.engine.hand import HandState
from arena.engine.rules import rules_for
from bench.ceiling import play_table, team_for
from bench.clairvoyant import TrueHand
from bench.sampled_search import SampledSearchBot
from sample_bots.expert.bot import ExpertBot
from sample_bots.expert.playout import playout
from sample_bots.expert.rollout import rollout
from sample_bots.heuristic.bot import HeuristicBot
from sample_bots.search.bot import SearchBudget
from sdk.bot import BotView
from tests.heuristic_helpers import Recording


def _position(preset: str, seed: int) -> HandState:
    """A hand after a seeded number of random actions (the call among them)."""
    rules = rules_for(preset)
    rng = random.Random(seed)
    state = HandState(rules, Deal.from_seed(rules, seed), seed % 4)
    for _ in range(rng.randrange(1, 3 * rules.hand_size)):
        state.apply(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("tricks", [None, 2])
def test_each_teams_policy_plays_its_own_seats_only(tricks: int | None) -> None:
    state = _position("dehla-pakad", 3)
    team = 1
    partners, opponents = Recording(), Recording()
    rollout(state, team, partners, opponents, tricks)
    assert partners.seats and set(partners.seats) <= {1, 3}
    assert opponents.seats and set(opponents.seats) <= {0, 2}
    if tricks is None:
        assert set(partners.seats) == {1, 3} and set(opponents.seats) == {0, 2}
    else:  # two tricks' worth of choices at most, then the greedy rule
        assert len(partners.seats) + len(opponents.seats) <= 8


@pytest.mark.parametrize("preset", ["dehla-pakad", "dehla-pakad-cut", "mendikot", "court-piece"])
def test_a_rollout_cut_to_no_trick_is_the_greedy_playout(preset: str) -> None:
    for seed in range(20):
        state = _position(preset, seed)
        if state.is_over or state.hidden_card is not None:
            continue
        team = seed & 1
        asked = Recording()
        assert rollout(state.clone(), team, asked, asked, 0) == playout(state.clone(), state.rules, team)
        assert asked.seats == []


class Lowest(HeuristicBot):
    """The first legal action, whatever it is."""

    def decide(self, view: BotView) -> Action:
        return view.observation.legal_actions[0]


def test_the_policies_decide_the_value() -> None:
    """The same worlds finished by the heuristic against itself and by a team that always plays
    its lowest legal card: the heuristic is the better policy on most of them."""
    better = worse = 0
    for seed in range(40):
        state = _position("dehla-pakad", seed)
        if state.is_over:
            continue
        team = seed & 1
        heuristic = rollout(state.clone(), team, HeuristicBot(), HeuristicBot())
        lowest = rollout(state.clone(), team, Lowest(), HeuristicBot())
        better += heuristic > lowest
        worse += heuristic < lowest
    assert better > 3 * worse


def test_the_expert_rolls_out_with_its_model_of_the_other_team() -> None:
    """With ``rollouts`` the expert's worlds before the endgame are finished by the heuristic it
    models for the other seats; without, it never asks that model for a card."""
    asked = {}
    for rollouts in (0, 13):
        true_hand = TrueHand()
        north = ExpertBot(0, SearchBudget(max_per_move=0.03), rollouts=rollouts)
        south = ExpertBot(2, SearchBudget(max_per_move=0.03), rollouts=rollouts)
        model = Recording()
        north._heuristic = model
        outcome = play_table([north, HeuristicBot(), south, HeuristicBot()], true_hand, 1, "dehla-pakad", 2)
        assert outcome.faults == []
        asked[rollouts] = set(model.seats)
    assert asked[0] == set()
    assert asked[13] == {1, 3}


def test_the_sampled_rollout_arm() -> None:
    north, _ = team_for("sampled+rollout2+w3+z10", TrueHand(), 50)
    assert isinstance(north, SampledSearchBot)
    assert north.worlds == 3 and north.confidence == 1.0
    assert north.search.partners is not None and north.search.model_tricks == 2


@pytest.mark.parametrize(("rows", "chosen"), [
    ([(0.0, 1.0), (0.0, 1.0), (0.0, 2.0)], 1),   # the second better on every world
    ([(0.0, 3.0), (0.0, -2.0), (0.0, -0.5)], 0),  # better on the mean, but within the noise
    ([(1.0, 0.0), (1.0, 0.0)], 0),                # the heuristic's own card is the best
])
def test_an_override_needs_its_standard_errors(rows: list[tuple[float, ...]], chosen: int) -> None:
    bot = SampledSearchBot(confidence=1.0)
    assert bot._choose(rows, 2) == chosen
    assert SampledSearchBot()._choose(rows, 2) == (1 if sum(r[1] - r[0] for r in rows) > 0 else 0)
