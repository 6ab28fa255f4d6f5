"""The search sample bot: perfect-information Monte Carlo, guided by the heuristic, on the engine.

For each card decision it repeatedly imagines the unseen cards (``sdk.sampling.Sampler``: each
placement consistent with every void and known card is equally likely), and in each imagined
world scores every candidate action on that same world (a paired comparison, so the noise of the
deal cancels out between candidates). With more than three tricks left a world is finished by a
fast greedy policy with perfect information; in the last three tricks it is solved exactly
(alpha-beta with equivalent-card pruning), where a sampled world is most informative and greedy
play most wrong.

The heuristic bot (``sample_bots.heuristic``) ranks the candidates first. Why: with a short budget
only a few dozen worlds fit in a move, too few to rank thirteen cards reliably, and a determinized
search is biased (it assumes it will know every hand later on). So the search only considers the
heuristic's best few cards, and it overrides the heuristic's choice only when the paired evidence
says so with some confidence. Trump calls and the face-down card are the heuristic's.

Everything runs on ``arena.engine.hand.HandState`` (clone, play, legal_mask): there is no second copy of
the rules. The deadline is checked after every evaluation and every 64 solver nodes, so a move
ends close to its budget.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from arena.engine import play_key, play_orders, trick_best
from arena.engine.actions import REVEAL, Action, DeclineTrump, PlayCard, RevealTrump
from arena.engine.bidding_hand import BiddingAction, BiddingDecision
from arena.engine.cards import SUIT_MASKS, TENS, Card, Rank, Suit
from arena.engine.hand import HandState
from arena.engine.outcome import HandResult
from arena.engine.rules import Capture, HandResultRule, Rules
from sample_bots.heuristic.bot import HeuristicBot, Thinking
from sample_bots.heuristic.weights import WeightsFor, hand_set
from sample_bots.search import bidding
from sdk import MatchStart, MoveRelease
from sdk.bot import BiddingView, Bot, BotView, seeded_rng
from sdk.sampling import Sampler

TEN_RANK = int(Rank.TEN)
REVEAL_MOVE = -1
"""The solver's code for asking for (or showing) the face-down trump."""
MAX_WORLDS = 2000


@dataclass(frozen=True, slots=True)
class SearchBudget:
    """How much of the clock a move may use, and how the search spends it.

    ``share_of_move`` of the per-move limit plus a small slice of the bank, capped by
    ``max_per_move`` (seconds) when set; ``reserve`` is left for the reply to travel.
    """

    share_of_move: float = 0.6
    slot_share: float = 0.75
    """The share of the per-move limit under ``slot-end`` release, where the bank is all or
    nothing (an overrun spends it whole) and answering early saves no time."""
    slot_margin: float = 0.03
    """Seconds kept back under ``slot-end`` for the round trip's jitter (Python gRPC: tens of
    ms on a loaded host): a second overrun there is a timeout."""
    max_per_move: float | None = None
    reserve: float = 0.004
    candidates: int = 4
    """How many of the heuristic's best cards the search compares."""
    endgame_tricks: int = 3
    """Tricks left (including the one in progress) from which every world is solved exactly
    and every legal card (up to equivalence) is compared; before that, greedy playouts."""
    confidence: float = 1.0
    """z-score the paired advantage over the heuristic's choice must reach to override it
    (greedy playouts: their bias is the search's main weakness early in a hand)."""
    endgame_confidence: float = 0.5
    """The same, for exactly solved worlds (only the sampling noise and the determinization
    bias are left)."""
    bidding_seconds: float = 0.15
    """At most this (and a quarter of the per-move limit) for a bidding game's play decision."""


