"""Training a ``PolicyNetwork``: a teacher's choices cloned (``imitation``), then PPO on the vector
environment, in numpy.

Why numpy and not a learning library: the network is one hidden layer, the gradients are a few
matrix products, and the well-kept libraries that would do it (Stable-Baselines3, CleanRL's
scripts, RLlib) all bring torch or JAX: hundreds of megabytes in CI for what this file does.

The network's per-card head (``sdk.policy_network``: each card play scored by its facts from
``sdk.card_features``, weighted by the hidden layer) is trained with the rest; its facts are
computed from each minibatch's (renamed) observations, as the bot computes them at play time.

Given a teacher bot, the run starts by fitting the network to the teacher's decisions
(``_Learner.imitate``: cross-entropy over the legal actions, suits renamed at random); PPO then
continues from those weights. One PPO iteration deals a fresh hand at every table (``tables``),
the policy playing both seats of team 0 against random legal play, and plays it out: every
decision of the team is a sample whose return is the hand's value to the team (``reward="hand"``:
+1 won, +2 with a kot, -1/-2 lost, 0 drawn; no discount, one hand is the episode). A value head
on the same hidden layer is the baseline; PPO's clipped objective, an optional entropy bonus and
Adam update the weights for ``epochs`` passes over the iteration's samples in minibatches, Adam's
step falling linearly over the PPO iterations (1e-3 to 1e-4: measured, more pairs won than a constant
1e-3, with which they stopped rising at about 90.5%; docs/performance.md, session 19).
The amount of work is fixed by the config (teacher hands, imitation passes, PPO iterations), not
by a clock, so a run does the same computation whatever the machine's load: seeded, the same
``TrainConfig`` gives the same weights on the same machine (numpy's matrix products may differ in
the last bits between machines). ``max_seconds`` is only a safety cap on the wall clock: a run
that reaches it stops starting passes and iterations, and its result says so (``cut_short``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum

import numpy as np
import numpy.typing as npt

from sdk.bot import Bot
from sdk.card_features import card_features
from sdk.learn.errors import LearnEnvError
from sdk.learn.imitation import Decisions, teacher_decisions
from sdk.learn.symmetry import ALL_RENAMINGS
from sdk.learn.vector import DehlaVectorEnv
from sdk.policy_network import CARDS, MAX_DEEP, FloatArray, PolicyNetwork, deep_names

TEAM_SEATS = (0, 2)
MAX_HAND_STEPS = 40
"""More team decisions than any hand has (13 plays each for two seats, a trump call, reveals)."""

NEG = np.float32(-1e9)
IMITATION_MINIBATCH = 512
PPO_ITERATIONS = 120
"""The documented run's PPO iterations: about 1.5 CPU seconds each on this machine with one BLAS
thread, the whole run about 220 CPU seconds, under 4 minutes of one core (docs/performance.md,
session 18)."""
MAX_SECONDS = 570.0
"""The safety cap: the documented run's training loop stops starting work after this long, so that
a run on a slow or loaded machine still ends at about 10 minutes (cut short, and saying so)."""


@dataclass(frozen=True, slots=True)
class TrainConfig:
    """What a training run does; the defaults are the documented run (under 4 minutes of one quiet core)."""

    preset: str = "dehla-pakad"
    tables: int = 1024
    hidden: int = 128
    deep: int = 0
    """Hidden layers after the first, each ``hidden`` wide (``PolicyNetwork.deep``)."""
    iterations: int = PPO_ITERATIONS
    """PPO iterations (each ``tables`` hands): with ``teacher_hands`` and ``imitation_epochs``, the
    run's fixed amount of work."""
    max_seconds: float = MAX_SECONDS
    """A safety cap on the training loop's wall clock, not a budget: past it no pass or iteration
    starts, and the result's ``cut_short`` says how much was left undone."""
    epochs: int = 4
    minibatch: int = 4096
    learning_rate: float = 1e-3
    """Adam's step size while imitating (and for PPO when there is no teacher)."""
    ppo_learning_rate: float = 1e-3
    """Adam's step size for PPO after imitation (measured: 3e-4 and 2 passes moved the imitated policy
    about half as far in the same iterations, docs/performance.md)."""
    ppo_final_learning_rate: float | None = 1e-4
    """PPO's step falls linearly over the iterations from its first value (``ppo_learning_rate`` after
    imitation, ``learning_rate`` without) to this; ``None`` keeps it constant (measured: the fall from
    1e-3 to 1e-4 won about a point more pairs outright than a constant 1e-3, +0.9 on 10,000 pairs
    a seed; docs/performance.md, session 19)."""
    clip: float = 0.2
    entropy: float = 0.0
    """Weight of the entropy bonus (none by default: the imitated policy starts far from greedy)."""
    value_weight: float = 0.5
    seed: int = 0
    teacher_hands: int = 3000
    """Hands the teacher plays for the warm start (when ``train`` is given a teacher)."""
    imitation_epochs: int = 12
    rename_suits: bool = True
    """Show each imitation minibatch with its suits renamed at random (``symmetry``): more lessons per
    teacher decision."""

    def __post_init__(self) -> None:
        if self.tables < 1 or self.hidden < 1 or self.epochs < 1 or self.minibatch < 1:
            raise LearnEnvError("tables, hidden, epochs and minibatch must be positive")
        if not 0 <= self.deep <= MAX_DEEP:
            raise LearnEnvError(f"deep must be 0 to {MAX_DEEP} hidden layers after the first, not {self.deep}")
        if self.iterations < 0 or self.imitation_epochs < 0 or self.teacher_hands < 0:
            raise LearnEnvError("iterations, imitation_epochs and teacher_hands must be zero or more, not "
                                f"{self.iterations}, {self.imitation_epochs} and {self.teacher_hands}")
        steps = (self.learning_rate, self.ppo_learning_rate, self.ppo_final_learning_rate)
        if any(step is not None and not step > 0 for step in steps):
            raise LearnEnvError(f"the learning rates must be positive, not {steps}")
        if self.max_seconds <= 0:
            raise LearnEnvError(f"max_seconds must be positive, not {self.max_seconds}")


