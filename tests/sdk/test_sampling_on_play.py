"""The tracker and the sampler under an on_play trump (rules.md, ``on_play``; preset
``mendikot-closed``).

While the card is face down its suit decides every trick, so a seat other than the holder learns
about it from each finished trick's winner (``tests/engine/test_on_play_hiding.py`` shows that is
all it learns, with the holder's public plays): a discard that won was a trump, a discard beaten
by the led suit was not. And it counts as part of the holder's hand for following suit, so a
holder who failed to follow a suit holds no face-down card of it. The tracker's ``hidden_suits``
must be exactly that set, and the sampler must place the card in it, uniformly over every
placement consistent with the view, as the other sampler tests check against brute force.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator

from arena.engine.cards import CARDS, cards_of
from arena.engine.hand import HandState
from arena.engine.observation import Observation, observe
from arena.engine.outcome import Trick
from arena.engine.rules import rules_for
from sdk.sampling import Placement, Sampler
from sdk.tracker import CardTracker
from tests.sdk_helpers import assert_uniform, check_consistent, playout, suits_mask

RULES = rules_for("mendikot-closed")


def winner_with(trick: Trick, trump: int) -> int:
    """seed 001: "If any trumps are played, the highest trump wins the trick. Otherwise the highest
    card of the suit led wins." (the on_play trump is in force from the first trick)."""
    led = trick.cards[0].suit

    def key(position: int) -> tuple[int, int]:
        card = trick.cards[position]
        if card.suit == trump:
            return (2, int(card.rank))
        return (1, int(card.rank)) if card.suit == led else (0, 0)

    return trick.seats[max(range(4), key=key)]


def suits_the_view_allows(obs: Observation) -> set[int]:
    """The face-down card's possible suits, from the rule texts alone: every finished trick's
    winner, and no suit its holder failed to follow (rules.md: it counts as part of the hand)."""
    holder = obs.hidden_trump_holder
    assert holder is not None
    failed = {t.cards[0].suit for t in obs.tricks for s, c in zip(t.seats, t.cards, strict=True)
              if s == holder and c.suit != t.cards[0].suit}
    if obs.current_trick:
        led = obs.current_trick[0][1].suit
        failed |= {led for s, c in obs.current_trick if s == holder and c.suit != led}
    return {t for t in range(4) if t not in failed and all(winner_with(k, t) == k.winner for k in obs.tricks)}


def secret_views(seeds: range) -> Iterator[tuple[HandState, Observation]]:
    """Views of the seats other than the holder while the on_play card is down."""
    for seed in seeds:
        for state in playout(RULES, seed):
            if state.hidden_card is None or state.decision is None or state.decision.value != "play":
                continue
            for seat in range(4):
                if seat != state.first_player:
                    yield state, observe(state, seat)


def test_hidden_suits_are_exactly_what_the_winners_and_the_holders_voids_allow() -> None:
    narrowed = pinned = 0
    for state, obs in secret_views(range(60)):
        t = CardTracker.from_view(obs)
        allowed = suits_the_view_allows(obs)
        assert {s for s in range(4) if t.hidden_suits >> s & 1} == allowed
        assert state.hidden_card is not None and state.hidden_card.suit in allowed  # the truth is in it
        narrowed += len(allowed) < 4
        if len(allowed) == 1:
            pinned += 1
            assert t.trump == t.trump_in_force == state.hidden_card.suit  # known, though not named
    assert narrowed >= 200 and pinned >= 20


def test_samples_place_the_card_in_an_allowed_suit_and_the_world_looks_the_same() -> None:
    rng = random.Random(5)
    for index, (state, obs) in enumerate(secret_views(range(25))):
        if index % 5:
            continue
        sampler = Sampler(obs)
        allowed = suits_the_view_allows(obs)
        for _ in range(3):
            placement = sampler.sample(rng)
            check_consistent(obs, placement)
            assert placement.hidden_card is not None and placement.hidden_card.suit in allowed
            world = sampler.state(placement)
            assert observe(world, obs.seat) == obs
            assert world.trump_in_force == placement.hidden_card.suit  # in force in the world too
            if state.to_move == obs.seat:
                assert world.legal_actions() == state.legal_actions()


def brute_force(obs: Observation, winners_count: bool = True) -> list[Placement]:
    """Every consistent placement (the other hands and the face-down card), by enumeration;
    ``winners_count=False`` forgets what the winners and the holder's voids say of the card."""
    t = CardTracker.from_view(obs)
    me, holder = obs.seat, obs.hidden_trump_holder
    assert holder is not None and holder != me
    allowed = suits_the_view_allows(obs) if winners_count else {0, 1, 2, 3}
    pool = cards_of(t.unknown)
    others = [s for s in range(4) if s != me]
    sizes = [obs.hand_sizes[s] - t.known[s].bit_count() for s in others] + [1]
    out: list[Placement] = []
    for order in itertools.product(range(len(sizes)), repeat=len(pool)):
        if [order.count(i) for i in range(len(sizes))] != sizes:
            continue
        hands = [t.known[s] for s in range(4)]
        hands[me] = t.hand
        hidden = None
        for card, i in zip(pool, order, strict=True):
            if i == len(others):
                hidden = card
            else:
                hands[others[i]] |= 1 << card
        assert hidden is not None
        if hidden.suit not in allowed:
            continue
        if all(hands[s] & ~t.known[s] & suits_mask(t.voids[s]) == 0 for s in others):
            out.append(Placement((hands[0], hands[1], hands[2], hands[3]), (0, 0, 0, 0), CARDS[hidden]))
    return out


def test_on_play_placements_are_uniform_over_every_consistent_one() -> None:
    rng = random.Random(2027)
    checked = 0
    tried: set[object] = set()
    for _, obs in secret_views(range(600)):
        t = CardTracker.from_view(obs)
        if not 5 <= t.unknown.bit_count() <= 8:
            continue
        barred = suits_mask(0xF & ~t.hidden_suits) & t.unknown
        key = (obs.seat, obs.hand, obs.tricks, obs.current_trick)
        if not barred or key in tried:
            continue  # only views where the winners rule a suit of the unseen cards out
        tried.add(key)
        everything = brute_force(obs)
        sampler = Sampler(obs)
        assert sampler.count_unlimited() == len(everything)
        # Control: forgetting the winners would admit more placements (the sampler would fail).
        assert len(brute_force(obs, winners_count=False)) > len(everything)
        if not 3 <= len(everything) <= 60:
            continue
        assert_uniform(sampler, everything, rng)
        checked += 1
        if checked == 4:
            break
    assert checked >= 3
