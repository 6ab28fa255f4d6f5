"""A briefly trained policy beats random play clearly more than the untrained network it started from;
the run's work is fixed by its config, and the wall-clock safety cap says when it cut a run short.

Seeded and small (a few seconds): the heuristic's choices on 100 hands cloned, one PPO iteration
on 64 tables, then 400 duplicate deal pairs each against random play in the vector environment.
The untrained network plays about as random play does; a trainer that learned nothing, or learned
backwards (a sign error in a gradient), fails the margin."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from arena.bots.scaffold import Template, scaffold_bot
from sample_bots.heuristic.bot import HeuristicBot
from sdk.encoding import OFFSETS
from sdk.learn.errors import LearnEnvError
from sdk.learn.evaluation import against_random
from sdk.learn.imitation import teacher_decisions
from sdk.learn.train import PROVENANCE_FILE, main
from sdk.learn.training import Stage, TrainConfig, _falling, train
from sdk.policy_bot import WEIGHTS_FILE
from sdk.policy_ensemble import MAX_MEMBERS, load_policy
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


def test_ppo_s_step_falls_to_its_final_value_and_a_constant_one_is_the_old_run() -> None:
    """The falling step changes the weights from the second iteration on; falling to the step it starts
    at is a constant step, bit for bit the run without the fall."""
    constant = TrainConfig(tables=32, hidden=16, iterations=2, seed=2, ppo_final_learning_rate=None)
    unchanged = train(replace(constant, ppo_final_learning_rate=constant.learning_rate)).network
    falling = train(replace(constant, ppo_final_learning_rate=1e-4)).network
    before = train(constant).network
    names = ("w1", "b1", "w2", "b2", "w3", "b3")
    assert all(np.array_equal(getattr(unchanged, n), getattr(before, n)) for n in names)
    assert not np.array_equal(falling.w1, before.w1)
    assert _falling(1e-3, 1e-4, 0.0) == 1e-3 and _falling(1e-3, 1e-4, 0.5) == pytest.approx(5.5e-4)
    with pytest.raises(LearnEnvError, match="learning rates must be positive"):
        TrainConfig(ppo_final_learning_rate=-1e-4)


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



def test_the_work_is_fixed_and_the_safety_cap_says_when_it_cut_a_run_short() -> None:
    """A run does its configured iterations whatever the clock says; only the safety cap stops it
    early, and then the result says how much of the planned work was done."""
    whole = train(TrainConfig(tables=8, hidden=8, iterations=3, seed=1))
    assert whole.cut_short is None and [r.stage for r in whole.history] == [Stage.PPO] * 3
    assert all(r.cpu >= 0 for r in whole.history) and whole.cpu_seconds > 0
    capped = train(TrainConfig(tables=8, hidden=8, iterations=3, seed=1, max_seconds=1e-9))
    assert capped.history == () and capped.cut_short is not None
    assert (capped.cut_short.iterations_done, capped.cut_short.iterations_planned) == (0, 3)
    assert "cut training short" in capped.cut_short.message()


def test_a_cut_short_run_is_recorded_in_its_training_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = scaffold_bot("capped", tmp_path, template=Template.POLICY)
    assert main([str(folder), "--iterations", "2", "--tables", "8", "--hidden", "8", "--max-seconds", "1e-9",
                 "--eval-pairs", "0", "--members", "1"]) == 0
    assert "warning: member 0: the safety cap" in capsys.readouterr().err
    provenance = json.loads((folder / PROVENANCE_FILE).read_text())
    assert provenance["cut_short"]["iterations_done"] == 0 and provenance["cut_short"]["iterations_planned"] == 2
    assert provenance["cut_short"]["member"] == 0 and provenance["members"][0]["cut_short"]["iterations_done"] == 0
    assert provenance["config"]["iterations"] == 2 and "train_cpu_seconds" in provenance
    assert isinstance(load_policy(folder / WEIGHTS_FILE), PolicyNetwork), "one member: a plain network's file"


@pytest.mark.parametrize(("members", "message"), [
    ("0", "invalid choice: 0 (choose from 1, 2, 3, 4, 5, 6, 7, 8)"),
    (str(MAX_MEMBERS + 1), f"invalid choice: {MAX_MEMBERS + 1} (choose from 1,"),
    ("two", "invalid int value: 'two'"),
])
def test_a_number_of_members_out_of_range_is_refused(tmp_path: Path, members: str, message: str,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    folder = scaffold_bot("many", tmp_path, template=Template.POLICY)
    with pytest.raises(SystemExit) as refused:
        main([str(folder), "--members", members])
    assert refused.value.code == 2 and f"argument --members: {message}" in capsys.readouterr().err