class Stage(StrEnum):
    IMITATION = "imitation"
    PPO = "ppo"


@dataclass(frozen=True, slots=True)
class IterationReport:
    """One iteration's figures: the decisions learned from so far, the hands' mean value to the
    policy's team (PPO; NaN in imitation) and the entropy of its choices (PPO) or the
    cross-entropy to the teacher's (imitation)."""

    iteration: int
    elapsed: float
    cpu: float
    """The process's CPU seconds since the run started (all threads): the load-robust measure."""
    samples: int
    mean_value: float
    entropy: float
    stage: Stage


@dataclass(frozen=True, slots=True)
class CutShort:
    """The safety cap stopped the run before its planned work: what was done of it."""

    max_seconds: float
    imitation_epochs_done: int
    imitation_epochs_planned: int
    iterations_done: int
    iterations_planned: int

    def message(self) -> str:
        return (f"the safety cap of {self.max_seconds:.0f} s cut training short: {self.imitation_epochs_done} of "
                f"{self.imitation_epochs_planned} imitation passes and {self.iterations_done} of "
                f"{self.iterations_planned} PPO iterations done (the machine was slower or busier than "
                "planned; these weights are a shorter run's)")


@dataclass(frozen=True, slots=True)
class TrainResult:
    network: PolicyNetwork
    iterations: int
    samples: int
    seconds: float
    cpu_seconds: float
    teacher_seconds: float
    """Wall seconds of the teacher's hands (0 without a teacher)."""
    teacher_cpu_seconds: float
    cut_short: CutShort | None = None
    history: tuple[IterationReport, ...] = field(default=())


@dataclass(frozen=True, slots=True)
class _Forward:
    layers: list[FloatArray]
    """Every hidden layer's activations, first to last."""
    hidden: FloatArray
    features: FloatArray
    log_probs: FloatArray
    values: FloatArray


@dataclass
class _Batch:
    observations: FloatArray
    features: FloatArray
    masks: npt.NDArray[np.bool_]
    actions: npt.NDArray[np.int64]
    log_probs: FloatArray
    returns: FloatArray
    mean_value: float