class SearchBot(Bot):
    """Heuristic-guided determinized search with an exact endgame; see the module docstring."""

    name = "search"

    def __init__(self, seed: int = 0, budget: SearchBudget | None = None,
                 weights: WeightsFor = hand_set) -> None:
        self.seed = seed
        self.budget = budget or SearchBudget()
        self.weights = weights
        """The numbers of the heuristic that ranks the candidates and calls trumps, by the rules."""
        self.rng = random.Random(seed)
        self.move_times: list[float] = []
        self.worlds: list[int] = []
        self.sips_bank = True
        """On reply the bank is charged by the second and may be sipped; at slot end it may not."""
        self._heuristic = HeuristicBot()

    def on_match_start(self, start: MatchStart) -> None:
        self.rng = seeded_rng(start, self.seed)
        self.sips_bank = start.time_control.release is not MoveRelease.SLOT_END

    def call_trump(self, view: BotView) -> Suit | DeclineTrump:
        """Five cards say little that sampling could improve on: the heuristic's suit (or its
        decline, where the rules allow one)."""
        return HeuristicBot(self.weights(view.observation.rules)).call_trump(view)

    def hide_trump(self, view: BotView) -> Card:
        return HeuristicBot(self.weights(view.observation.rules)).hide_trump(view)

    def decide_bidding(self, view: BiddingView) -> BiddingAction:
        """Twenty-eight and Twenty-nine: the heuristic's auction and face-down card; in play,
        rollouts over sampled deals (``sample_bots/search/bidding.py``) where there is a choice."""
        legal = view.observation.legal_actions
        if view.observation.decision is BiddingDecision.PLAY and len(legal) > 1:
            deadline = time.perf_counter() + min(self.budget.bidding_seconds, 0.25 * view.per_move)
            chosen = bidding.choose(view, self.rng, deadline)
            if chosen is not None:
                return chosen
        return self._heuristic.decide_bidding(view)

    def play(self, view: BotView) -> Card | PlayCard | RevealTrump:
        start = time.perf_counter()
        action = self._search(view, start)
        self.move_times.append(time.perf_counter() - start)
        if isinstance(action, RevealTrump):
            return REVEAL
        return view.unseen_if_allowed(action.card)  # type: ignore[union-attr]

    # ---------------------------------------------------------------- budget
    def _deadline(self, view: BotView, start: float) -> float:
        """A share of the per-move limit, topped up from the bank by a twentieth of what is
        left (at most half a move): the bank drains only while it holds more than about eight
        moves' worth, so it stays a reserve against a slow move. Under ``slot-end`` release a
        larger share and no bank (it would be spent whole). Never more than the cap; a reserve
        is always left for the reply to travel."""
        if self.sips_bank:
            budget = self.budget.share_of_move * view.per_move
            budget += min(view.bank_left * 0.05, view.per_move * 0.5)
        else:
            budget = self.budget.slot_share * view.per_move - self.budget.slot_margin
        if self.budget.max_per_move is not None:
            budget = min(budget, self.budget.max_per_move)
        return start + max(0.0, budget - self.budget.reserve)

    # ---------------------------------------------------------------- search
    def _search(self, view: BotView, start: float) -> Action:
        """Rank with the heuristic, then compare its best few actions on sampled worlds."""
        obs = view.observation
        legal = obs.legal_actions
        if len(legal) == 1:
            return legal[0]
        deadline = self._deadline(view, start)
        endgame = _tricks_left(obs.rules.hand_size, obs.tricks) <= self.budget.endgame_tricks
        candidates = self._candidates(view, legal, endgame)
        if len(candidates) == 1 or time.perf_counter() >= deadline:
            return candidates[0]
        return candidates[self._compare(view, candidates, deadline, endgame)]

    def _compare(self, view: BotView, candidates: list[Action], deadline: float, endgame: bool) -> int:
        """The index of the candidate to play, from their values on sampled worlds."""
        scores = self._sample_scores(view, candidates, deadline, endgame)
        self.worlds.append(len(scores))
        confidence = self.budget.endgame_confidence if endgame else self.budget.confidence
        return _choose(scores, confidence)

    def _candidates(self, view: BotView, legal: tuple[Action, ...], endgame: bool) -> list[Action]:
        """The heuristic's choice first, then its next best cards (in the endgame every card,
        one per class of equivalent cards); a legal reveal is always compared too (the
        heuristic's odds for it are the roughest)."""
        think = Thinking(view, self.weights(view.observation.rules))
        cards = [a for a in legal if isinstance(a, PlayCard) and not a.face_down]  # the same card twice
        scored = sorted(cards, key=lambda a: (-think.value(a.card, think.active), a.card))
        if endgame:
            ranked: list[Action] = _distinct(scored, view)
        else:
            ranked = list(scored[: self.budget.candidates])
        if REVEAL in legal:
            if think.should_reveal():
                ranked.insert(0, REVEAL)
            else:
                ranked.append(REVEAL)
        return ranked

    def _sample_scores(self, view: BotView, candidates: list[Action], deadline: float,
                       endgame: bool) -> list[list[float]]:
        """One row per imagined world: each candidate's value on that world, same world for all."""
        obs = view.observation
        seat, rules = obs.seat, obs.rules
        team = seat & 1
        sampler = Sampler(obs)
        solver = Solver(rules, team, deadline)
        rows: list[list[float]] = []
        while len(rows) < MAX_WORLDS:
            base = sampler.state(sampler.sample(self.rng))
            row = []
            for action in candidates:
                world = base.clone()
                world.apply(action)
                if endgame:
                    try:
                        row.append(solver.value(world))
                    except OutOfTimeError:
                        return rows
                else:
                    row.append(playout(world, rules, team))
                if time.perf_counter() >= deadline:
                    return rows
            rows.append(row)
        return rows


