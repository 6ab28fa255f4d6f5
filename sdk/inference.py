"""Inference: imagined deals weighted by how likely the other seats' plays were in each.

The sampler (``sdk.sampling``) draws every placement of the unseen cards that fits what a seat
saw with equal probability. But the other seats did not play at random: a seat that ducked a
trick it could have taken probably could not take it. ``Inference`` weights each placement by
the likelihood of every card the other seats played under a ``PlayModel`` of how they play:

    weight(placement) ∝ ∏ over the other seats' past card plays d of  P_model(card_d | view_d)

where ``view_d`` is what that seat saw at the time, in the world of that placement (its own
hand then is its hand in the placement plus the cards it has played since). As the sampler's
draws are uniform over the consistent placements, the normalised weights are exact importance
weights for the posterior "uniform prior × model likelihood" (self-normalised importance
sampling): with every placement enumerated they are that posterior.

How ``view_d`` is rebuilt: the hand is replayed from a deal made of the placement (each seat's
cards then are its cards now plus those it played, and the cards still to come), on the
engine's own rules, and ``observe`` gives each seat's view before each of its plays. Only plays
where the seat had a choice count (a forced play has probability 1 under any model), and only
card plays: trump calls, hidden cards and reveals are replayed as they happened, not weighted.

What cannot be replayed from a seat's view is refused with ``UnsupportedViewError``: a hand whose
course depended on the hand's chance seed (a decline, a blind face-down trump, an open random
trump), face-down discards the seat did not see, and a cut-trump hand once its deal is complete
(which of a seat's cards came in its first packet is not known). Weighting the
worlds uniformly is the honest fallback there (``Sampler``).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from arena.engine.actions import CALL, DOWN, HIDE, PLAY, REVEAL, Action
from arena.engine.cards import CARDS, Card, CardMask, cards_of, mask_of
from arena.engine.deal import Deal
from arena.engine.hand import Decision, HandState
from arena.engine.observation import Observation, observe
from arena.engine.rules import TrumpMethod
from arena.engine.trump import RevealReason
from sdk.bot import BotView
from sdk.placement_draw import Placement
from sdk.sampling import Sampler

__all__ = [
    "DeadlinePassedError",
    "FlatModel",
    "Inference",
    "LikelihoodCache",
    "PlayModel",
    "SoftmaxModel",
    "UniformModel",
    "UnsupportedViewError",
    "WeightedWorld",
    "weighted_worlds",
]


class UnsupportedViewError(ValueError):
    """The hand so far cannot be replayed from this seat's view (see the module docstring)."""


class DeadlinePassedError(Exception):
    """A likelihood's replay passed the caller's deadline (a bot on the clock): the world's
    weight is unknown, so the caller stops drawing worlds. Not an ``ArenaError``: no rule broke."""


class PlayModel(Protocol):
    """How a seat plays: the probability of each legal action of a view."""

    def probability(self, view: BotView, action: Action) -> float:
        """P(``action`` | ``view``); the probabilities of ``view``'s legal actions sum to 1."""
        ...


@dataclass(frozen=True, slots=True)
class UniformModel:
    """Random play: every legal action equally likely. Not uninformative: a world where a seat
    had fewer legal cards explains its play better (``FlatModel`` ignores the plays)."""

    def probability(self, view: BotView, action: Action) -> float:
        return 1.0 / len(view.observation.legal_actions)


@dataclass(frozen=True, slots=True)
class FlatModel:
    """The plays say nothing: every play counts 1, every world weighs the same (the sampler's own
    uniform distribution). A likelihood, not a distribution over the legal actions."""

    def probability(self, view: BotView, action: Action) -> float:
        return 1.0


@dataclass(frozen=True, slots=True)
class SoftmaxModel:
    """``P(a) = (1 - mix) · softmax(score / temperature)(a) + mix / n`` over the ``n`` legal actions.

    ``scores`` gives one score per action of ``view.observation.legal_actions`` (in that order),
    for instance a heuristic's value of each card. A low temperature says "the seat almost always
    plays its best-scored card", a high one "it plays almost at random"; ``mix``, a share of
    uniform play, keeps a world possible when a seat plays against the scores.
    """

    scores: Callable[[BotView], Sequence[float]]
    temperature: float
    mix: float = 0.0

    def __post_init__(self) -> None:
        if not self.temperature > 0:
            raise ValueError(f"temperature must be positive, not {self.temperature!r}")
        if not 0 <= self.mix <= 1:
            raise ValueError(f"mix must be between 0 and 1, not {self.mix!r}")

    def probability(self, view: BotView, action: Action) -> float:
        legal = view.observation.legal_actions
        scores = self.scores(view)
        if len(scores) != len(legal):
            raise ValueError(f"the model scored {len(scores)} actions, the view has {len(legal)}")
        top = max(scores)
        exps = [math.exp((s - top) / self.temperature) for s in scores]
        p = exps[legal.index(action)] / sum(exps)
        return (1 - self.mix) * p + self.mix / len(legal)


