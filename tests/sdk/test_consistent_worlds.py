"""Consistent worlds (``bench/consistent_worlds.py``): every world the chain hands out explains each
play of the modelled seats by the heuristic's own policy, checked here by an independent replay;
it shows the deciding seat exactly its view; the true deal is consistent and a world with one
play made inconsistent is not; and the heuristic is the deterministic function of its view that
all this assumes."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.engine.actions import PLAY, CallTrump
from arena.engine.cards import CARDS, cards_of, mask_of
from arena.engine.deal import Deal
from arena.engine.hand import Decision, HandState
from arena.engine.observation import Observation, observe
from arena.engine.rules import rules_for
from bench.consistent_worlds import ConsistentWorlds
from sample_bots.heuristic.bot import HeuristicBot, best_trump_suit
from sdk.bot import BotView
from sdk.sampling import Placement
from tests.sdk_helpers import brute_force

RULES = rules_for("dehla-pakad")
OPPONENTS = frozenset({1, 3})


def heuristic_hand(seed: int) -> Iterator[tuple[HandState, BotView]]:
    """Seat 0's card decisions with a choice in a hand of four heuristic seats."""
    bot = HeuristicBot()
    state = HandState(RULES, Deal.from_seed(RULES, seed), seed % 4)
    while not state.is_over:
        seat = state.to_move
        assert seat is not None
        view = BotView(observe(state, seat), 1.0, 30.0)
        if seat == 0 and state.decision is Decision.PLAY and len(view.observation.legal_actions) > 1:
            yield state.clone(), view
        state.apply(bot.decide(view))


def real_placement(state: HandState) -> Placement:
    return Placement(tuple(state.hand(s) for s in range(4)), (0, 0, 0, 0), None, ())  # type: ignore[arg-type]


def history(obs: Observation) -> list[tuple[int, int]]:
    plays = [(s, c) for t in obs.tricks for s, c in zip(t.seats, t.cards, strict=True)] + list(obs.current_trick)
    return [(s, int(c)) for s, c in plays if c is not None]


def mismatches(obs: Observation, placement: Placement) -> int:
    """The modelled plays the heuristic would not have made in this world, by a replay of its
    own (not ``sdk.inference``'s): each seat's deal is its hand now plus the cards it played."""
    plays = history(obs)
    hands = [list(cards_of(placement.hands[s])) for s in range(4)]
    for s, c in plays:
        hands[s].insert(0, CARDS[c])
    state = HandState(RULES, Deal(tuple(tuple(h) for h in hands)), obs.dealer)
    assert obs.trump_setting is not None
    state.apply(CallTrump(obs.trump_setting.suit))
    bot, wrong = HeuristicBot(), 0
    for s, c in plays:
        if s in OPPONENTS and state.legal_mask().bit_count() > 1:
            wrong += bot.decide(BotView(observe(state, s), 1.0, 30.0)) != PLAY[c]
        state.play(c)
    return wrong


def call_explained(obs: Observation, placement: Placement) -> bool:
    """Some five of the caller's thirteen cards make the heuristic call the trump called."""
    caller = obs.first_player
    assert obs.trump_setting is not None
    cards = cards_of(placement.hands[caller] | mask_of(c for s, c in history(obs) if s == caller))
    return any(best_trump_suit(five) == obs.trump_setting.suit for five in itertools.combinations(cards, 5))


def test_the_heuristic_is_a_function_of_its_view() -> None:
    """Same observation, same card: from fresh bots, again and again, whatever the clock says."""
    for seed in range(3):
        state = HandState(RULES, Deal.from_seed(RULES, seed), seed % 4)
        bot = HeuristicBot()
        while not state.is_over:
            seat = state.to_move
            assert seat is not None
            obs = observe(state, seat)
            answers = {HeuristicBot().decide(BotView(obs, per_move, bank)) for per_move, bank in
                       ((1.0, 30.0), (0.05, 0.1), (3.0, 600.0))}
            answers |= {bot.decide(BotView(obs, 1.0, 30.0)) for _ in range(2)}
            assert len(answers) == 1
            state.apply(answers.pop())


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_every_world_explains_the_opponents_plays_and_shows_the_seat_its_view(seed: int) -> None:
    generator = ConsistentWorlds(HeuristicBot(), OPPONENTS, best_trump_suit, thin=3)
    rng = random.Random(seed)
    checked = 0
    for n, (_, view) in enumerate(heuristic_hand(seed)):
        obs = view.observation
        sampler, worlds = generator.draw(view, 4, rng)
        assert generator.stats.inconsistent_worlds == 0
        for placement in worlds if n % 2 == 0 else worlds[:1]:
            assert observe(sampler.state(placement), obs.seat) == obs  # the seat's own view, exactly
            assert placement.hands[obs.seat] == mask_of(obs.hand)
            assert mismatches(obs, placement) == 0
            if obs.first_player in OPPONENTS:
                assert call_explained(obs, placement)
            checked += 1
    assert checked >= 10
    assert generator.stats.repaired_starts > 0 and generator.stats.chain_accepted > 0


