"""A briefly trained policy beats random play clearly more than the untrained network it started from.

Seeded and small (a few seconds): the heuristic's choices on 100 hands cloned, one PPO iteration
on 64 tables, then 400 duplicate deal pairs each against random play in the vector environment.
The untrained network plays about as random play does; a trainer that learned nothing, or learned
backwards (a sign error in a gradient), fails the margin."""

from __future__ import annotations

import numpy as np

from sample_bots.heuristic.bot import HeuristicBot
from sdk.encoding import OFFSETS
from sdk.learn.evaluation import against_random
from sdk.learn.imitation import teacher_decisions
from sdk.learn.training import Stage, TrainConfig, train
from sdk.policy_network import PolicyNetwork

BRIEF = TrainConfig(tables=64, hidden=64, iterations=1, teacher_hands=100, imitation_epochs=20, seed=5)


def test_a_briefly_trained_policy_beats_random_play_far_more_than_an_untrained_one() -> None:
    result = train(BRIEF, teacher=HeuristicBot())
    assert [r.stage for r in result.history] == [Stage.IMITATION] * 20 + [Stage.PPO]
    losses = [r.entropy for r in result.history[:20]]
    assert losses[-1] < losses[0], f"the cross-entropy to the teacher fell: {losses}"
    untrained = against_random(PolicyNetwork.initial(BRIEF.hidden, BRIEF.seed), 400, seed=11)
    trained = against_random(result.network, 400, seed=11)
    assert untrained.won_share < 0.6, untrained
    assert trained.won_share > 0.6 and trained.mean_score > untrained.mean_score + 0.5, (trained, untrained)


def test_ppo_alone_changes_the_weights_and_is_repeatable() -> None:
    config = TrainConfig(tables=32, hidden=16, iterations=2, seed=2)
    first, second = train(config), train(config)
    start = PolicyNetwork.initial(config.hidden, config.seed)
    assert [r.stage for r in first.history] == [Stage.PPO] * 2
    assert not np.array_equal(first.network.w2, start.w2)
    assert np.array_equal(first.network.w1, second.network.w1) and np.array_equal(first.network.w2, second.network.w2)


def test_the_teacher_is_recorded_at_its_own_decisions_only_and_always_legally() -> None:
    """The random seats are played from the engine's legal actions without an encoded observation;
    only team 0's decisions are recorded, each the seat to move's own view with the teacher's
    action legal in its mask."""
    decisions = teacher_decisions(HeuristicBot(), 4, seed=3)
    rows = np.arange(len(decisions.actions))
    assert decisions.masks[rows, decisions.actions].all()
    start = OFFSETS["to_move"].start
    assert (decisions.observations[:, start] == 1.0).all(), "every recorded view is of the seat to move"
    plays = (decisions.actions < 52).sum()
    assert plays == 4 * 26, f"two seats' 13 cards each in every hand, {plays} recorded"

