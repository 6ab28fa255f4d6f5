"""Shared by the tracker and sampler tests: rule variants, seeded random playouts, and the
sampler's checks (every placement consistent, drawn uniformly)."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Callable, Iterable, Iterator

from arena.engine.cards import SUIT_MASKS, CardMask, cards_of
from arena.engine.deal import Deal
from arena.engine.hand import HandState
from arena.engine.observation import Observation
from arena.engine.rules import PRESETS, Rules, rules_for
from sdk.sampling import Placement, Sampler
from sdk.tracker import CardTracker

VARIANTS: dict[str, Rules] = {name: rules_for(name) for name in PRESETS} | {
    "dehla-pakad direction=anticlockwise": rules_for("dehla-pakad", {"direction": "anticlockwise"}),
    "dehla-pakad-cut deck=short32": rules_for("dehla-pakad-cut", {"deck": "short32"}),
    "mendikot trump=first_discard": rules_for("mendikot", {"trump": "first_discard"}),
    "court-piece-double-sir hide_from=full_hand": rules_for("court-piece-double-sir", {"hide_from": "full_hand"}),
    "mendikot trump=open_random": rules_for("mendikot", {"trump": "open_random"}),
    "mendikot trump=none": rules_for("mendikot", {"trump": "none"}),
    "court-piece trump_card=later": rules_for("court-piece", {"trump_card": "later", "trump_card_index": 10}),
    "court-piece decline=second_packet": rules_for("court-piece", {"decline": "second_packet"}),
    "court-piece-double-sir hidden_blind=true": rules_for("court-piece-double-sir", {"hidden_blind": True}),
    "dehla-pakad-hidden hidden_blind=true": rules_for("dehla-pakad-hidden", {"hidden_blind": True}),
}


def playout(rules: Rules, seed: int) -> Iterator[HandState]:
    """Every position of one random hand, before each decision."""
    rng = random.Random(seed)
    state = HandState(rules, Deal.from_seed(rules, seed), seed % 4)
    while not state.is_over:
        yield state
        state.apply(rng.choice(state.legal_actions()))


def suits_mask(suits: int) -> CardMask:
    return sum(SUIT_MASKS[s] for s in range(4) if suits >> s & 1)


def real_face_down(state: HandState, seat: int) -> tuple[int, ...]:
    """The face-down discards ``seat`` may not see, in the order played (its real placement)."""
    if seat == state.first_player or state.is_over:
        return ()
    down = [int(t.cards[i]) for t in state.tricks for i in t.face_down]  # type: ignore[arg-type]
    return (*down, *(int(state.current_trick[i][1]) for i in state.current_face_down))


def check_consistent(obs: Observation, placement: Placement) -> None:
    t = CardTracker.from_view(obs)
    me = obs.seat
    hands, undealt = placement.hands, placement.undealt
    assert hands[me] == t.hand
    placed = sum(hands[s] for s in range(4) if s != me) + sum(undealt)
    # The seat's own face-down card is not placed, a blind one (``hidden_blind``) is: unseen.
    if placement.hidden_card is not None and t.own_hidden is None:
        placed += 1 << placement.hidden_card
    placed += sum(1 << c for c in placement.face_down)
    assert placed == t.out  # exactly the unseen cards, each once (sums equal ORs only then)
    assert sum(h.bit_count() for s, h in enumerate(hands) if s != me) + sum(u.bit_count() for u in undealt) + (
        1 if placement.hidden_card is not None and t.own_hidden is None else 0
    ) + len(placement.face_down) == t.out.bit_count()
    # A face-down discard: one per unseen one, of no suit its player had shown void in (the led
    # suit among them).
    assert len(placement.face_down) == len(t.face_down_slots)
    for card, voids in zip(placement.face_down, t.face_down_slots, strict=True):
        assert not voids >> card.suit & 1
    for s in range(4):
        assert hands[s].bit_count() == obs.hand_sizes[s]
        assert undealt[s].bit_count() == obs.cards_to_come[s]
        if s != me:
            assert hands[s] & t.known[s] == t.known[s]
            assert hands[s] & ~t.known[s] & suits_mask(t.voids[s]) == 0
    if t.own_hidden is not None:
        assert placement.hidden_card == obs.hidden_trump_card
    elif obs.hidden_trump_holder is None:
        assert placement.hidden_card is None


def brute_force(obs: Observation) -> list[Placement]:
    """Every consistent placement of a small position, by enumeration."""
    t = CardTracker.from_view(obs)
    me = obs.seat
    pool = cards_of(t.unknown)
    others = [s for s in range(4) if s != me]
    sizes = [obs.hand_sizes[s] - t.known[s].bit_count() for s in others]
    out: list[Placement] = []
    for order in set(itertools.product(range(len(others)), repeat=len(pool))):
        if [order.count(i) for i in range(len(others))] != sizes:
            continue
        hands = [t.known[s] for s in range(4)]
        hands[me] = t.hand
        for card, i in zip(pool, order, strict=True):
            hands[others[i]] |= 1 << card
        if all(hands[s] & ~t.known[s] & suits_mask(t.voids[s]) == 0 for s in others):
            out.append(Placement((hands[0], hands[1], hands[2], hands[3]), (0, 0, 0, 0), None))
    return out


def check_uniform(
    observations: Iterable[Observation], rng: random.Random, want: int,
    enumerate_all: Callable[[Observation], list[Placement]] | None = None,
) -> int:
    """Sample each view's placements and compare with brute force: the same set (nothing
    inconsistent, nothing out of reach) at equal frequencies (chi-square). Views with 3 to 60
    placements count, each distinct view once; returns how many were checked (at most ``want``)."""
    checked = 0
    tried: set[tuple[object, ...]] = set()
    for obs in observations:
        key = (obs.hand, obs.tricks, obs.current_trick)
        if key in tried:
            continue
        tried.add(key)
        everything = (enumerate_all or brute_force)(obs)
        sampler = Sampler(obs)
        assert sampler.count_unlimited() == len(everything)
        if not 3 <= len(everything) <= 60:
            continue
        assert_uniform(sampler, everything, rng)
        checked += 1
        if checked == want:
            break
    return checked


def assert_uniform(sampler: Sampler, everything: list[Placement], rng: random.Random) -> None:
    """The sampler's draws hit exactly ``everything`` (nothing inconsistent, nothing out of reach)
    at equal frequencies (chi-square, 150 draws a placement)."""
    draws = 150 * len(everything)
    seen = Counter(sampler.sample(rng) for _ in range(draws))
    assert set(seen) == set(everything)
    expected = draws / len(everything)
    chi2 = sum((n - expected) ** 2 / expected for n in seen.values())
    dof = len(everything) - 1
    assert chi2 < dof + 6 * dof**0.5 + 10, (chi2, dof)