def _tricks_left(hand_size: int, tricks: tuple[object, ...]) -> int:
    """Tricks still to finish, the one in progress included."""
    return hand_size - len(tricks)


def _distinct(ranked: list[PlayCard], view: BotView) -> list[Action]:
    """One card per class of equivalent cards, keeping the heuristic's order: two cards of a
    suit with no unplayed card of another seat between them (and neither a ten) are alike."""
    obs = view.observation
    played = 0
    for trick in obs.tricks:
        for card in trick.cards:
            if card is not None:  # an unseen face-down card may be any card out: not counted played
                played |= 1 << card
    mine = 0
    for action in ranked:
        mine |= 1 << action.card
    out: list[Action] = []
    seen: set[int] = set()
    for action in ranked:
        card = action.card
        cls = _class_of(card, mine, played)
        if cls not in seen:
            seen.add(cls)
            out.append(action)
    return out


def _class_of(card: int, mine: int, played: int) -> int:
    """The highest card of ``card``'s run in ``mine`` (played cards skipped, tens alone)."""
    if card % 13 == TEN_RANK:
        return card
    top = card
    probe = card + 1
    while probe % 13 != 0:
        if played >> probe & 1:
            probe += 1
            continue
        if mine >> probe & 1 and probe % 13 != TEN_RANK:
            top = probe
            probe += 1
            continue
        break
    return top


def _choose(rows: list[list[float]], confidence: float) -> int:
    """The candidate with the best mean, if its paired advantage over the heuristic's choice
    (index 0) is ``confidence`` standard errors clear of zero; otherwise the heuristic's."""
    n = len(rows)
    if n < 2:
        return 0
    width = len(rows[0])
    means = [sum(r[i] for r in rows) / n for i in range(width)]
    best = max(range(width), key=lambda i: (means[i], -i))
    if best == 0:
        return 0
    diffs = [r[best] - r[0] for r in rows]
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    if var == 0.0:
        return best if mean > 0 else 0
    return best if mean / math.sqrt(var / n) >= confidence else 0


# ------------------------------------------------------------------- evaluation
GreedyRule = Callable[[HandState, int, tuple[tuple[int, ...], ...], int, bool], int]
"""``_greedy_card``'s signature: the state, its legal mask, the play orders, the last trick, every trick scored."""


def playout(state: HandState, rules: Rules, team: int, greedy: GreedyRule | None = None) -> float:
    """Finish ``state`` with the greedy perfect-information policy (``greedy``, this bot's
    ``_greedy_card`` by default; the expert passes a faster equal one); its value for ``team``."""
    choose = greedy or _greedy_card
    last_trick = rules.hand_size
    order = play_orders(rules.direction)
    every_trick = rules.capture is not Capture.SWEEP
    while not state.is_over:
        mask = state.legal_mask()
        if mask == 0:  # not a card decision (cannot happen once play has started)
            state.apply(state.legal_actions()[0])
        elif mask & (mask - 1) == 0:
            state.play(mask.bit_length() - 1)
        else:
            state.play(choose(state, mask, order, last_trick, every_trick))
    return reward(rules, state, team)


def reward(rules: Rules, state: HandState, team: int) -> float:
    """The hand's value for ``team``, with a small pull towards tens (or tricks) captured."""
    result = state.result
    assert result is not None
    return result_reward(rules, result, team)


def result_reward(rules: Rules, result: HandResult, team: int) -> float:
    """``reward`` of a finished hand's result."""
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


class OutOfTimeError(Exception):
    """The move's deadline passed in the middle of an exact solve."""


@dataclass(slots=True)
class Solver:
    """Exact minimax with perfect information (alpha-beta, fail-hard), for one team.

    It checks the clock every ``CHECK_EVERY`` nodes and raises ``OutOfTimeError`` past the deadline:
    a four-trick endgame can take tens of milliseconds on a busy machine, longer than a move."""

    rules: Rules
    team: int
    deadline: float = math.inf
    nodes: int = 0

    CHECK_EVERY = 64

    def value(self, state: HandState, alpha: float = -math.inf, beta: float = math.inf) -> float:
        """``state`` is consumed: forced moves and the last alternative are played on it in
        place, which saves most of the clones (cloning is the solver's main cost)."""
        self.nodes += 1
        if self.nodes % self.CHECK_EVERY == 0 and time.perf_counter() >= self.deadline:
            raise OutOfTimeError
        while True:
            if state.is_over:
                return reward(self.rules, state, self.team)
            mask = state.legal_mask()
            if mask & (mask - 1) or state.hidden_card is not None:
                break
            state.play(mask.bit_length() - 1)
        seat = state.to_move
        assert seat is not None
        moves = _moves(state, mask)
        maximizing = seat & 1 == self.team
        last = len(moves) - 1
        for index, move in enumerate(moves):
            child = state if index == last else state.clone()
            if move == REVEAL_MOVE:
                child.apply(REVEAL)
            else:
                child.play(move)
            value = self.value(child, alpha, beta)
            if maximizing:
                if value > alpha:
                    alpha = value
            elif value < beta:
                beta = value
            if alpha >= beta:
                break
        return alpha if maximizing else beta