class _Learner:
    """The network plus a value head and Adam's moments: the state of a training run."""

    def __init__(self, network: PolicyNetwork, config: TrainConfig, rng: np.random.Generator) -> None:
        self.config = config
        hidden = network.hidden
        self.params: dict[str, FloatArray] = {
            name: array.copy() for name, array in network.arrays().items()
        } | {"wv": (rng.standard_normal(hidden) * 0.01).astype(np.float32), "bv": np.zeros(1, np.float32)}
        self.deep = len(network.deep)
        self.moments = {k: (np.zeros_like(v), np.zeros_like(v)) for k, v in self.params.items()}
        self.steps = 0
        self.rate = config.learning_rate

    @property
    def network(self) -> PolicyNetwork:
        view = self.network_view
        return PolicyNetwork(view.w1.copy(), view.b1.copy(), view.w2.copy(), view.b2.copy(), view.w3.copy(),
                             view.b3.copy(), tuple((w.copy(), b.copy()) for w, b in view.deep))

    def forward(self, x: FloatArray, masks: npt.NDArray[np.bool_], features: FloatArray | None = None) -> _Forward:
        """Hidden activations, the card facts (``features``, if already computed for ``x``),
        log-probabilities over the legal actions, values (the network's own ``scores_from``: the
        trained and the played forward pass are one)."""
        p = self.params
        network = self.network_view
        layers = network.hidden_layers(x)
        h = layers[-1]
        if features is None:
            features = card_features(x)
        logits = np.where(masks, network.scores_from(h, features), NEG)
        logits -= logits.max(axis=1, keepdims=True)
        log_probs = logits - np.log(np.exp(logits).sum(axis=1, keepdims=True))
        values = h @ p["wv"] + p["bv"][0]
        return _Forward(layers, h, features, log_probs.astype(np.float32), values.astype(np.float32))

    @property
    def network_view(self) -> PolicyNetwork:
        """The network over the live parameters (no copies: for the forward pass)."""
        p = self.params
        deep = tuple((p[deep_names(k)[0]], p[deep_names(k)[1]]) for k in range(1, self.deep + 1))
        return PolicyNetwork(p["w1"], p["b1"], p["w2"], p["b2"], p["w3"], p["b3"], deep)

    def act(self, x: FloatArray, masks: npt.NDArray[np.bool_], rng: np.random.Generator
            ) -> tuple[npt.NDArray[np.int64], FloatArray, FloatArray]:
        """Draw an action per row from the policy; its log-probability; the rows' card facts (kept
        for the updates: about 70 ms per 4,096 rows, five times per row)."""
        forward = self.forward(x, masks)
        log_probs = forward.log_probs
        gumbel = -np.log(-np.log(rng.random(log_probs.shape, dtype=np.float32) + np.float32(1e-12)))
        actions = np.argmax(log_probs + gumbel, axis=1).astype(np.int64)  # the Gumbel-max draw
        return actions, log_probs[np.arange(len(x)), actions], forward.features

    def update(self, batch: _Batch, rng: np.random.Generator) -> float:
        """PPO's epochs over the batch; the mean entropy of the last pass."""
        c = self.config
        n = len(batch.actions)
        entropy = 0.0
        for _ in range(c.epochs):
            order = rng.permutation(n)
            for start in range(0, n, c.minibatch):
                rows = order[start:start + c.minibatch]
                entropy = self._step(batch, rows)
        return entropy

    def _step(self, batch: _Batch, rows: npt.NDArray[np.int64]) -> float:
        c = self.config
        x, masks, actions = batch.observations[rows], batch.masks[rows], batch.actions[rows]
        returns, old = batch.returns[rows], batch.log_probs[rows]
        m = len(rows)
        forward = self.forward(x, masks, batch.features[rows])
        log_probs, values = forward.log_probs, forward.values
        advantages = returns - values
        advantages = (advantages - advantages.mean()) / (advantages.std() + 1e-6)
        index = np.arange(m)
        ratio = np.exp(log_probs[index, actions] - old)
        clipped = ((advantages > 0) & (ratio > 1 + c.clip)) | ((advantages < 0) & (ratio < 1 - c.clip))
        probs = np.exp(log_probs) * masks
        safe_log = np.where(masks, log_probs, 0.0)
        entropy = -(probs * safe_log).sum(axis=1)
        # d(loss)/d(logits): the clipped surrogate, the entropy bonus; then the value's squared error.
        coefficient = np.where(clipped, 0.0, -advantages * ratio) / m
        d_logits = -probs * coefficient[:, None]
        d_logits[index, actions] += coefficient
        d_logits += c.entropy / m * probs * (safe_log + entropy[:, None])
        d_values = c.value_weight * 2.0 * (values - returns) / m
        self._backward(x, forward, d_logits.astype(np.float32), d_values.astype(np.float32))
        return float(entropy.mean())

    def imitate(self, decisions: Decisions, rng: np.random.Generator) -> float:
        """One pass of behaviour cloning over ``decisions`` (cross-entropy), each minibatch under a
        random renaming of the suits if ``rename_suits``; the mean loss."""
        n = len(decisions.actions)
        order = rng.permutation(n)
        total = 0.0
        for start in range(0, n, IMITATION_MINIBATCH):
            rows = order[start:start + IMITATION_MINIBATCH]
            x, masks, actions = decisions.observations[rows], decisions.masks[rows], decisions.actions[rows]
            if self.config.rename_suits:
                renamed = ALL_RENAMINGS[int(rng.integers(len(ALL_RENAMINGS)))]
                x, masks = x[:, renamed.observation_source], masks[:, renamed.action_source]
                actions = renamed.action_target[actions]
            m = len(rows)
            forward = self.forward(x, masks)
            log_probs = forward.log_probs
            index = np.arange(m)
            total += -float(log_probs[index, actions].sum())
            d_logits = np.exp(log_probs) * masks / m
            d_logits[index, actions] -= 1.0 / m
            self._backward(x, forward, d_logits.astype(np.float32), np.zeros(m, np.float32))
        return total / n

    def _backward(self, x: FloatArray, forward: _Forward, d_logits: FloatArray, d_values: FloatArray) -> None:
        """The gradients from the loss's derivatives by the action scores and the values; one Adam step."""
        self._adam(self.gradients(x, forward, d_logits, d_values))

    def gradients(self, x: FloatArray, forward: _Forward, d_logits: FloatArray, d_values: FloatArray
                  ) -> dict[str, npt.NDArray[np.floating]]:
        """Each parameter's gradient, from the loss's derivatives by the action scores and the values."""
        p = self.params
        h = forward.hidden
        d_weights = np.matmul(d_logits[:, None, :CARDS], forward.features)[:, 0]  # by h @ w3 + b3
        d_hidden = (d_logits @ p["w2"].T + d_weights @ p["w3"].T + np.outer(d_values, p["wv"])) * (h > 0)
        grads: dict[str, npt.NDArray[np.floating]] = {
            "w2": h.T @ d_logits, "b2": d_logits.sum(axis=0),
            "w3": h.T @ d_weights, "b3": d_weights.sum(axis=0),
            "wv": h.T @ d_values, "bv": np.array([d_values.sum()]),
        }
        for layer in range(self.deep, 0, -1):  # back through the deeper layers to the first
            below = forward.layers[layer - 1]
            weights_name, biases_name = deep_names(layer)
            grads[weights_name], grads[biases_name] = below.T @ d_hidden, d_hidden.sum(axis=0)
            d_hidden = (d_hidden @ p[weights_name].T) * (below > 0)
        grads["w1"], grads["b1"] = x.T @ d_hidden, d_hidden.sum(axis=0)
        return grads

    def _adam(self, grads: dict[str, npt.NDArray[np.floating]], beta1: float = 0.9, beta2: float = 0.999) -> None:
        self.steps += 1
        rate = self.rate * np.sqrt(1 - beta2 ** self.steps) / (1 - beta1 ** self.steps)
        for name, grad in grads.items():
            first, second = self.moments[name]
            first *= beta1
            first += (1 - beta1) * grad
            second *= beta2
            second += (1 - beta2) * grad * grad
            self.params[name] -= (rate * first / (np.sqrt(second) + 1e-8)).astype(np.float32)


