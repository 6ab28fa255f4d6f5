"""The expert sample bot: the search bot's method on worlds weighted by what the others played.

``sample_bots.search`` imagines the unseen cards uniformly among the placements that fit what
it saw. But a seat that ducked a trick it could have won, or kept a ten back when its partner
was sure to win, says something about its hand. In the last ``INFERENCE_TRICKS`` tricks the
expert weights each imagined world by the likelihood of every play the other seats made in it,
under the heuristic bot's values as a softmax policy (``sdk.inference``,
``sample_bots/expert/model.py``), and compares its candidates on weighted means: worlds the
plays make unlikely count for little, and a world far less likely than the best one seen is not
played out at all (the time goes to likely ones).

Its greedy playouts are the search bot's, faster (``sample_bots/expert/playout.py``: the same
card at every step), and before the endgame it compares the heuristic's best few classes of
equivalent cards rather than its best few cards. Its heuristic (the candidates' ranking, the card
played when the worlds do not clearly say otherwise, and the trump call) plays with tuned numbers
(``sample_bots/expert/weights.py``), not the hand-set ones its model of the other seats keeps.
Everything else (the exact endgame, the override rule, the clock but for a bank reserve it never
sips and a margin before the per-move limit learnt from the bank, ``sample_bots/expert/margin.py``)
is the search bot's (``sample_bots/search/bot.py``), which stays as it was for comparison.
Where a hand cannot be replayed from the view (``sdk.inference.UnsupportedViewError``: chance
draws, face-down discards not seen) the worlds count equally, as in the search bot.
"""

from __future__ import annotations

import contextlib
import math
import time
from dataclasses import dataclass

from arena.engine.actions import Action, PlayCard, RevealTrump
from arena.engine.cards import Card
from arena.engine.errors import ArenaError
from sample_bots.expert.margin import LimitMargin
from sample_bots.expert.model import heuristic_policy
from sample_bots.expert.playout import playout
from sample_bots.expert.replies import finish_trick
from sample_bots.expert.rollout import rollout
from sample_bots.expert.tree import tree_search
from sample_bots.expert.weights import expert_weights
from sample_bots.heuristic.bot import HeuristicBot
from sample_bots.heuristic.weights import WeightsFor
from sample_bots.search.bot import (
    MAX_WORLDS,
    OutOfTimeError,
    SearchBot,
    SearchBudget,
    Solver,
    _tricks_left,
)
from sdk import MatchStart
from sdk.bot import BotView
from sdk.inference import DeadlinePassedError, Inference, LikelihoodCache, PlayModel, UnsupportedViewError
from sdk.sampling import Sampler

INFERENCE_TRICKS = 3
"""Tricks left (the one in progress included) from which the worlds are weighted; before, they
count equally, as in the search bot. The heuristic's values cost about 0.6 ms a play, so weighing
every play of a world early in the hand would leave a 50 ms move a few worlds (measured: weighing
the trick in progress only, from the first trick, halved the worlds and lost to ``search``); in
the endgame a world's exact solve costs more than that, and the model's cached answers serve the
many worlds that share a seat's last few cards."""
BANK_RESERVE = 5.0
"""Seconds of bank never sipped: at 50 ms a move the search's sip (a twentieth of the bank, at
most half a move) drains the bank to about 0.4 s over a few hundred hands, and one stall of the
machine then times out (seen: version 3 at hand 462 of a 300-deal match)."""
TREE_MARGIN_START = 0.010
"""The tree's margin before any evidence: its search stops within an iteration (about 0.1 ms) of
its deadline, where the candidates' search may finish an exact solve of 18 ms past it, so it
starts thinner than ``margin.START_SECONDS`` (at 50 ms a move: 36 ms of search, not 16; it
needs about 200 iterations, some 23 ms of CPU, to gain: ``bench.ceiling``'s ``ismcts`` arms)."""
SKIP_BELOW = 1e-3
"""A world whose likelihood is below this share of the best one seen is not played out."""


@dataclass(frozen=True, slots=True)
class Evidence:
    """A move's worlds: each candidate's value per world played out, the worlds' likelihoods,
    and how many worlds were drawn (a world far less likely than the best is drawn, not played)."""

    rows: list[list[float]]
    weights: list[float]
    drawn: int


