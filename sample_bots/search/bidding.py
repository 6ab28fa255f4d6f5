"""The search bot's play of Twenty-eight and Twenty-nine: determinized rollouts.

For a play decision with a choice, it deals the cards it cannot see at random into the other
hands, respecting what the table showed (hand sizes, the suits a seat failed to follow, the
bidder's face-down card among its first four), replays the hand so far on that deal (a deal the
replay refuses is dropped), then plays each legal action out to the end with the heuristic at
every seat and keeps the action with the best mean result for its side. The auction and the
face-down card are the heuristic's. ``sdk.sampling`` does not restore a bidding hand, so the
sampler here is its own, small one.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

from arena.engine.actions import HIDE, PLAY, REVEAL, PlayCard
from arena.engine.bidding_hand import BiddingAction, BiddingHand
from arena.engine.bidding_observation import BiddingObservation, observe_bidding
from arena.engine.cards import SHORT_DECK, Card, cards_of
from arena.engine.deal import Deal
from arena.engine.errors import ArenaError
from arena.engine.seats import team_of
from sample_bots.heuristic import bidding as heuristic
from sdk.bot import BiddingView

POINTS_WEIGHT = 0.02
"""A card point's worth next to a game point, to break ties between equal contract outcomes."""


def world(obs: BiddingObservation, rng: random.Random) -> BiddingHand | None:
    """A hand consistent with ``obs``, replayed to this decision, or ``None`` (the draw broke a
    rule the replay checks: dropped)."""
    me = obs.seat
    contract = obs.contract
    if contract is None:
        return None
    bidder = contract.bidder
    played = [list[Card]() for _ in range(4)]
    void: list[set[int]] = [set(), set(), set(), set()]
    for plays in _plays(obs):
        for seat, card in plays:
            played[seat].append(card)
            if card.suit != plays[0][1].suit:
                void[seat].add(int(plays[0][1].suit))
    exposed = obs.reveal.card if obs.reveal is not None else None
    hidden = obs.hidden_trump_card  # this seat's own face-down card, or None
    known = set(obs.hand) | {c for cards in played for c in cards}
    if exposed is not None:
        known.add(exposed)
    if hidden is not None:
        known.add(hidden)
    pool = [c for c in cards_of(SHORT_DECK) if c not in known]
    rng.shuffle(pool)
    need = list(obs.hand_sizes)
    if exposed is not None and exposed not in played[bidder]:
        need[bidder] -= 1  # the exposed card is back in the bidder's hand, known to all
    down = obs.hidden_trump_holder is not None and bidder != me
    face_down: Card | None = hidden
    if down:
        face_down = pool.pop()  # the bidder's face-down card: any unseen card
    held: list[list[Card]] = [[] for _ in range(4)]
    held[me] = list(obs.hand)
    for seat in sorted((s for s in range(4) if s != me), key=lambda s: -len(void[s])):
        fits = [c for c in pool if int(c.suit) not in void[seat]]
        if len(fits) < need[seat]:
            return None
        take = fits[:need[seat]]
        held[seat] = take
        pool = [c for c in pool if c not in take]
    first = exposed if exposed is not None else face_down
    hands: list[tuple[Card, ...]] = []
    for seat in range(4):
        cards = [*played[seat], *held[seat]]
        if seat == bidder and first is not None:
            cards = [first, *(c for c in cards if c != first)]
        hands.append(tuple(cards))
    if first is None:
        return None
    return _replayed(obs, Deal(tuple(hands)), first)


def _replayed(obs: BiddingObservation, deal: Deal, face_down: Card) -> BiddingHand | None:
    try:
        state = BiddingHand(obs.rules, deal, obs.dealer)
        for _, call in obs.calls:
            state.apply(call)
        state.apply(HIDE[face_down])
        reveal = obs.reveal
        tricks = _plays(obs)
        for number, plays in enumerate(tricks, start=1):
            for position, (_, card) in enumerate(plays):
                if reveal is not None and (reveal.trick, reveal.position) == (number, position):
                    state.apply(REVEAL)
                state.apply(PLAY[card])
        if reveal is not None and (reveal.trick, reveal.position) == (len(tricks), len(tricks[-1])) \
                and state.reveal is None:
            state.apply(REVEAL)
    except ArenaError:
        return None
    if state.to_move != obs.seat or set(state.legal_actions()) != set(obs.legal_actions):
        return None
    return state


def _plays(obs: BiddingObservation) -> list[list[tuple[int, Card]]]:
    """Every trick's plays so far, the current one last (no card is played face down here)."""
    tricks = [list(zip(t.seats, (c for c in t.cards if c is not None), strict=True)) for t in obs.tricks]
    return [*tricks, list(obs.current_trick)]


def rollout_value(state: BiddingHand, team: int) -> float:
    """Play ``state`` out with the heuristic at every seat; the result for ``team``."""
    while not state.is_over:
        seat = state.to_move
        assert seat is not None
        view = BiddingView(observe_bidding(state, seat), 1.0, 0.0)
        card = heuristic.choose_play(view)
        state.apply(REVEAL if card is None else PLAY[card])
    result = state.result
    assert result is not None
    sign = 1 if result.bidding_team == team else -1
    return sign * result.game_points + POINTS_WEIGHT * (result.points[team] - result.points[1 - team])


def choose(view: BiddingView, rng: random.Random, deadline: float, max_worlds: int = 24) -> BiddingAction | None:
    """The legal action with the best mean rollout over sampled worlds, or ``None`` (no world
    found in time: the caller plays the heuristic's move)."""
    obs = view.observation
    legal: Sequence[BiddingAction] = obs.legal_actions
    team = team_of(obs.seat)
    totals = dict.fromkeys(legal, 0.0)
    worlds = attempts = 0
    while worlds < max_worlds and attempts < 4 * max_worlds and time.perf_counter() < deadline:
        attempts += 1
        state = world(obs, rng)
        if state is None:
            continue
        worlds += 1
        for action in legal:
            trial = state.clone()
            trial.apply(action)
            totals[action] += rollout_value(trial, team)
    if worlds == 0:
        return None
    return max(legal, key=lambda a: (totals[a], isinstance(a, PlayCard)))