def _play_hands(env: DehlaVectorEnv, learner: _Learner, seed: int, rng: np.random.Generator) -> _Batch:
    """One hand at every table, the learner at team 0's seats: its decisions and their returns."""
    n = env.num_envs
    observations, _ = env.reset(seed=seed)
    xs, fs, ms, acts, logps, rows_of = [], [], [], [], [], []
    playing = np.ones(n, dtype=bool)
    returns = np.zeros(n, dtype=np.float32)
    for _ in range(MAX_HAND_STEPS):
        rows = np.flatnonzero(playing)
        x = observations["observation"]
        masks = observations["action_mask"].astype(bool)
        actions = np.zeros(n, dtype=np.int64)
        chosen, log_probs, features = learner.act(x[rows], masks[rows], rng)
        actions[rows] = chosen
        others = np.flatnonzero(~playing)
        actions[others] = np.argmax(masks[others], axis=1)  # tables already done: any legal move
        xs.append(x[rows])
        fs.append(features)
        ms.append(masks[rows])
        acts.append(chosen)
        logps.append(log_probs)
        rows_of.append(rows)
        observations, _, over, _, infos = env.step(actions)
        ended = over & playing
        returns[ended] = infos["seat_rewards"][ended, TEAM_SEATS[0]]
        playing &= ~over
        if not playing.any():
            break
    else:
        raise LearnEnvError(f"a hand took more than {MAX_HAND_STEPS} team decisions")
    all_rows = np.concatenate(rows_of)
    return _Batch(np.concatenate(xs), np.concatenate(fs), np.concatenate(ms), np.concatenate(acts),
                  np.concatenate(logps), returns[all_rows], float(returns.mean()))


