"""A clairvoyant player: the bound on what any bot could make of a deal, not a bot.

It sees the table's own hand (``TrueHand``, told the state after every move by the table as a
spectator board is, ``arena.referee.live_view.LiveSink``): all four hands, the cards still to
be dealt, a face-down trump. It chooses by search on that true deal: each candidate followed by
a greedy playout of the true deal (``sample_bots.expert.playout``: deterministic, so one is
all there is), and, once ``endgame_tricks`` tricks are left, an exact perfect-information solve
(``sample_bots.search.bot.Solver``, no clock). A trump call tries every suit the same way.

``cards`` and ``calls`` pick which decisions are its own; the others are the heuristic's (to see
which decisions carry the value). Every decision first checks that the true hand shows this
seat exactly the observation the referee sent (``ClairvoyanceError`` otherwise), so a clairvoyant
cannot silently search the wrong deal.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from arena.engine import play_orders
from arena.engine.actions import Action, CallTrump, DeclineTrump, PlayCard, RevealTrump
from arena.engine.bidding_hand import BiddingHand
from arena.engine.cards import Card, Suit
from arena.engine.hand import Decision, HandState
from arena.engine.observation import observe
from arena.engine.rules import Capture
from sample_bots.expert.playout import greedy_card, playout
from sample_bots.expert.rollout import rollout
from sample_bots.heuristic.bot import HeuristicBot
from sample_bots.search.bot import Solver, reward
from sdk.bot import Bot, BotView

ENDGAME_TRICKS = 4
"""Tricks left (the one in progress included) from which a clairvoyant solves exactly."""


class ClairvoyanceError(RuntimeError):
    """The true hand does not show the seat what the referee showed it (a wrong deal)."""


class TrueHand:
    """The table's hand as it stands before each decision (a ``LiveSink``)."""

    def __init__(self) -> None:
        self.state: HandState | None = None
        self.hand = -1
        """The table's hand number of ``state`` (from 0)."""

    def moved(self, room: int | None, hand: int, state: HandState | BiddingHand, points: tuple[float, float],
              moves: int) -> None:
        if not isinstance(state, HandState):
            raise ClairvoyanceError("a bidding game: the clairvoyant plays trick-taking hands only")
        self.state, self.hand = state, hand

    def seen_by(self, view: BotView) -> HandState:
        """A copy of the true hand, checked to show ``view``'s seat exactly ``view``."""
        obs = view.observation
        if self.state is None or observe(self.state, obs.seat, obs.match) != obs:
            raise ClairvoyanceError(f"seat {obs.seat}: the true hand is not the one it was shown")
        return self.state.clone()


@dataclass(frozen=True, slots=True)
class Judgement:
    """A clairvoyant's values of a decision's options (for its seat's team), best first on ties
    in the order given (the heuristic's choice first)."""

    options: tuple[Action, ...]
    values: tuple[float, ...]

    @property
    def best(self) -> Action:
        top = max(self.values)
        return self.options[self.values.index(top)]

    def regret(self, chosen: Action) -> float:
        """How much worse ``chosen`` is than the best, by these values (0 for an unknown option)."""
        if chosen not in self.options:
            return 0.0
        return max(self.values) - self.values[self.options.index(chosen)]