@settings(max_examples=6, deadline=None)
@given(st.integers(3, 10_000))
def test_the_true_deal_is_consistent_and_one_swap_that_breaks_a_play_is_not(seed: int) -> None:
    """The hand really played is consistent; swapping two unseen cards between the opponents
    (voids kept) so that one of their plays is no longer the heuristic's is caught."""
    generator = ConsistentWorlds(HeuristicBot(), OPPONENTS, best_trump_suit)
    rng = random.Random(seed)
    caught = 0
    for state, view in list(heuristic_hand(seed))[2::3]:
        obs = view.observation
        real = real_placement(state)
        assert generator.energy(view, real) == 0
        if obs.first_player in OPPONENTS:
            packet = generator.packet_of(view, real, rng)
            assert packet and generator.energy(view, real, packet) == 0
        wrong = broken(obs, real, rng)
        if wrong is not None:
            assert mismatches(obs, wrong) > 0
            assert generator.energy(view, wrong) > 0
            caught += 1
    assert caught > 0  # every seed tried had such a swap in some position (3 to 11: 1 to 3 of 3)


def broken(obs: Observation, real: Placement, rng: random.Random) -> Placement | None:
    """The real placement with one swap of cards between seats 1 and 3 that makes some play of
    theirs inconsistent (each suit kept where its holder has followed it: same suit only)."""
    pairs = [(a, b) for a in cards_of(real.hands[1]) for b in cards_of(real.hands[3]) if a.suit == b.suit]
    rng.shuffle(pairs)
    for a, b in pairs[:12]:
        hands = list(real.hands)
        hands[1] = hands[1] & ~(1 << a) | 1 << b
        hands[3] = hands[3] & ~(1 << b) | 1 << a
        candidate = Placement(tuple(hands), real.undealt, None, ())  # type: ignore[arg-type]
        if mismatches(obs, candidate):
            return candidate
    return None


def test_a_call_the_packet_does_not_explain_counts() -> None:
    generator = ConsistentWorlds(HeuristicBot(), OPPONENTS, best_trump_suit)
    rng = random.Random(5)
    for seed in range(20):
        state, view = next(heuristic_hand(seed))
        obs = view.observation
        if obs.first_player not in OPPONENTS:
            continue
        real = real_placement(state)
        assert obs.trump_setting is not None
        suit = obs.trump_setting.suit
        caller = cards_of(real.hands[obs.first_player] | mask_of(c for s, c in history(obs) if s == obs.first_player))
        fives = [five for five in (tuple(rng.sample(caller, 5)) for _ in range(200)) if best_trump_suit(five) != suit]
        if fives:
            assert generator.energy(view, real, mask_of(fives[0])) == 1
            return
    pytest.fail("no hand with an opponent's call and a packet that calls otherwise")


def late_views(seeds: range) -> Iterator[BotView]:
    """Seat 0's views with 4 to 8 unseen cards in hands of four heuristic seats."""
    for seed in seeds:
        for _, view in heuristic_hand(seed):
            obs = view.observation
            if 4 <= sum(obs.hand_sizes) - len(obs.hand) <= 8:
                yield view


def packets_explaining(obs: Observation, placement: Placement) -> int:
    """How many first packets of the caller's cards explain its call (1 if the call is not modelled)."""
    caller = obs.first_player
    if caller not in OPPONENTS:
        return 1
    assert obs.trump_setting is not None
    cards = cards_of(placement.hands[caller] | mask_of(c for s, c in history(obs) if s == caller))
    return sum(best_trump_suit(five) == obs.trump_setting.suit for five in itertools.combinations(cards, 5))


def test_the_chain_visits_the_enumerated_posterior_in_proportion() -> None:
    """On late positions, every consistent placement (enumerated) is reached, nothing else is, and
    each about as often as the posterior says: uniform over the consistent (world, first packet)
    pairs, so a world in proportion to the packets that explain the call. The chain's draws are
    correlated, so the bound is loose (each within a factor of 0.75 to 1.3 of its share; 0.89 to
    1.11 seen)."""
    checked = 0
    for view in late_views(range(30)):
        obs = view.observation
        generator = ConsistentWorlds(HeuristicBot(), OPPONENTS, best_trump_suit, thin=8)
        weights = {p: packets_explaining(obs, p) for p in brute_force(obs) if mismatches(obs, p) == 0}
        weights = {p: w for p, w in weights.items() if w}
        if not 2 <= len(weights) <= 12:
            continue
        rng = random.Random(checked)
        seen: Counter[Placement] = Counter()
        for _ in range(25 * len(weights)):
            seen.update(generator.draw(view, 16, rng)[1])
        assert set(seen) == set(weights)
        total, draws = sum(weights.values()), sum(seen.values())
        for placement, weight in weights.items():
            assert 0.75 < seen[placement] / (draws * weight / total) < 1.3, (seen, weights)
        checked += 1
        if checked == 4:
            return
    pytest.fail(f"only {checked} late positions with 2 to 12 consistent placements")