@dataclass(frozen=True, slots=True)
class WeightedWorld:
    """One imagined deal: its placement, its playable state and its normalised weight."""

    placement: Placement
    world: HandState
    weight: float


@dataclass(slots=True)
class LikelihoodCache:
    """Model probabilities already computed in one hand, reused across worlds and decisions.

    The key is (play index, seat, its cards then): within one hand the public history before a
    play is fixed, so those decide the seat's view. A new hand (a history that does not extend
    the one seen) clears it.
    """

    entries: dict[tuple[int, int, CardMask, int], float] = field(default_factory=dict)
    history: tuple[tuple[int, int], ...] = ()
    hits: int = 0
    misses: int = 0

    def start(self, history: tuple[tuple[int, int], ...]) -> None:
        """Keep the entries only if ``history`` continues the hand they came from."""
        if history[: len(self.history)] != self.history:
            self.entries.clear()
        self.history = history


@dataclass(frozen=True, slots=True)
class _Play:
    """One past card play: its index in the hand, who, which card, and a reveal asked first."""

    index: int
    seat: int
    card: int
    reveal_first: bool
    face_down: bool = False


class Inference:
    """Likelihood weights for one observation's placements under ``model``.

    Build it once per decision (``cache``: one per hand, to reuse the model's answers), then
    ``likelihood(placement)`` or ``weighted_worlds(rng, n)``. ``window``: count only the plays of
    the last ``window`` tricks (the trick in progress included), a cheaper, coarser model.
    """

    __slots__ = ("_cache", "_initial", "_plays", "_sampler", "_view", "model", "window")

    def __init__(self, view: Observation | BotView, model: PlayModel, cache: LikelihoodCache | None = None,
                 window: int | None = None) -> None:
        self._view = view if isinstance(view, BotView) else BotView(view, 1.0, 0.0)
        obs = self._view.observation
        _check_replayable(obs)
        self.model = model
        self.window = window
        self._sampler = Sampler(obs)
        self._plays = _plays(obs)
        self._initial = _initial_action(obs)
        self._cache = cache if cache is not None else LikelihoodCache()
        self._cache.start(tuple((p.seat, p.card) for p in self._plays))

    @property
    def sampler(self) -> Sampler:
        return self._sampler

    def likelihood(self, placement: Placement, floor: float = 0.0, deadline: float | None = None) -> float:
        """The product of the model's probabilities of the other seats' past plays in this world.

        With ``floor`` > 0 it stops as soon as the product falls below ``floor`` (each factor is
        at most 1, so it can only fall further) and returns that partial product: a search that
        drops unlikely worlds saves the rest of their replay. With ``deadline`` (a
        ``time.perf_counter()`` value) it raises ``DeadlinePassedError`` once the clock passes it
        after a model call (the costly step: a replay with few cached answers takes tens of ms)."""
        obs = self._view.observation
        me = obs.seat
        state = HandState(obs.rules, _deal(obs, placement, self._plays), obs.dealer)
        if self._initial is not None:
            state.apply(self._initial if self._initial is not _HIDE_PLACED else HIDE[_hidden_of(obs, placement)])
        first_counted = 4 * (obs.trick_number - (self.window or obs.trick_number))
        cache = self._cache
        entries = cache.entries
        per_move, bank = self._view.per_move, self._view.bank_left
        product = 1.0
        for play in self._plays:
            if play.reveal_first:
                state.apply(REVEAL)
            seat = play.seat
            if seat != me and play.index >= first_counted:
                mask = state.legal_mask()
                if mask & (mask - 1) or (state.hidden_card is not None and len(state.legal_actions()) > 1):
                    hidden = state.hidden_card
                    key = (play.index, seat, state.hand(seat), -1 if hidden is None else hidden)
                    p = entries.get(key)
                    if p is None:
                        cache.misses += 1
                        p = self.model.probability(BotView(observe(state, seat), per_move, bank), PLAY[play.card])
                        entries[key] = p
                        if deadline is not None and time.perf_counter() >= deadline:
                            raise DeadlinePassedError(f"likelihood: deadline passed at play {play.index}")
                    else:
                        cache.hits += 1
                    product *= p
                    if product < floor:
                        return product
            if play.face_down:  # this seat's own face-down discard (it sees no other's)
                state.apply(DOWN[play.card])
            else:
                state.play(play.card)
        return product

    def weighted_worlds(self, rng: random.Random, n: int) -> list[WeightedWorld]:
        """``n`` placements drawn by the exact sampler, with weights ∝ their likelihood, summing to 1.

        Every weight is 0 only if the model gives every drawn world probability 0; then the
        worlds are weighted equally (nothing better is known).
        """
        placements = [self._sampler.sample(rng) for _ in range(n)]
        raw = [self.likelihood(p) for p in placements]
        total = sum(raw)
        weights = [w / total for w in raw] if total > 0 else [1.0 / n] * n
        return [WeightedWorld(p, self._sampler.state(p), w) for p, w in zip(placements, weights, strict=True)]


