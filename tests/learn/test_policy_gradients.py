"""Training's hand-written gradients are the loss's: checked against finite differences.

The network's gradients are written out by hand (``sdk.learn.training``, numpy: no autodiff
library); a wrong one would not crash, only train worse. Along each parameter's own gradient
the loss's central difference must equal the gradient's length, for one hidden layer and for
deeper networks (``TrainConfig.deep``). The parameters are made float64 for the check, so a
small step is exact enough."""

from __future__ import annotations

import numpy as np
import pytest

from sdk.learn.training import TrainConfig, _Learner
from sdk.learn.vector import DehlaVectorEnv
from sdk.policy_network import PolicyNetwork


@pytest.mark.parametrize("deep", [0, 1, 2])
def test_each_parameter_s_gradient_is_the_loss_s_slope(deep: int) -> None:
    rng = np.random.default_rng(deep)
    learner = _Learner(PolicyNetwork.initial(16, 0, deep), TrainConfig(hidden=16, deep=deep), rng)
    for name, array in learner.params.items():  # off the initial weights' zeros, in float64
        learner.params[name] = array + rng.standard_normal(array.shape) * 0.05
    observations, _ = DehlaVectorEnv(8, "dehla-pakad", learning_seats=(0, 2)).reset(seed=3)
    x, masks = observations["observation"].astype(np.float64), observations["action_mask"].astype(bool)
    actions, targets, rows = np.argmax(masks, axis=1), rng.standard_normal(8), np.arange(8)

    def loss() -> float:
        """Cross-entropy of ``actions`` plus the values' squared error to ``targets``."""
        forward = learner.forward(x, masks)  # type: ignore[arg-type]
        return float(-forward.log_probs[rows, actions].astype(np.float64).sum()
                     + ((forward.values - targets) ** 2).sum())

    forward = learner.forward(x, masks)  # type: ignore[arg-type]
    d_logits = np.exp(forward.log_probs) * masks
    d_logits[rows, actions] -= 1.0
    gradients = learner.gradients(x, forward, d_logits, 2.0 * (forward.values - targets))  # type: ignore[arg-type]
    assert len(gradients) == len(learner.params) == 8 + 2 * deep
    step = 1e-4
    for name, gradient in gradients.items():
        length = float(np.linalg.norm(gradient))
        direction = gradient / length
        original = learner.params[name].copy()
        learner.params[name] = original + step * direction
        above = loss()
        learner.params[name] = original - step * direction
        below = loss()
        learner.params[name] = original
        assert (above - below) / (2 * step) == pytest.approx(length, rel=2e-3), name
