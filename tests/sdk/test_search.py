"""The search sample bot: legal everywhere, within its move budget, exact in the endgame, strong.

Fast checks only (a few in-process deals at a tiny budget); the strength figures against the
heuristic bot are in ``docs/bots.md`` and come from ``bench/search.py`` and ``dehla match``.
"""

from __future__ import annotations

import math
import random

import pytest

from arena.contract.faults import FaultPolicy
from arena.contract.messages import MatchStart
from arena.contract.time_control import MoveRelease, TimeControl
from arena.engine.actions import PlayCard
from arena.engine.deal import Deal
from arena.engine.hand import HandState
from arena.engine.match import MatchFormat
from arena.engine.observation import observe
from arena.engine.rules import PRESETS, rules_for
from arena.referee.in_process import play_in_process
from arena.referee.stats import mean_interval
from sample_bots.heuristic.bot import HeuristicBot
from sample_bots.random.bot import RandomBot
from sample_bots.search.bot import SearchBot, SearchBudget, reward, solve
from sdk.bot import BotView

BUDGET_S = 0.01
SLACK_S = 0.03
"""Allowed overrun of a move (a loaded test machine; one world may finish after the deadline)."""


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_preset_plays_without_faults_within_the_budget(preset: str) -> None:
    bots = [SearchBot(0, SearchBudget(max_per_move=BUDGET_S)), HeuristicBot(),
            SearchBot(2, SearchBudget(max_per_move=BUDGET_S)), RandomBot(3)]
    outcome = play_in_process(bots, deals=2, seed=3, preset=preset)
    assert outcome.status == "done" and not outcome.faults
    assert len(outcome.deal_scores) == 2
    times = sorted(bots[0].move_times + bots[2].move_times)  # type: ignore[attr-defined]
    assert times and times[len(times) // 2] <= BUDGET_S + SLACK_S
    assert times[-1] <= BUDGET_S + 0.5  # a busy machine can stall any process for a while


SEARCH_RULES = {preset: rules_for(preset) for preset in PRESETS} | {
    # Seed 003's trump variants: the search samples a blind face-down card for its holder too.
    "court-piece decline=second_packet": rules_for("court-piece", {"decline": "second_packet"}),
    "court-piece-double-sir hidden_blind=true": rules_for("court-piece-double-sir", {"hidden_blind": True}),
    "dehla-pakad-hidden hidden_blind=true": rules_for("dehla-pakad-hidden", {"hidden_blind": True}),
}


@pytest.mark.parametrize("preset", list(SEARCH_RULES))
def test_every_decision_is_legal(preset: str) -> None:
    rules = SEARCH_RULES[preset]
    bot = SearchBot(1, SearchBudget(max_per_move=0.003))
    rng = random.Random(7)
    state = HandState(rules, Deal.from_seed(rules, 17), 1)
    while not state.is_over:
        seat = state.to_move
        assert seat is not None
        action = bot.decide(BotView(observe(state, seat), 1.0, 30.0))
        assert action in state.legal_actions()
        # Mix in random moves so the bot meets positions it would not reach by itself.
        state.apply(action if rng.random() < 0.7 else rng.choice(state.legal_actions()))


def test_deadline_uses_the_clock_and_the_cap() -> None:
    bot = SearchBot(0, SearchBudget())
    state = HandState(rules_for("dehla-pakad"), Deal.from_seed(rules_for("dehla-pakad"), 1), 0)
    view = BotView(observe(state, state.first_player), 1.0, 30.0)
    assert 0.5 < bot._deadline(view, 0.0) < 1.5
    capped = SearchBot(0, SearchBudget(max_per_move=0.05))
    assert capped._deadline(view, 0.0) <= 0.05
    broke = BotView(view.observation, 1.0, 0.0)
    assert bot._deadline(broke, 0.0) < 1.0


def test_at_slot_end_the_search_keeps_within_the_slot_and_leaves_the_bank() -> None:
    """Under slot-end release an overrun spends the whole bank: the search never plans one."""
    bot = SearchBot(0, SearchBudget())
    state = HandState(rules_for("dehla-pakad"), Deal.from_seed(rules_for("dehla-pakad"), 1), 0)
    view = BotView(observe(state, state.first_player), 1.0, 30.0)
    rules = rules_for("dehla-pakad")
    bot.on_match_start(MatchStart("m", 0, 2, "dehla-pakad", rules, MatchFormat.parse("hands:1"),
                                  TimeControl(release=MoveRelease.SLOT_END), FaultPolicy.FORFEIT, 1))
    assert 0.65 < bot._deadline(view, 0.0) < 0.75
    bot.on_match_start(MatchStart("m", 0, 2, "dehla-pakad", rules, MatchFormat.parse("hands:1"),
                                  TimeControl(), FaultPolicy.FORFEIT, 1))
    assert bot._deadline(view, 0.0) > 1.0, "the control: on reply it sips the bank"


def _minimax(state: HandState, team: int) -> float:
    """Plain minimax over every legal action (no pruning), to check the solver against."""
    if state.is_over:
        return reward(state.rules, state, team)
    values = []
    for action in state.legal_actions():
        child = state.clone()
        child.apply(action)
        values.append(_minimax(child, team))
    seat = state.to_move
    assert seat is not None
    return max(values) if seat & 1 == team else min(values)


@pytest.mark.parametrize("preset", ["dehla-pakad", "mendikot", "court-piece-double-sir", "dehla-pakad-cut"])
def test_solver_matches_plain_minimax_in_the_endgame(preset: str) -> None:
    rules = rules_for(preset)
    for seed in range(8):
        rng = random.Random(seed)
        state = HandState(rules, Deal.from_seed(rules, seed), seed % 4)
        target = 4 * (rules.hand_size - 2) - rng.randrange(0, 3)
        plays = 0
        while plays < target:
            action = rng.choice(state.legal_actions())
            state.apply(action)
            plays += isinstance(action, PlayCard)
        for team in (0, 1):
            exact = _minimax(state.clone(), team)
            assert math.isclose(solve(state.clone(), rules, team), exact), seed


def test_beats_random_clearly() -> None:
    bots = [SearchBot(0, SearchBudget(max_per_move=0.005)), RandomBot(1),
            SearchBot(2, SearchBudget(max_per_move=0.005)), RandomBot(3)]
    outcome = play_in_process(bots, deals=12, seed=2, preset="dehla-pakad")
    assert outcome.status == "done" and not outcome.faults
    stats = mean_interval(outcome.deal_scores)
    assert stats.mean > 0.5 and stats.won_share > 0.6, stats
