"""The expert's heuristic replies (``sample_bots/expert/replies.py``): the trick in progress is
finished with the heuristic's own cards, each seat on its own view, and nothing more is played."""

from __future__ import annotations

import random

import pytest

from arena.engine.deal import Deal
from arena.engine.hand import Decision, HandState
from arena.engine.observation import observe
from arena.engine.rules import rules_for
from sample_bots.expert.replies import finish_trick
from sample_bots.heuristic.bot import HeuristicBot
from sdk.bot import BotView


def _mid_trick(seed: int) -> HandState:
    """A seeded deal played at random past the trump call to a trick with one to three cards down."""
    rules = rules_for("dehla-pakad")
    rng = random.Random(seed)
    state = HandState(rules, Deal.from_seed(rules, seed), seed % 4)
    while state.decision is not Decision.PLAY or not state.trick_cards or rng.random() < 0.85:
        state.apply(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("seed", range(12))
def test_the_trick_is_finished_with_the_heuristics_cards(seed: int) -> None:
    state = _mid_trick(seed)
    tricks = len(state.tricks)
    expected = state.clone()
    heuristic = HeuristicBot()
    while len(expected.tricks) == tricks:
        seat = expected.to_move
        assert seat is not None
        expected.apply(heuristic.decide(BotView(observe(expected, seat), 1.0, 30.0)))
    finish_trick(state, heuristic)
    assert len(state.tricks) == tricks + 1 and not state.trick_cards  # this trick only, no further card
    assert state.tricks[-1] == expected.tricks[-1]


def test_nothing_is_played_between_tricks() -> None:
    state = _mid_trick(3)
    while state.trick_cards:
        state.apply(state.legal_actions()[0])
    before = (len(state.tricks), state.to_move)
    finish_trick(state, HeuristicBot())
    assert (len(state.tricks), state.to_move) == before