def weighted_worlds(view: Observation | BotView, n: int, model: PlayModel, rng: random.Random) -> list[WeightedWorld]:
    """``n`` imagined worlds for ``view`` with weights by ``model``'s likelihood of the plays seen."""
    return Inference(view, model).weighted_worlds(rng, n)


# ------------------------------------------------------------------ the replay
_HIDE_PLACED = HIDE[0]
"""Stands for "hide the placement's face-down card" until a placement names it."""


def _check_replayable(obs: Observation) -> None:
    rules = obs.rules
    if any(c is None for t in obs.tricks for c in t.cards) or any(c is None for _, c in obs.current_trick):
        raise UnsupportedViewError("face-down discards this seat did not see cannot be replayed")
    if rules.hidden_blind:
        raise UnsupportedViewError("a blind face-down trump was drawn by the hand's chance seed")
    setting = obs.trump_setting
    if rules.trump is TrumpMethod.OPEN_RANDOM:
        raise UnsupportedViewError("an open random trump is drawn by the hand's chance seed")
    if rules.trump is TrumpMethod.CALLED and setting is not None and setting.card is not None:
        raise UnsupportedViewError("a declined call's trump card was drawn by the hand's chance seed")
    if rules.trump is TrumpMethod.CUT and not any(obs.cards_to_come):
        # Which cards of a seat's first packet it had not played by then is not known (nor
        # weighted): a replay would have to sum over them.
        raise UnsupportedViewError("cut trump: a completed deal's first packets are not replayed")
    if obs.decision is not Decision.PLAY or obs.to_move != obs.seat:
        raise UnsupportedViewError("inference is for the seat's own card decisions")


def _plays(obs: Observation) -> list[_Play]:
    """Every card played so far, in order, and whether a requested reveal came just before it."""
    reveal = obs.reveal
    asked_before = -1
    if reveal is not None and reveal.reason is RevealReason.REQUEST:
        asked_before = 4 * (reveal.trick - 1) + reveal.position
    out: list[_Play] = []
    for trick in obs.tricks:
        for position, (seat, card) in enumerate(zip(trick.seats, trick.cards, strict=True)):
            assert card is not None
            out.append(_Play(len(out), seat, int(card), len(out) == asked_before, position in trick.face_down))
    for position, (seat, card) in enumerate(obs.current_trick):
        assert card is not None
        out.append(_Play(len(out), seat, int(card), len(out) == asked_before, position in obs.current_face_down))
    return out


def _initial_action(obs: Observation) -> Action | None:
    """The decision before the first play: the call (called trump) or the card put face down."""
    rules = obs.rules
    if rules.trump is TrumpMethod.CALLED:
        assert obs.trump_setting is not None
        return CALL[int(obs.trump_setting.suit)]
    if rules.trump is TrumpMethod.HIDDEN:
        return _HIDE_PLACED
    return None


def _hidden_of(obs: Observation, placement: Placement) -> Card:
    """The face-down trump card in this world: shown, the seat's own, or placed."""
    if obs.reveal is not None:
        return obs.reveal.card
    if obs.hidden_trump_card is not None:
        return obs.hidden_trump_card
    assert placement.hidden_card is not None
    return placement.hidden_card


def _deal(obs: Observation, placement: Placement, plays: Sequence[_Play]) -> Deal:
    """The deal this world began with. A seat's cards in deal order: the face-down trump (from its
    first packet), then the cards it played in the order played (what cut-trump play began with
    is its first packet), then its hand and its cards to come."""
    played: list[list[int]] = [[], [], [], []]
    for play in plays:
        played[play.seat].append(play.card)
    hidden = _hidden_of(obs, placement) if obs.rules.trump is TrumpMethod.HIDDEN else None
    holder = obs.first_player
    hands: list[tuple[Card, ...]] = []
    for seat in range(4):
        first: list[int] = []
        if hidden is not None and seat == holder:
            first.append(int(hidden))
        first += [c for c in played[seat] if c not in first]
        taken = mask_of(first)
        hand, to_come = placement.hands[seat] & ~taken, placement.undealt[seat] & ~taken
        hands.append(tuple(CARDS[c] for c in first) + cards_of(hand) + cards_of(to_come))
    return Deal(tuple(hands))
