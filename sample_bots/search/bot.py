"""The search sample bot: determinized Monte Carlo over the engine's own rules.

For each decision it repeatedly imagines the unseen cards (``sdk.sampling``: consistent with
every void and constraint the seat knows), picks a root action by UCB1, plays it in that
imagined world, finishes the hand with a fast greedy policy, and scores the outcome for its
own team. It stops when its time budget for the move is spent, and plays the action with the
best mean. The budget is a share of the per-move limit, plus a little of the bank late in a
hand, and never close to the deadline.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass

from arena.actions import REVEAL, Action, RevealTrump
from arena.cards import TENS, Card, Rank, Suit
from arena.hand import Decision, HandState
from arena.referee.messages import MatchStart
from arena.rules import HandResultRule, Rules
from sdk.bot import Bot, BotView
from sdk.sampling import Sampler

EXPLORATION = 0.7
TEN_RANK = int(Rank.TEN)


@dataclass(frozen=True, slots=True)
class SearchBudget:
    """How much of the clock a move may use (seconds)."""

    share_of_move: float = 0.5
    max_per_move: float | None = None
    min_samples: int = 8


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
        start = time.perf_counter()
        legal = view.observation.legal_actions
        if len(legal) == 1:
            return legal[0]
        deadline = self._deadline(view)
        obs = view.observation
        seat = obs.seat
        rules = obs.rules
        totals = [0.0] * len(legal)
        visits = [0] * len(legal)
        runs = 0
        sampler = Sampler(obs)
        while runs < self.budget.min_samples * len(legal) or time.perf_counter() < deadline:
            world = sampler.state(sampler.sample(self.rng))
            index = _ucb_pick(totals, visits, runs)
            world.apply(legal[index])
            _rollout(world, self.rng)
            totals[index] += _reward(rules, world, seat)
            visits[index] += 1
            runs += 1
            if runs >= 20000:
                break
        self.move_times.append(time.perf_counter() - start)
        best = max(range(len(legal)), key=lambda i: (totals[i] / visits[i]) if visits[i] else -math.inf)
        return legal[best]


def _ucb_pick(totals: list[float], visits: list[int], runs: int) -> int:
    for i, n in enumerate(visits):
        if n == 0:
            return i
    log_runs = math.log(runs)
    return max(range(len(totals)),
               key=lambda i: totals[i] / visits[i] + EXPLORATION * math.sqrt(log_runs / visits[i]))


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


def _rollout(state: HandState, rng: random.Random) -> None:
    """Finish the hand fast: win a trick cheaply when it holds a ten or the streak is at stake,
    else throw the lowest card; trump calls and hides by the longest suit."""
    while not state.is_over:
        decision = state.decision
        if decision is not Decision.PLAY:
            actions = state.legal_actions()
            state.apply(actions[rng.randrange(len(actions))])
            continue
        mask = state.legal_mask()
        if mask & (mask - 1) == 0:
            state.play(mask.bit_length() - 1)
            continue
        state.play(_greedy_card(state, mask, rng))


def _greedy_card(state: HandState, mask: int, rng: random.Random) -> int:
    trick = state.current_trick
    if not trick:
        # Lead: a random card, preferring not to lead a ten.
        safe = mask & ~TENS or mask
        return _random_bit(safe, rng)
    seat = state.to_move
    assert seat is not None
    led = trick[0][1] // 13
    trump = state.trump_in_force
    best_seat, best_card = trick[0]
    for s, c in trick[1:]:
        if _beats(c, best_card, led, trump):
            best_seat, best_card = s, c
    partner_winning = best_seat == seat ^ 2
    stakes = any(c % 13 == TEN_RANK for _, c in trick) or state.pile & TENS or state.streak_holder is not None
    winners = [c for c in _bits(mask) if _beats(c, best_card, led, trump)]
    if winners and not partner_winning and (stakes or rng.random() < 0.5):
        return min(winners, key=lambda c: (c // 13 == trump, c % 13))
    # Lose (or let partner win) as cheaply as possible; keep tens for partner's tricks.
    cards = _bits(mask)
    if partner_winning:
        tens = [c for c in cards if c % 13 == TEN_RANK]
        if tens:
            return tens[0]
    return min(cards, key=lambda c: (c % 13 == TEN_RANK, c // 13 == trump, c % 13))


def _beats(card: int, best: int, led: int, trump: Suit | None) -> bool:
    """Does ``card`` beat the trick's best card so far (same suit higher, or a trump)?"""
    suit, best_suit = card // 13, best // 13
    if trump is not None and suit == trump and best_suit != trump:
        return True
    return suit == best_suit and card > best


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _random_bit(mask: int, rng: random.Random) -> int:
    k = rng.randrange(mask.bit_count())
    while k:
        mask &= mask - 1
        k -= 1
    return (mask & -mask).bit_length() - 1

