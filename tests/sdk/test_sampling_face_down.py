"""The tracker and the sampler with face-down discards (``maker_discard: face_down``, preset
``court-piece-double-sir``; rules.md: the other seats "see only that a face-down card was
played").

What a seat may infer of a face-down discard it did not see: its player is the trump maker, who
plays face down only when unable to follow, out of its hand at that moment. So the card is of
neither the led suit nor any suit the maker had already shown void in; it is not the face-down
trump card (that is not in the hand until revealed); nothing else. Every placement of the unseen
cards that respects this (and the usual hand sizes and voids) is equally likely: the sampler
must draw them uniformly, checked against an enumeration written from the rule, not from the
tracker's slots.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from arena.engine.cards import CARDS, Card, cards_of
from arena.engine.observation import Observation, observe
from arena.engine.rules import rules_for
from sdk.sampling import Placement, Sampler
from sdk.tracker import CardTracker
from tests.sdk_helpers import check_consistent, check_uniform, playout, real_face_down, suits_mask


def face_down_bans(obs: Observation) -> list[int]:
    """For each face-down discard ``obs.seat`` did not see, in order, the suits it cannot be
    (as a 4-bit set): the led suit and the suits its player had failed to follow before."""
    shown: dict[int, int] = {}
    bans: list[int] = []
    plays = [list(zip(t.seats, t.cards, strict=True)) for t in obs.tricks]
    plays.append(list(obs.current_trick))
    for trick in plays:
        if not trick:
            continue
        lead = trick[0][1]
        assert lead is not None
        for seat, card in trick[1:]:
            if card is None:
                bans.append(shown.get(seat, 0) | 1 << lead.suit)
            if card is None or card.suit != lead.suit:
                shown[seat] = shown.get(seat, 0) | 1 << lead.suit
    return bans


def enumerate_placements(obs: Observation, bans: list[int] | None = None) -> list[Placement]:
    """Every placement of the unseen cards: other hands (sizes, voids and known cards from the
    tracker), the face-down trump and the unseen face-down discards (``bans``: from the rule
    unless given)."""
    t = CardTracker.from_view(obs)
    me = obs.seat
    pool = cards_of(t.unknown)
    others = [s for s in range(4) if s != me]
    room = {s: obs.hand_sizes[s] - t.known[s].bit_count() for s in others}
    hidden_slot = obs.hidden_trump_holder is not None and obs.hidden_trump_holder != me
    if bans is None:
        bans = face_down_bans(obs)
    out: list[Placement] = []
    hands = {s: t.known[s] for s in others}
    down: list[Card | None] = [None] * len(bans)
    hidden: list[Card | None] = [obs.hidden_trump_card]

    def place(i: int) -> None:
        if i == len(pool):
            full = [hands.get(s, t.hand) for s in range(4)]
            assert all(c is not None for c in down)
            out.append(Placement((full[0], full[1], full[2], full[3]), (0, 0, 0, 0), hidden[0],
                                 tuple(c for c in down if c is not None)))
            return
        card = CARDS[pool[i]]
        for s in others:
            if room[s] and not suits_mask(t.voids[s]) >> card & 1:
                room[s] -= 1
                hands[s] |= 1 << card
                place(i + 1)
                hands[s] ^= 1 << card
                room[s] += 1
        if hidden_slot and hidden[0] is None:
            hidden[0] = card
            place(i + 1)
            hidden[0] = None
        for k, banned in enumerate(bans):
            if down[k] is None and not banned >> card.suit & 1:
                down[k] = card
                place(i + 1)
                down[k] = None

    if not any(obs.cards_to_come):
        place(0)
    return out


def face_down_positions(count: int) -> Iterator[Observation]:
    """Views of seats other than the maker while a face-down discard is unseen, from seeded
    court-piece-double-sir playouts (random play discards face down often)."""
    rules = rules_for("court-piece-double-sir")
    for seed in range(400):
        for state in playout(rules, seed):
            if not state.face_down_cards or state.is_over:
                continue
            for seat in range(4):
                if seat != state.first_player:
                    yield observe(state, seat)
                    count -= 1
                    if count == 0:
                        return


def test_the_tracker_places_each_unseen_face_down_discard_as_the_rule_allows() -> None:
    seen = 0
    for obs in face_down_positions(300):
        t = CardTracker.from_view(obs)
        assert list(t.face_down_slots) == face_down_bans(obs)
        assert len(t.face_down_slots) == sum(c is None for tr in obs.tricks for c in tr.cards) + sum(
            c is None for _, c in obs.current_trick)
        seen += len(t.face_down_slots)
    assert seen >= 300


def test_face_down_samples_are_consistent_and_indistinguishable() -> None:
    rng = random.Random(17)
    rules = rules_for("court-piece-double-sir")
    checked = 0
    for seed in range(40):
        for state in playout(rules, seed):
            if not state.face_down_cards or state.is_over:
                continue
            for seat in range(4):
                obs = observe(state, seat)
                sampler = Sampler(obs)
                placement = sampler.sample(rng)
                check_consistent(obs, placement)
                world = sampler.state(placement)
                assert observe(world, seat) == obs
                if state.to_move == seat:
                    assert world.legal_actions() == state.legal_actions()
                assert world.face_down_cards.bit_count() == state.face_down_cards.bit_count()
                checked += seat != state.first_player
    assert checked >= 200


def test_the_real_face_down_cards_are_always_a_consistent_placement() -> None:
    rules = rules_for("court-piece-double-sir")
    for seed in range(30):
        for state in playout(rules, seed):
            for seat in range(4):
                obs = observe(state, seat)
                bans = face_down_bans(obs)
                real = real_face_down(state, seat)
                assert len(real) == len(bans)
                assert all(not banned >> CARDS[c].suit & 1 for c, banned in zip(real, bans, strict=True))


def late(observations: Iterator[Observation]) -> Iterator[Observation]:
    """Views with 5 to 9 unseen cards of unknown place, the trump still down or not."""
    for obs in observations:
        t = CardTracker.from_view(obs)
        if 5 <= t.unknown.bit_count() <= 9 and t.face_down_slots:
            yield obs


def test_face_down_placements_are_uniform() -> None:
    checked = check_uniform(late(face_down_positions(20000)), random.Random(2027), 5, enumerate_placements)
    assert checked >= 3


def test_the_enumeration_bans_what_the_rule_bans() -> None:
    """Negative control of the enumeration: without the bans it finds more placements, so the
    uniformity test above would catch a sampler that ignored them."""
    for obs in late(face_down_positions(20000)):
        bans = face_down_bans(obs)
        t = CardTracker.from_view(obs)
        if any(suits_mask(b) & t.unknown for b in bans):
            assert Sampler(obs).count_unlimited() == len(enumerate_placements(obs))
            loose = enumerate_placements(obs, [0] * len(bans))
            assert len(loose) > len(enumerate_placements(obs))
            return
    raise AssertionError("no late position where a ban matters")
