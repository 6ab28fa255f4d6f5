"""The search bot's play of Twenty-eight and Twenty-nine: determinized rollouts.

For a play decision with a choice, it draws worlds consistent with what the table showed
(``sdk.bidding_sampling``: hand sizes, the suits a seat failed to follow, the face-down card
among the cards it has not seen), then plays each legal action out to the end with the heuristic
at every seat and keeps the action with the best mean result for its side. The auction and the
face-down card are the heuristic's.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

from arena.engine.actions import PLAY, REVEAL, PlayCard
from arena.engine.bidding_hand import BiddingAction, BiddingHand
from arena.engine.bidding_observation import observe_bidding
from arena.engine.seats import team_of
from sample_bots.heuristic import bidding as heuristic
from sdk.bidding_sampling import BiddingSampler, InconsistentViewError
from sdk.bot import BiddingView

POINTS_WEIGHT = 0.02
"""A card point's worth next to a game point, to break ties between equal contract outcomes."""


def rollout_value(state: BiddingHand, team: int) -> float:
    """Play ``state`` out with the heuristic at every seat; the result for ``team``."""
    while not state.is_over:
        seat = state.to_move
        assert seat is not None
        view = BiddingView(observe_bidding(state, seat), 1.0, 0.0)
        card = heuristic.choose_play(view)
        state.apply(REVEAL if card is None else PLAY[card])
    result = state.result
    assert result is not None
    sign = 1 if result.bidding_team == team else -1
    return sign * result.game_points + POINTS_WEIGHT * (result.points[team] - result.points[1 - team])


def choose(view: BiddingView, rng: random.Random, deadline: float, max_worlds: int = 24) -> BiddingAction | None:
    """The legal action with the best mean rollout over sampled worlds, or ``None`` (no world
    found in time: the caller plays the heuristic's move)."""
    obs = view.observation
    legal: Sequence[BiddingAction] = obs.legal_actions
    team = team_of(obs.seat)
    totals = dict.fromkeys(legal, 0.0)
    try:
        sampler = BiddingSampler(obs)
    except InconsistentViewError:
        return None
    worlds = 0
    while worlds < max_worlds and time.perf_counter() < deadline:
        try:
            _, state = sampler.sample_world(rng)
        except InconsistentViewError:
            return None
        worlds += 1
        for action in legal:
            trial = state.clone()
            trial.apply(action)
            totals[action] += rollout_value(trial, team)
    if worlds == 0:
        return None
    return max(legal, key=lambda a: (totals[a], isinstance(a, PlayCard)))
