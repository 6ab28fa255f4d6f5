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
equivalent cards rather than its best few cards. Everything else (the exact endgame, the
override rule, the clock but for a bank reserve it never sips and a margin before the per-move
limit learnt from the bank, ``sample_bots/expert/margin.py``) is the search bot's
(``sample_bots/search/bot.py``), which stays as it was for comparison.
Where a hand cannot be replayed from the view (``sdk.inference.UnsupportedViewError``: chance
draws, face-down discards not seen) the worlds count equally, as in the search bot.
"""

from __future__ import annotations

import contextlib
import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from arena.engine.actions import Action, CallTrump, DeclineTrump, PlayCard, RevealTrump
from arena.engine.cards import Card, Suit
from arena.engine.errors import ArenaError
from sample_bots.expert.batch_playout import BatchHand, hands_array
from sample_bots.expert.margin import LimitMargin
from sample_bots.expert.model import heuristic_policy
from sample_bots.expert.playout import lean_applies, playout
from sample_bots.expert.replies import finish_trick
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
from sdk.sampling import InconsistentViewError, Placement, Sampler

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
SKIP_BELOW = 1e-3
"""A world whose likelihood is below this share of the best one seen is not played out."""
BATCH = False
"""Whether the greedy playouts run a batch of worlds at a time by default (``--batch``). Off: the
sequential tests of session 18 found the batch's many more worlds not better (docs/bots.md, version 14)."""
SEARCH_CALLS = False
"""Whether trump calls are searched by default (``--search-calls``)."""
BATCH_FIXED = 0.010
"""Seconds a batch of worlds is first expected to cost whatever its size (about 40 plays of a
few dozen array operations each, on the loaded machine), before a batch of this move is timed."""
BATCH_PER_ROW = 40e-6
"""Seconds a (world, candidate) row of a batch is first expected to cost, sampling included."""
BATCH_SAFETY = 0.8
"""The share of the time left a batch is sized to take (the machine's load varies within a move)."""
BATCH_MIN_WORLDS = 8
"""Fewer worlds than this in the time left: the scalar playouts instead (no batch fits)."""
FIRST_BATCH = 32
"""The most worlds in a move's first batch, before one is timed."""
BATCH_MAX_WORLDS = 256
"""The most worlds in one batch (1,024 rows with 4 candidates)."""


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
                 window: int | None = None, inference_tricks: int = INFERENCE_TRICKS, batch: bool = BATCH,
                 min_advantage: float = 0.0, search_calls: bool = SEARCH_CALLS,
                 blind_playouts: bool = False, cautious: bool = False, middle_search: bool = True,
                 heuristic_replies: bool = False) -> None:
        super().__init__(seed, budget)
        self.heuristic_replies = heuristic_replies
        """Before the endgame, the trick in progress finished with the heuristic's cards before
        each greedy playout (``sample_bots.expert.replies.finish_trick``; the scalar playouts only)."""
        self.middle_search = middle_search
        """Search before the endgame; without, the heuristic's card at once (only the endgame searched)."""
        self.cautious = cautious
        """Batched playouts under both greedy rules, sighted and blind, and a card overrides
        the heuristic's only on its worse value of the two (``cautious_row``)."""
        self.blind_playouts = blind_playouts
        """Greedy playouts in which each seat judges a card safe against every card it cannot
        see, not the later seats' actual cards (``sample_bots.expert.playout.playout``'s ``blind``)."""
        self.search_calls = search_calls
        """Trump calls by batched playouts of sampled deals under each suit (``call_trump``)."""
        self.calls: list[int] = []
        """Per searched trump call, the worlds played out."""
        self.min_advantage = min_advantage
        """Before the endgame, the least mean advantage (points a hand) a card needs over the heuristic's."""
        self.batch = batch
        """Greedy playouts a batch of worlds at a time (``batch_playout``) where they apply."""
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
        self.margin = LimitMargin()
        """How long before the per-move limit a move plans to end, learnt from the bank."""

    def on_match_start(self, start: MatchStart) -> None:
        super().on_match_start(start)
        self.margin.reset()

    def play(self, view: BotView) -> Card | PlayCard | RevealTrump:
        if self.sips_bank:  # the bank moves only under on-reply release
            self.margin.observe(view.per_move, view.bank_left)
        return super().play(view)

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
        if not endgame and not self.middle_search:
            return 0  # the heuristic's card, no world sampled
        evidence = self._weighted_scores(view, candidates, deadline, endgame)
        rows, weights = evidence.rows, evidence.weights
        self.worlds.append(len(rows))
        if not endgame:
            self.greedy_worlds.append(len(rows))
        self.drawn.append(evidence.drawn)
        self.effective.append(effective_size(weights))
        confidence = self.budget.endgame_confidence if endgame else self.budget.confidence
        return choose_weighted(rows, weights, confidence, 0.0 if endgame else self.min_advantage)

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
        rows: list[list[float]] = []
        if sampler is None:
            sampler = Sampler(obs)
            if self.batch and not endgame and all(isinstance(a, PlayCard) for a in candidates):
                rows = self._batch_scores(sampler, candidates, deadline, team)
        solver = Solver(rules, team, deadline)
        weights: list[float] = [1.0] * len(rows)
        best = 0.0
        drawn = len(rows)
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
                else:
                    if self.heuristic_replies:
                        finish_trick(world, self._heuristic)
                    row.append(playout(world, rules, team, self.blind_playouts))
                if time.perf_counter() >= deadline:
                    return Evidence(rows, weights, drawn)
            rows.append(row)
            weights.append(weight)
        return Evidence(rows, weights, drawn)

    def _batch_scores(self, sampler: Sampler, candidates: list[Action], deadline: float,
                      team: int) -> list[list[float]]:
        """The greedy playouts of ``_weighted_scores`` a batch of worlds at a time, each batch
        as large as this move's timing of the batches before says fits before the deadline
        (``BatchCost``): a row of candidate values per world. Empty where the batch does not
        apply; the scalar loop plays on in the time a batch does not fit."""
        rules = sampler.observation.rules
        first = sampler.sample(self.rng)
        start = sampler.state(first)
        if not lean_applies(start, rules):
            return []
        cards = np.array([a.card for a in candidates if isinstance(a, PlayCard)], dtype=np.int64)
        width = len(cards)

        copies = 2 if self.cautious else 1
        blind = np.repeat(np.array([self.blind_playouts, True][:copies]), width)

        def build(placements: list[Placement]) -> BatchHand:
            hands = np.repeat(hands_array([p.hands for p in placements]), width * copies, axis=0)
            batch = BatchHand(start, rules, hands, blind=np.tile(blind, len(placements)))
            batch.play(np.tile(cards // 13, copies * len(placements)), np.tile(cards % 13, copies * len(placements)))
            return batch

        rows = batched_rows(sampler, self.rng, [first], width * copies, build, team, deadline)
        return [cautious_row(row, width) for row in rows] if self.cautious else rows

    def call_trump(self, view: BotView) -> Suit | DeclineTrump:
        """The heuristic's suit, unless greedy playouts of sampled full deals under each suit
        (a batch: every world under all four suits) say another is better by the override rule
        before the endgame (``search_calls``; where the hand then is plain trick play)."""
        choice = self._heuristic.call_trump(view)
        if not self.search_calls or isinstance(choice, DeclineTrump) or view.may_decline:
            return choice
        deadline = self._deadline(view, time.perf_counter())
        suits = [choice, *(s for s in Suit if s != choice)]
        try:
            sampler = Sampler(view.observation)
        except InconsistentViewError:
            return choice
        rules = view.observation.rules
        first = sampler.sample(self.rng)
        start = sampler.state(first)
        start.apply(CallTrump(choice))
        if start.trump_in_force is not choice or not lean_applies(start, rules):
            return choice
        order = np.array([int(s) for s in suits], dtype=np.int64)

        def build(placements: list[Placement]) -> BatchHand:
            full = [[p.hands[s] | p.undealt[s] for s in range(4)] for p in placements]
            hands = np.repeat(hands_array(full), len(suits), axis=0)
            return BatchHand(start, rules, hands, np.tile(order, len(placements)), blind=self.blind_playouts)

        rows = batched_rows(sampler, self.rng, [first], len(suits), build, view.observation.seat & 1, deadline)
        self.calls.append(len(rows))
        return suits[choose_weighted(rows, [1.0] * len(rows), self.budget.confidence)]


def cautious_row(row: list[float], width: int) -> list[float]:
    """One world's values under two playouts (the first ``width`` the sighted greedy's, the next
    the blind one's), each candidate at its worse for overriding the heuristic's choice (index
    0): the heuristic's card at the better of its two values, every other card at the worse."""
    sighted, blind = row[:width], row[width:]
    return [max(sighted[0], blind[0]), *(min(a, b) for a, b in zip(sighted[1:], blind[1:], strict=True))]


def batched_rows(sampler: Sampler, rng: random.Random, drawn: list[Placement], width: int,
                 build: Callable[[list[Placement]], BatchHand], team: int, deadline: float) -> list[list[float]]:
    """Rows of ``width`` greedy playout values (for ``team``) per sampled world, a batch at a
    time (``build``: the batch of some placements, ``width`` rows each, its forced first plays
    made), each batch as large as this move's timing of the batches before says fits before the
    deadline (``BatchCost``). ``drawn``: placements already sampled, used first."""
    cost = BatchCost(BATCH_FIXED, BATCH_PER_ROW * width)
    placements = list(drawn)
    rows: list[list[float]] = []
    while len(rows) < MAX_WORLDS:
        began = time.perf_counter()
        size = min(cost.fits(BATCH_SAFETY * (deadline - began)), cost.largest_next(), BATCH_MAX_WORLDS,
                   MAX_WORLDS - len(rows))
        if size < BATCH_MIN_WORLDS:
            break
        placements += [sampler.sample(rng) for _ in range(size - len(placements))]
        batch = build(placements[:size])
        if not batch.play_greedy(deadline):
            break
        rows += batch.values(team).reshape(size, width).tolist()
        cost.observe(size, time.perf_counter() - began)
        placements = []
    return rows


@dataclass(slots=True)
class BatchCost:
    """How many worlds a batch may hold to end in time. A batch's cost grows with its size, but
    less than in proportion (a fixed part: its plays' array operations), so a batch of ``n``
    worlds that took ``s`` seconds bounds the cost of any batch of ``m`` worlds by
    ``s * max(1, m / n)``; each timed batch gives such a bound, and before any the prior
    ``fixed + per_world * m`` stands."""

    fixed: float
    per_world: float
    timed: list[tuple[int, float]] = field(default_factory=list)

    def fits(self, seconds: float) -> int:
        """The most worlds a batch may hold to end within ``seconds``."""
        if not self.timed:
            return max(0, int((seconds - self.fixed) / self.per_world))
        return max((int(seconds * n / s) if s <= seconds else 0) for n, s in self.timed)

    def observe(self, worlds: int, seconds: float) -> None:
        """A batch of ``worlds`` took ``seconds``."""
        self.timed.append((worlds, max(seconds, 1e-6)))

    def largest_next(self) -> int:
        """The largest next batch: ``FIRST_BATCH`` worlds before any is timed, then four times
        the largest timed (a prior far off on a busy machine costs one small batch, not the move)."""
        return max((4 * n for n, _ in self.timed), default=FIRST_BATCH)


def move_ceiling(per_move: float, margin: float) -> float:
    """The longest a move may plan: the per-move limit less the margin (never below zero)."""
    return max(0.0, per_move - margin)


def effective_size(weights: list[float]) -> float:
    """Kish's effective sample size of importance weights: ``(sum w)^2 / sum w^2``."""
    squares = sum(w * w for w in weights)
    return sum(weights) ** 2 / squares if squares > 0 else 0.0


def choose_weighted(rows: list[list[float]], weights: list[float], confidence: float,
                    min_advantage: float = 0.0) -> int:
    """The candidate with the best weighted mean, if its paired advantage over the heuristic's
    choice (index 0) is ``confidence`` standard errors clear of zero (the standard error from
    the weights' effective sample size) and at least ``min_advantage``; otherwise the
    heuristic's. With equal weights and no minimum this is the search bot's rule
    (``sample_bots.search.bot._choose``)."""
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
    if mean < min_advantage:
        return 0
    var = sum(w * (d - mean) ** 2 for w, d in zip(weights, diffs, strict=True)) * n_eff / ((n_eff - 1) * total)
    if var == 0.0:
        return best if mean > 0 else 0
    return best if mean / math.sqrt(var / n_eff) >= confidence else 0
