"""The expert sample bot: legal and within its budget on every preset; its weighted choice.

Fast checks only (a deal in process at a tiny budget); the strength figures are in
``docs/bots.md`` (``dehla match``, ``bench/expert.py``).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.engine.deal import Deal
from arena.engine.hand import HandState
from arena.engine.observation import observe
from arena.engine.rules import PRESETS, rules_for
from arena.referee.in_process import play_in_process
from sample_bots.expert.bot import ExpertBot, choose_weighted, effective_size, move_ceiling
from sample_bots.heuristic.bot import HeuristicBot
from sample_bots.search.bot import SearchBudget, _choose
from sdk.bot import BotView

BUDGET_S = 0.01
SLACK_S = 0.03
"""Allowed overrun of a move's median (a loaded test machine; one world may finish late)."""


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_preset_plays_without_faults_within_the_budget(preset: str) -> None:
    bots = [ExpertBot(0, SearchBudget(max_per_move=BUDGET_S)), HeuristicBot(),
            ExpertBot(2, SearchBudget(max_per_move=BUDGET_S)), HeuristicBot()]
    outcome = play_in_process(bots, deals=1, seed=5, preset=preset)
    assert outcome.status == "done" and not outcome.faults
    experts = [bots[0], bots[2]]
    times = sorted(t for bot in experts for t in bot.move_times)  # type: ignore[attr-defined]
    assert times and times[len(times) // 2] <= BUDGET_S + SLACK_S
    assert times[-1] <= BUDGET_S + 0.5  # a busy machine can stall any process for a while
    assert any(bot.worlds for bot in experts)  # type: ignore[attr-defined]


rows_strategy = st.integers(2, 4).flatmap(
    lambda width: st.lists(st.lists(st.integers(-3, 3).map(float), min_size=width, max_size=width),
                           min_size=2, max_size=30))


@settings(max_examples=200, deadline=None)
@given(rows=rows_strategy, confidence=st.sampled_from([0.53, 1.03, 1.47]))
def test_equal_weights_choose_as_the_search_bot_does(rows: list[list[float]], confidence: float) -> None:
    # (Thresholds no statistic of small integer rows hits exactly: there the two roundings may differ.)
    assert choose_weighted(rows, [0.25] * len(rows), confidence) == _choose(rows, confidence)


@settings(max_examples=100, deadline=None)
@given(rows=rows_strategy, extra=st.lists(st.integers(-3, 3).map(float), min_size=4, max_size=4))
def test_a_world_of_weight_zero_changes_nothing(rows: list[list[float]], extra: list[float]) -> None:
    width = len(rows[0])
    heavy = [1.0] * len(rows)
    assert choose_weighted([*rows, extra[:width]], [*heavy, 0.0], 1.0) == choose_weighted(rows, heavy, 1.0)


def test_the_effective_size_of_weights() -> None:
    assert effective_size([1.0, 1.0, 1.0, 1.0]) == pytest.approx(4.0)
    assert effective_size([1.0, 0.0, 0.0]) == pytest.approx(1.0)
    assert effective_size([]) == 0.0
    assert choose_weighted([[0.0, 1.0], [0.0, 1.0], [0.0, 1.0]], [1.0, 1e-9, 1e-9], 0.5) == 0  # one world: no evidence


def test_the_bank_below_its_reserve_is_never_sipped() -> None:
    from sample_bots.expert.bot import BANK_RESERVE  # noqa: PLC0415

    bot = ExpertBot(0)
    obs = observe(HandState(rules_for("dehla-pakad"), Deal.from_seed(rules_for("dehla-pakad"), 1), 0), 1)
    low = bot._deadline(BotView(obs, 1.0, BANK_RESERVE - 1.0), 0.0)
    assert low == pytest.approx(0.6 - bot.budget.reserve)
    high = bot._deadline(BotView(obs, 1.0, BANK_RESERVE + 1.0), 0.0)
    assert high == pytest.approx(0.6 + 0.05 - bot.budget.reserve)


def test_a_move_plans_to_end_its_margin_before_the_limit() -> None:
    bot = ExpertBot(0)
    obs = observe(HandState(rules_for("dehla-pakad"), Deal.from_seed(rules_for("dehla-pakad"), 1), 0), 1)
    # 50 ms a move, a full bank: version 6 planned 0.6 x 50 ms + 25 ms of bank (51 ms of search).
    assert bot._deadline(BotView(obs, 0.05, 30.0), 0.0) == pytest.approx(0.05 - 0.03 - bot.budget.reserve)
    # 1 s a move: the bank's sip (0.5 s) stops at 0.9 s.
    assert bot._deadline(BotView(obs, 1.0, 30.0), 0.0) == pytest.approx(0.9 - bot.budget.reserve)


@settings(max_examples=200, deadline=None)
@given(per_move=st.floats(0.001, 60.0), bank=st.floats(0.0, 600.0), cap=st.one_of(st.none(), st.floats(0.001, 5.0)),
       start=st.floats(0.0, 1e6))
def test_no_budget_plans_past_the_limit_less_its_margin(per_move: float, bank: float, cap: float | None,
                                                         start: float) -> None:
    bot = ExpertBot(0, SearchBudget(max_per_move=cap))
    obs = observe(HandState(rules_for("dehla-pakad"), Deal.from_seed(rules_for("dehla-pakad"), 1), 0), 1)
    margin = bot.margin.observe(per_move, bank)
    planned = bot._deadline(BotView(obs, per_move, bank), start) - start
    assert 0.0 <= planned <= max(0.0, move_ceiling(per_move, margin) - bot.budget.reserve) + 1e-9
    assert margin >= 0.1 * per_move


def test_a_higher_level_thinks_longer_and_sees_more_worlds() -> None:
    from sample_bots.expert.levels import Level, budget_for  # noqa: PLC0415

    assert budget_for(Level.FULL).max_per_move is None  # the search bot's own budget rule
    assert budget_for(Level.ONE, move_ms=20).max_per_move == pytest.approx(0.02)
    seen = {}
    for level in (Level.ONE, Level.THREE):
        bots = [ExpertBot(0, budget_for(level)), HeuristicBot(), ExpertBot(2, budget_for(level)), HeuristicBot()]
        outcome = play_in_process(bots, deals=1, seed=3)
        assert outcome.status == "done" and not outcome.faults
        worlds = sorted(n for bot in (bots[0], bots[2]) for n in bot.worlds)  # type: ignore[attr-defined]
        times = sorted(t for bot in (bots[0], bots[2]) for t in bot.move_times)  # type: ignore[attr-defined]
        seen[level] = (worlds[len(worlds) // 2] if worlds else 0, times[len(times) // 2])
    assert seen[Level.ONE][0] < seen[Level.THREE][0]
    assert seen[Level.ONE][1] < seen[Level.THREE][1]


@pytest.mark.parametrize("hand_set_numbers", [False, True])
def test_level_one_plays_the_heuristics_cards(hand_set_numbers: bool) -> None:
    """Its own heuristic's: with the expert's tuned numbers, or with ``--hand-set``'s."""
    from sample_bots.expert.levels import Level, budget_for  # noqa: PLC0415
    from sample_bots.expert.weights import TUNED_TENS, expert_weights  # noqa: PLC0415
    from sample_bots.heuristic.weights import DEFAULT_WEIGHTS, hand_set  # noqa: PLC0415

    weights, numbers = (hand_set, DEFAULT_WEIGHTS) if hand_set_numbers else (expert_weights, TUNED_TENS)
    bots = [ExpertBot(0, budget_for(Level.ONE), weights=weights), HeuristicBot(numbers),
            ExpertBot(2, budget_for(Level.ONE), weights=weights), HeuristicBot(numbers)]
    outcome = play_in_process(bots, deals=3, seed=4)
    assert outcome.status == "done" and not outcome.faults
    assert list(outcome.deal_scores) == [0] * 3  # both rooms of every deal played alike
    assert not bots[0].worlds and not bots[2].worlds  # type: ignore[attr-defined]


def test_candidates_before_the_endgame_are_the_heuristics_best_classes_of_cards() -> None:
    import random  # noqa: PLC0415

    from arena.engine.actions import PlayCard  # noqa: PLC0415
    from sample_bots.expert.weights import expert_weights  # noqa: PLC0415
    from sample_bots.search.bot import SearchBot, _distinct  # noqa: PLC0415

    rules = rules_for("dehla-pakad")
    expert, search = ExpertBot(0), SearchBot(0, weights=expert_weights)
    differs = 0
    for seed in range(40):
        rng = random.Random(seed)
        state = HandState(rules, Deal.from_seed(rules, seed), seed % 4)
        for _ in range(1 + rng.randrange(0, 20)):
            state.apply(rng.choice(state.legal_actions()))
        assert state.to_move is not None
        view = BotView(observe(state, state.to_move), 1.0, 30.0)
        legal = view.observation.legal_actions
        ours = expert._candidates(view, legal, False)
        theirs = search._candidates(view, legal, False)
        assert ours[0] == theirs[0]  # the heuristic's choice first, as in the search bot
        cards = [a for a in ours if isinstance(a, PlayCard)]
        every_class = _distinct([a for a in search._candidates(view, legal, True) if isinstance(a, PlayCard)], view)
        assert cards == every_class[: expert.budget.candidates]
        differs += cards != [a for a in theirs if isinstance(a, PlayCard)]
    assert differs  # positions where the search bot compares two cards alike