def _falling(first: float, last: float, done: float) -> float:
    """The step after ``done`` (0 to 1) of the PPO iterations, on the straight line from ``first`` to ``last``."""
    return first + done * (last - first)


def train(config: TrainConfig = TrainConfig(), progress: Callable[[IterationReport], None] | None = None,
          teacher: Bot | None = None) -> TrainResult:
    """Train from ``PolicyNetwork.initial(config.hidden, config.seed)``, first cloning ``teacher``'s
    choices if one is given (``config.teacher_hands`` hands, ``config.imitation_epochs`` passes),
    then ``config.iterations`` PPO iterations; see the module's docstring."""
    rng = np.random.default_rng(config.seed)
    env = DehlaVectorEnv(config.tables, config.preset, learning_seats=TEAM_SEATS)
    learner = _Learner(PolicyNetwork.initial(config.hidden, config.seed, config.deep), config, rng)
    started, cpu_started = time.perf_counter(), time.process_time()
    history: list[IterationReport] = []
    samples = iteration = 0
    teacher_seconds = teacher_cpu = 0.0
    imitating = teacher is not None and config.teacher_hands > 0
    planned_imitation = config.imitation_epochs if imitating else 0

    def in_time() -> bool:
        return time.perf_counter() - started < config.max_seconds

    def record(stage: Stage, mean_value: float, entropy: float) -> None:
        report = IterationReport(iteration, time.perf_counter() - started, time.process_time() - cpu_started,
                                 samples, mean_value, entropy, stage)
        history.append(report)
        if progress is not None:
            progress(report)

    if teacher is not None and imitating:
        decisions = teacher_decisions(teacher, config.teacher_hands, config.preset, config.seed)
        teacher_seconds, teacher_cpu = time.perf_counter() - started, time.process_time() - cpu_started
        while iteration < planned_imitation and in_time():
            loss = learner.imitate(decisions, rng)
            iteration += 1
            samples += len(decisions.actions)
            record(Stage.IMITATION, float("nan"), loss)
    imitated = iteration
    if imitated > 0:
        learner.rate = config.ppo_learning_rate
    first_rate = learner.rate
    while iteration - imitated < config.iterations and in_time():
        if config.ppo_final_learning_rate is not None:
            done = (iteration - imitated) / config.iterations
            learner.rate = _falling(first_rate, config.ppo_final_learning_rate, done)
        batch = _play_hands(env, learner, int(rng.integers(2**62)), rng)
        entropy = learner.update(batch, rng)
        samples += len(batch.actions)
        iteration += 1
        record(Stage.PPO, batch.mean_value, entropy)
    cut = None
    if imitated < planned_imitation or iteration - imitated < config.iterations:
        cut = CutShort(config.max_seconds, imitated, planned_imitation, iteration - imitated, config.iterations)
    return TrainResult(learner.network, iteration, samples, time.perf_counter() - started,
                       time.process_time() - cpu_started, teacher_seconds, teacher_cpu, cut, tuple(history))
