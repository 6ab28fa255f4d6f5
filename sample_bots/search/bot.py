"""The search sample bot: determinized Monte Carlo over the engine's own rules.

For each decision it repeatedly imagines the unseen cards (``sdk.sampling``: consistent with
every void and constraint the seat knows), picks a root action by UCB1, plays it in that
imagined world, finishes the hand with a fast greedy policy, and scores the outcome for its
own team. It stops when its time budget for the move is spent, and plays the action with the
best mean. The budget is a share of the per-move limit, plus a little of the bank late in a
hand, and never close to the deadline.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from arena.actions import REVEAL, Action, RevealTrump
from arena.cards import SUIT_MASKS, TENS, Card, Rank
from arena.hand import Decision, HandState
from arena.referee.messages import MatchStart
from arena.rules import Direction, HandResultRule, Rules
from sdk.bot import Bot, BotView
from sdk.sampling import Sampler

EXPLORATION = 0.7
TEN_RANK = int(Rank.TEN)


@dataclass(frozen=True, slots=True)
class SearchBudget:
    """How much of the clock a move may use (seconds)."""

    share_of_move: float = 0.5
    max_per_move: float | None = None
    min_samples: int = 4


class SearchBot(Bot):
    """Determinized UCB search with greedy rollouts."""

    name = "search"

    def __init__(self, seed: int = 0, budget: SearchBudget | None = None) -> None:
        self.seed = seed
        self.budget = budget or SearchBudget()
        self.rng = random.Random(seed)
        self.move_times: list[float] = []

    def on_match_start(self, start: MatchStart) -> None:
        self.rng = random.Random(f"{self.seed}/{start.match_id}/{start.seat}")

    def decide(self, view: BotView) -> Action:
        """Every decision kind (trump call, hidden card, play, reveal) is searched the same way."""
        return self._search(view)

    def play(self, view: BotView) -> Card | RevealTrump:
        action = self._search(view)
        return REVEAL if isinstance(action, RevealTrump) else action.card  # type: ignore[union-attr]

    # ---------------------------------------------------------------- search
    def _deadline(self, view: BotView) -> float:
        budget = self.budget.share_of_move * view.per_move
        cards_left = max(1, len(view.hand))
        budget += min(view.bank_left * 0.02, view.bank_left / (cards_left * 4))
        if self.budget.max_per_move is not None:
            budget = min(budget, self.budget.max_per_move)
        return time.perf_counter() + budget

    def _search(self, view: BotView) -> Action:
        """Score every legal action on the same imagined worlds (paired comparison), as many
        worlds as the budget allows; play the best total."""
        start = time.perf_counter()
        legal = view.observation.legal_actions
        if len(legal) == 1:
            return legal[0]
        deadline = self._deadline(view)
        obs = view.observation
        seat = obs.seat
        rules = obs.rules
        totals = [0.0] * len(legal)
        sampler = Sampler(obs)
        worlds = 0
        while worlds < self.budget.min_samples or time.perf_counter() < deadline:
            base = sampler.state(sampler.sample(self.rng))
            for index, action in enumerate(legal):
                world = base.clone()
                world.apply(action)
                _rollout(world)
                totals[index] += _reward(rules, world, seat)
            worlds += 1
            if worlds >= 5000:
                break
        self.move_times.append(time.perf_counter() - start)
        best = max(range(len(legal)), key=totals.__getitem__)
        return legal[best]


def _reward(rules: Rules, state: HandState, seat: int) -> float:
    """The hand's value for ``seat``'s team, with a small pull towards tens (or tricks)."""
    result = state.result
    assert result is not None
    team = seat & 1
    if result.winner is None:
        value = 0.0
    else:
        worth = float(result.points) if not rules.scores_kots else 1.0 + result.kot
        value = worth if result.winner == team else -worth
    if rules.hand_result is HandResultRule.SEVEN_TRICKS:
        edge = (result.tricks_captured[team] - result.tricks_captured[1 - team]) / rules.hand_size
    else:
        edge = (result.tens[team] - result.tens[1 - team]) / 4
    return value + 0.25 * edge


def _rollout(state: HandState) -> None:
    """Finish the hand with a perfect-information greedy policy (the world is fully known)."""
    rules = state.rules
    last_trick = rules.hand_size
    order = _ORDER[int(rules.direction is not Direction.CLOCKWISE)]
    while not state.is_over:
        if state.decision is not Decision.PLAY:
            state.apply(state.legal_actions()[0])
            continue
        mask = state.legal_mask()
        if mask & (mask - 1) == 0:
            state.play(mask.bit_length() - 1)
        else:
            state.play(_greedy_card(state, mask, order, last_trick))


def _cheapest(cards: list[int], trump: int) -> int:
    """The least valuable card: not a ten, not a trump, lowest rank."""
    return min(cards, key=lambda c: (c % 13 == TEN_RANK, c // 13 == trump, c % 13))


def _cheapest_winner(cards: list[int], trump: int) -> int:
    return min(cards, key=lambda c: (c // 13 == trump, c % 13))


def _greedy_card(state: HandState, mask: int, order: tuple[tuple[int, ...], ...], last_trick: int) -> int:
    seat = state.to_move
    assert seat is not None
    trump_suit = state.trump_in_force
    trump = -1 if trump_suit is None else int(trump_suit)
    trick = state.trick_cards
    later = order[seat][: 3 - len(trick)]
    hands = [state.hand(s) for s in range(4)]
    streak = state.streak_holder
    last = state.trick_number == last_trick
    at_stake = last or bool(state.pile & TENS)
    sweeping = last or streak == seat
    cards = _bits(mask)
    if not trick:
        sure = [c for c in cards if _unbeatable(c, c // 13, trump, later, hands)]
        if sure and (sweeping or at_stake or (streak is not None and streak & 1 != seat & 1)):
            return _cheapest_winner(sure, trump)
        return _cheapest(cards, trump)
    led = trick[0] // 13
    leader = state.trick_leader
    best_at, best = 0, trick[0]
    for i in range(1, len(trick)):
        if _beats(trick[i], best, trump):
            best_at, best = i, trick[i]
    best_seat = order[leader][best_at - 1] if best_at else leader
    at_stake = at_stake or any(c % 13 == TEN_RANK for c in trick)
    if best_seat == seat ^ 2 and _unbeatable(best, led, trump, later, hands):
        tens = [c for c in cards if c % 13 == TEN_RANK]
        return tens[0] if tens else _cheapest_winner(cards, trump)
    sure = [c for c in cards if _beats(c, best, trump) and _unbeatable(c, led, trump, later, hands)]
    if sure and (sweeping or at_stake or best_seat & 1 != seat & 1
                 or (streak is not None and streak & 1 != seat & 1)):
        return _cheapest_winner(sure, trump)
    return _cheapest(cards, trump)


def _unbeatable(card: int, led: int, trump: int, later: tuple[int, ...], hands: list[int]) -> bool:
    """No player still to play in this trick can beat ``card`` with a legal card."""
    suit = card // 13
    for seat in later:
        hand = hands[seat]
        follow = hand & SUIT_MASKS[led]
        options = follow or hand
        if suit == trump:
            if options & SUIT_MASKS[trump] & ~((2 << card) - 1):
                return False
        elif (options & SUIT_MASKS[suit] & ~((2 << card) - 1)) or (
            trump >= 0 and not follow and hand & SUIT_MASKS[trump]
        ):
            return False
    return True


def _beats(card: int, best: int, trump: int) -> bool:
    """Does ``card`` beat the trick's best card so far (same suit higher, or a trump)?"""
    suit, best_suit = card // 13, best // 13
    if suit == trump and best_suit != trump:
        return True
    return suit == best_suit and card > best


_ORDER = (
    tuple(tuple((s + i) % 4 for i in range(1, 4)) for s in range(4)),
    tuple(tuple((s - i) % 4 for i in range(1, 4)) for s in range(4)),
)
"""_ORDER[anticlockwise][seat]: the players after ``seat`` in play order."""


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