@dataclass(slots=True)
class Clairvoyant:
    """Values of decisions on the true hand: greedy playouts, and exact solves near the end.

    ``opponents``: the other team's policy, known (the heuristic, deterministic): before the
    endgame a playout lets that team play its own cards and only ``team`` play greedily, so a
    candidate is valued by what it really leads to against those opponents (the solve still
    assumes perfect opponents: a lower bound on what they allow). ``model_tricks``: only in the
    first this many tricks of a playout (the one in progress counts), the greedy rule for every
    seat after them. ``partners``: ``team``'s own policy in the playouts too (each seat on its own
    view of the world, as at a table), so that a playout is a policy rollout, not a greedy
    perfect-information one: a candidate followed by a policy is valued by what that policy makes
    of it, and the best such candidate is, in expectation, no worse than the policy's own card."""

    endgame_tricks: int = ENDGAME_TRICKS
    opponents: Bot | None = None
    model_tricks: int | None = None
    partners: Bot | None = None
    solves: int = 0
    playouts: int = 0

    def value(self, state: HandState, team: int) -> float:
        """``state`` (consumed) finished by search on the true deal, for ``team``."""
        tricks_left = state.rules.hand_size - len(state.tricks)
        if tricks_left <= self.endgame_tricks and not any(state.undealt(s) for s in range(4)):
            self.solves += 1
            return Solver(state.rules, team).value(state)
        self.playouts += 1
        if self.partners is not None:
            return rollout(state, team, self.partners, self.opponents or self.partners, self.model_tricks)
        if self.opponents is None:
            return playout(state, state.rules, team)
        return self._model_playout(state, team, self.opponents)

    def _model_playout(self, state: HandState, team: int, opponents: Bot) -> float:
        """Finish ``state``: ``opponents`` for the other team's seats (on their own views), the
        greedy rule for ``team``'s; ``team``'s reward."""
        rules = state.rules
        order = play_orders(rules.direction)
        every_trick = rules.capture is not Capture.SWEEP
        modelled = len(state.tricks) + (self.model_tricks if self.model_tricks is not None else rules.hand_size)
        while not state.is_over:
            seat = state.to_move
            assert seat is not None
            mask = state.legal_mask()
            if state.decision is Decision.PLAY and state.hidden_card is None and (
                    seat & 1 == team or mask & (mask - 1) == 0 or len(state.tricks) >= modelled):
                state.play(greedy_card(state, mask, order, rules.hand_size, every_trick))
            else:
                state.apply(opponents.decide(BotView(observe(state, seat), 1.0, 30.0)))
        return reward(rules, state, team)

    def judge(self, state: HandState, options: Sequence[Action]) -> Judgement:
        """Each option's value for the mover's team: applied to a copy of ``state``, then searched."""
        seat = state.to_move
        assert seat is not None
        values = []
        for action in options:
            child = state.clone()
            child.apply(action)
            values.append(self.value(child, seat & 1))
        return Judgement(tuple(options), tuple(values))


def call_options(heuristic_choice: Suit | DeclineTrump) -> list[Action]:
    """Every suit as a call, the heuristic's first (a decline is no option here)."""
    first: list[Action] = [CallTrump(heuristic_choice)] if isinstance(heuristic_choice, Suit) else []
    return first + [CallTrump(s) for s in Suit if s != heuristic_choice]


def card_options(view: BotView, heuristic_choice: Action) -> list[Action]:
    """The legal actions, the heuristic's choice first."""
    legal = list(view.observation.legal_actions)
    return [heuristic_choice, *(a for a in legal if a != heuristic_choice)]


def as_answer(action: Action) -> Card | PlayCard | RevealTrump:
    if isinstance(action, PlayCard | RevealTrump):
        return action
    raise ClairvoyanceError(f"not a card play: {action}")


@dataclass
class ClairvoyantBot(Bot):
    """A seat that decides on the true hand (``cards``: its card plays and reveals; ``calls``:
    its trump calls), the heuristic's choice elsewhere and on ties."""

    true_hand: TrueHand
    cards: bool = True
    calls: bool = True
    search: Clairvoyant = field(default_factory=Clairvoyant)
    name = "clairvoyant"

    def __post_init__(self) -> None:
        self._heuristic = HeuristicBot()

    def call_trump(self, view: BotView) -> Suit | DeclineTrump:
        choice = self._heuristic.call_trump(view)
        state = self.true_hand.seen_by(view)
        if not self.calls or isinstance(choice, DeclineTrump):
            return choice
        best = self.search.judge(state, call_options(choice)).best
        assert isinstance(best, CallTrump)
        return best.suit

    def hide_trump(self, view: BotView) -> Card:
        return self._heuristic.hide_trump(view)

    def play(self, view: BotView) -> Card | PlayCard | RevealTrump:
        choice = self._heuristic.decide(view)
        state = self.true_hand.seen_by(view)
        if not self.cards or len(view.observation.legal_actions) == 1:
            return as_answer(choice)
        return as_answer(self.search.judge(state, card_options(view, choice)).best)