def solve(state: HandState, rules: Rules, team: int) -> float:
    """The exact value of ``state`` for ``team`` (no deadline); ``state`` is consumed."""
    return Solver(rules, team).value(state)


def _moves(state: HandState, mask: int) -> list[int]:
    """Legal cards up to equivalence, best-first: in a suit, cards of the mover with no live card
    of another seat between them win and lose the same tricks, so one stands for all (a ten is
    never merged: it is the prize). A reveal, when legal, is tried last."""
    live = state.hand(0) | state.hand(1) | state.hand(2) | state.hand(3)
    for card in state.trick_cards:
        live |= 1 << card
    hidden = state.hidden_card
    if hidden is not None:
        live |= 1 << hidden
    out: list[int] = []
    for suit in range(4):
        mine = mask & SUIT_MASKS[suit]
        if not mine:
            continue
        if mine & (mine - 1) == 0:
            out.append(mine.bit_length() - 1)
            continue
        run_open = False
        for card in range(suit * 13 + 12, suit * 13 - 1, -1):
            if not live >> card & 1:
                continue
            if not mine >> card & 1:
                run_open = False
            elif card % 13 == TEN_RANK:
                out.append(card)
                run_open = False
            elif not run_open:
                out.append(card)
                run_open = True
    out.sort(key=lambda c: -(c % 13))
    ordered = _interleave(out)
    if hidden is not None and REVEAL in state.legal_actions():
        ordered.append(REVEAL_MOVE)
    return ordered


def _interleave(cards: list[int]) -> list[int]:
    """Highest, lowest, second highest, ...: the two natural plays (win or duck) come first."""
    out = []
    i, j = 0, len(cards) - 1
    while i <= j:
        out.append(cards[i])
        if i != j:
            out.append(cards[j])
        i += 1
        j -= 1
    return out


# ------------------------------------------------------------------- greedy policy
def _cheapest(cards: list[int], trump: int) -> int:
    """The least valuable card: not a ten, not a trump, lowest rank."""
    return min(cards, key=lambda c: (c % 13 == TEN_RANK, c // 13 == trump, c % 13))


def _cheapest_winner(cards: list[int], trump: int) -> int:
    return min(cards, key=lambda c: (c // 13 == trump, c % 13))


def _greedy_card(state: HandState, mask: int, order: tuple[tuple[int, ...], ...], last_trick: int,
                 every_trick: bool) -> int:
    """Perfect-information rule of thumb: take a trick that matters with the cheapest sure
    winner, give a ten to a partner who surely wins, otherwise throw the cheapest card.
    Under direct capture (``every_trick``) every trick matters: each one is scored."""
    seat = state.to_move
    assert seat is not None
    trump_suit = state.trump_in_force
    trump = -1 if trump_suit is None else int(trump_suit)
    trick = state.trick_cards
    later = order[seat][1: 4 - len(trick)]
    hands = [state.hand(s) for s in range(4)]
    streak = state.streak_holder
    last = state.trick_number == last_trick
    at_stake = last or every_trick or bool(state.pile & TENS)
    sweeping = last or streak == seat
    cards = _bits(mask)
    if not trick:
        sure = [c for c in cards if _unbeatable(c, c // 13, trump, later, hands)]
        if sure and (sweeping or at_stake or (streak is not None and streak & 1 != seat & 1)):
            return _cheapest_winner(sure, trump)
        return _cheapest(cards, trump)
    led = trick[0] // 13
    packed = trick_best(trick, trump)
    best, best_key = trick[packed & 3], packed >> 2
    best_seat = order[state.trick_leader][packed & 3]
    at_stake = at_stake or any(c % 13 == TEN_RANK for c in trick)
    if best_seat == seat ^ 2 and _unbeatable(best, led, trump, later, hands):
        tens = [c for c in cards if c % 13 == TEN_RANK]
        return tens[0] if tens else _cheapest(cards, trump)
    sure = [c for c in cards if play_key(c, led, trump) > best_key and _unbeatable(c, led, trump, later, hands)]
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


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