class ExpertBot(SearchBot):
    """Search over inference-weighted worlds; see the module docstring."""

    name = "expert"

    def __init__(self, seed: int = 0, budget: SearchBudget | None = None, model: PlayModel | None = None,
                 window: int | None = None, inference_tricks: int = INFERENCE_TRICKS,
                 heuristic_replies: bool = False, tree: bool = False, weights: WeightsFor = expert_weights,
                 rollouts: int = 0) -> None:
        super().__init__(seed, budget, weights)
        self.rollouts = rollouts
        """Before the endgame, each candidate's world finished by the seats' policies for this
        many tricks, then greedily (``sample_bots/expert/rollout.py``; 0: greedy throughout)."""
        self.tree = tree
        """The card play by information-set tree search (``sample_bots/expert/tree.py``) until
        the move's deadline, instead of the comparison of candidates on weighted worlds."""
        self.tree_iterations: list[int] = []
        """Per move searched by the tree, its iterations."""
        self.heuristic_replies = heuristic_replies
        """Before the endgame, the trick in progress finished with the heuristic's cards before
        each greedy playout (``sample_bots.expert.replies.finish_trick``; ``bench.ceiling``'s
        ``replies`` arm: version 22, dropped)."""
        self.model: PlayModel = model or heuristic_policy()
        self.window = window
        self.inference_tricks = inference_tricks
        self._cache = LikelihoodCache()
        self.drawn: list[int] = []
        """Per searched move, the worlds drawn (``worlds``: those played out)."""
        self.greedy_worlds: list[int] = []
        """Per searched move before the endgame (greedy playouts), the worlds played out."""
        self.effective: list[float] = []
        """Per searched move, the effective number of worlds of the weights (1 / sum of squares)."""
        self.margin = LimitMargin(start=TREE_MARGIN_START) if tree else LimitMargin()
        """How long before the per-move limit a move plans to end, learnt from the bank."""

    def on_match_start(self, start: MatchStart) -> None:
        super().on_match_start(start)
        self.margin.reset()

    def play(self, view: BotView) -> Card | PlayCard | RevealTrump:
        if self.sips_bank:  # the bank moves only under on-reply release
            self.margin.observe(view.per_move, view.bank_left)
        return super().play(view)

    def _search(self, view: BotView, start: float) -> Action:
        if not self.tree:
            return super()._search(view, start)
        legal = view.observation.legal_actions
        if len(legal) == 1:
            return legal[0]
        action, iterations = tree_search(view.observation, self.rng, self._deadline(view, start))
        self.tree_iterations.append(iterations)
        # no iteration in time: the heuristic's card, as the candidates' search plays then
        return action if action is not None else self._candidates(view, legal, False)[0]

    def _deadline(self, view: BotView, start: float) -> float:
        """The search bot's budget, sipping only the bank above ``BANK_RESERVE``, and never
        planned past the per-move limit less the learnt margin (``LimitMargin``): the bank is a
        reserve for stalls, not thinking time."""
        if not self.sips_bank:
            return super()._deadline(view, start)
        budget = self.budget.share_of_move * view.per_move
        budget += min(max(0.0, view.bank_left - BANK_RESERVE) * 0.05, view.per_move * 0.5)
        budget = min(budget, move_ceiling(view.per_move, self.margin.current(view.per_move)))
        if self.budget.max_per_move is not None:
            budget = min(budget, self.budget.max_per_move)
        return start + max(0.0, budget - self.budget.reserve)

    def _candidates(self, view: BotView, legal: tuple[Action, ...], endgame: bool) -> list[Action]:
        """The search bot's, but one card per class of equivalent cards before the endgame too:
        its best ``candidates`` classes, not cards (two cards alike play out alike, so comparing
        both spends worlds on noise)."""
        ranked = super()._candidates(view, legal, True)
        if endgame:
            return ranked
        out: list[Action] = []
        cards = 0
        for action in ranked:
            if isinstance(action, PlayCard):
                if cards == self.budget.candidates:
                    continue
                cards += 1
            out.append(action)
        return out

    def _compare(self, view: BotView, candidates: list[Action], deadline: float, endgame: bool) -> int:
        """As the search bot's, on worlds weighted by the likelihood of the plays seen."""
        evidence = self._weighted_scores(view, candidates, deadline, endgame)
        rows, weights = evidence.rows, evidence.weights
        self.worlds.append(len(rows))
        if not endgame:
            self.greedy_worlds.append(len(rows))
        self.drawn.append(evidence.drawn)
        self.effective.append(effective_size(weights))
        confidence = self.budget.endgame_confidence if endgame else self.budget.confidence
        return choose_weighted(rows, weights, confidence)

    def _weighted_scores(self, view: BotView, candidates: list[Action], deadline: float,
                         endgame: bool) -> Evidence:
        """One row per imagined world (each candidate's value on it) and the world's likelihood."""
        obs = view.observation
        rules, team = obs.rules, obs.seat & 1
        inference: Inference | None = None
        sampler: Sampler | None = None
        if _tricks_left(rules.hand_size, obs.tricks) <= self.inference_tricks:
            # A view the inference cannot replay is searched on the sampler's uniform worlds.
            with contextlib.suppress(UnsupportedViewError):
                inference = Inference(view, self.model, self._cache, self.window)
                sampler = inference.sampler
        if sampler is None:
            sampler = Sampler(obs)
        solver = Solver(rules, team, deadline)
        partners = HeuristicBot(self.weights(rules)) if self.rollouts else None
        rows: list[list[float]] = []
        weights: list[float] = []
        best = 0.0
        drawn = 0
        while drawn < MAX_WORLDS and time.perf_counter() < deadline:
            drawn += 1
            placement = sampler.sample(self.rng)
            weight = 1.0
            if inference is not None:
                try:
                    weight = inference.likelihood(placement, best * SKIP_BELOW, deadline)
                except DeadlinePassedError:
                    return Evidence(rows, weights, drawn - 1)
                except ArenaError:  # a replay the engine refuses: count the world plainly
                    weight = best or 1.0
                if weight < best * SKIP_BELOW:
                    continue
                best = max(best, weight)
            base = sampler.state(placement)
            row = []
            for action in candidates:
                world = base.clone()
                world.apply(action)
                if endgame:
                    try:
                        row.append(solver.value(world))
                    except OutOfTimeError:
                        return Evidence(rows, weights, drawn)
                elif partners is not None:
                    row.append(rollout(world, team, partners, self._heuristic, self.rollouts))
                else:
                    if self.heuristic_replies:
                        finish_trick(world, self._heuristic)
                    row.append(playout(world, rules, team))
                if time.perf_counter() >= deadline:
                    return Evidence(rows, weights, drawn)
            rows.append(row)
            weights.append(weight)
        return Evidence(rows, weights, drawn)

def move_ceiling(per_move: float, margin: float) -> float:
    """The longest a move may plan: the per-move limit less the margin (never below zero)."""
    return max(0.0, per_move - margin)


def effective_size(weights: list[float]) -> float:
    """Kish's effective sample size of importance weights: ``(sum w)^2 / sum w^2``."""
    squares = sum(w * w for w in weights)
    return sum(weights) ** 2 / squares if squares > 0 else 0.0


def choose_weighted(rows: list[list[float]], weights: list[float], confidence: float) -> int:
    """The candidate with the best weighted mean, if its paired advantage over the heuristic's
    choice (index 0) is ``confidence`` standard errors clear of zero (the standard error from
    the weights' effective sample size); otherwise the heuristic's. With equal weights this is
    the search bot's rule (``sample_bots.search.bot._choose``)."""
    total = sum(weights)
    if len(rows) < 2 or total <= 0:
        return 0
    n_eff = effective_size(weights)
    if n_eff < 2 - 1e-9:
        return 0
    width = len(rows[0])
    means = [sum(w * r[i] for w, r in zip(weights, rows, strict=True)) / total for i in range(width)]
    best = max(range(width), key=lambda i: (means[i], -i))
    if best == 0:
        return 0
    diffs = [r[best] - r[0] for r in rows]
    mean = sum(w * d for w, d in zip(weights, diffs, strict=True)) / total
    var = sum(w * (d - mean) ** 2 for w, d in zip(weights, diffs, strict=True)) * n_eff / ((n_eff - 1) * total)
    if var == 0.0:
        return best if mean > 0 else 0
    return best if mean / math.sqrt(var / n_eff) >= confidence else 0
