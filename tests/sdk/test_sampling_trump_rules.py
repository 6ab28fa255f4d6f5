"""The tracker and the sampler under the issue 11 trump rules (rules.md, "Trump methods").

- on_void, the holder: "a holder who was out of the led suit may still play anything, even when
  the card that came back is of the led suit". A holder who then discards shows that it holds no
  *other* card of the led suit, while the card that came back is known to be in its hand: the
  tracker must keep both facts and the sampler must still be exact.
- open_random: "after the full deal, the caller draws a random card from another player's whole
  hand (both chosen from the seed); it is shown to all ... and stays in its owner's hand". Every
  placement with that card in its owner's hand is equally likely to have produced the draw, so
  the sampler places it there and the rest uniformly.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from arena.engine.actions import DECLINE, DeclineTrump
from arena.engine.cards import SUIT_MASKS
from arena.engine.hand import HandState
from arena.engine.observation import Observation, observe
from arena.engine.rules import rules_for
from sdk.sampling import Sampler
from sdk.tracker import CardTracker
from tests.sdk_helpers import check_consistent, check_uniform, playout


def holder_discarded_with_the_card_that_came_back(state: HandState) -> bool:
    """Public evidence that the on_void holder used its freedom: in the trick of the reveal the
    card that came back is of the led suit and the holder played another suit."""
    reveal = state.reveal
    if reveal is None:
        return False
    if reveal.trick <= len(state.tricks):
        trick = state.tricks[reveal.trick - 1]
        plays = list(zip(trick.seats, trick.cards, strict=True))
    else:
        plays = list(state.current_trick)
    if not plays or reveal.card.suit != plays[0][1].suit:
        return False
    return any(seat == state.first_player and card.suit != reveal.card.suit for seat, card in plays[1:])


def on_void_positions(count: int) -> Iterator[HandState]:
    """Positions of seeded dehla-pakad-hidden playouts after the holder discarded so."""
    rules = rules_for("dehla-pakad-hidden")
    for seed in range(400):
        for state in playout(rules, seed):
            if holder_discarded_with_the_card_that_came_back(state):
                yield state
                count -= 1
                if count == 0:
                    return


def test_on_void_holder_discard_tracker_keeps_the_known_card_and_the_void() -> None:
    checked = 0
    for state in on_void_positions(40):
        reveal = state.reveal
        assert reveal is not None
        holder, card, suit = state.first_player, int(reveal.card), reveal.card.suit
        for seat in range(4):
            if seat == holder:
                continue
            t = CardTracker.from_view(observe(state, seat))
            assert t.void(holder, suit)  # no unknown card of the led suit
            if state.hand(holder) >> card & 1:
                assert t.known[holder] >> card & 1  # but the card that came back is there
                assert t.may_follow(holder, suit)
                assert t.holder_of(card) == holder
            assert not t.unknown & state.hand(holder) & SUIT_MASKS[suit]
            checked += 1
    assert checked >= 60


def test_on_void_holder_discard_samples_are_consistent_and_indistinguishable() -> None:
    rng = random.Random(11)
    seen = 0
    for state in on_void_positions(30):
        for seat in range(4):
            obs = observe(state, seat)
            sampler = Sampler(obs)
            for _ in range(3):
                placement = sampler.sample(rng)
                check_consistent(obs, placement)
                world = sampler.state(placement)
                assert observe(world, seat) == obs
                if state.to_move == seat:
                    assert world.legal_actions() == state.legal_actions()
                seen += 1
    assert seen > 0


def late(states: Iterator[HandState], seat_filter: bool = True) -> Iterator[Observation]:
    """Observations of the seat to move with 6 to 9 unseen cards of unknown place."""
    for state in states:
        seat = state.to_move
        if seat is None:
            continue
        obs = observe(state, seat)
        t = CardTracker.from_view(obs)
        if 6 <= t.unknown.bit_count() <= 9 and (not seat_filter or any(t.known)):
            yield obs


def test_on_void_holder_discard_placements_are_uniform() -> None:
    assert check_uniform(late(on_void_positions(4000)), random.Random(2026), 4) >= 2


def open_random_positions() -> Iterator[HandState]:
    rules = rules_for("mendikot", {"trump": "open_random"})
    for seed in range(60):
        yield from playout(rules, seed)


def test_open_random_card_is_placed_with_its_owner_only() -> None:
    rng = random.Random(3)
    for index, state in enumerate(open_random_positions()):
        if index % 7:
            continue
        setting = state.trump_setting
        assert setting is not None and setting.card is not None and setting.seat is not None
        card, owner = int(setting.card), setting.seat
        for seat in range(4):
            obs = observe(state, seat)
            t = CardTracker.from_view(obs)
            sampler = Sampler(obs)
            still_there = bool(state.hand(owner) >> card & 1)
            if seat != owner:
                assert bool(t.known[owner] >> card & 1) == still_there
            placement = sampler.sample(rng)
            check_consistent(obs, placement)
            if still_there:
                assert placement.hands[owner] >> card & 1
            world = sampler.state(placement)
            assert observe(world, seat) == obs


def test_open_random_placements_are_uniform() -> None:
    assert check_uniform(late(open_random_positions()), random.Random(7), 4) >= 2


# rules.md, seed 003's trump variants. hidden_blind: "the face-down card is taken at random from
# the caller's first five without looking ... observations and the sampler treat it as unknown
# for every seat". Unseen by its holder too, it is equally likely to be any card that holder has
# not seen, so the holder's sampler places it like any other unseen card.

def blind_positions() -> Iterator[HandState]:
    rules = rules_for("court-piece-double-sir", {"hidden_blind": True})
    for seed in range(6):
        for state in playout(rules, seed):
            if state.hidden_card is not None:
                yield state


def test_blind_holder_samples_its_own_face_down_card_as_unknown() -> None:
    rng = random.Random(7)
    checked = 0
    for state in blind_positions():
        holder = state.first_player
        obs = observe(state, holder)
        assert obs.hidden_trump_card is None and obs.trump is None
        sampler = Sampler(obs)
        cards = set()
        for _ in range(40):
            placement = sampler.sample(rng)
            check_consistent(obs, placement)
            assert placement.hidden_card is not None
            assert not obs.hand or not (1 << placement.hidden_card) & sum(1 << c for c in obs.hand)
            cards.add(placement.hidden_card)
        # Not pinned to the real card, nor to one suit: the holder does not know it.
        assert len({c.suit for c in cards}) > 1
        checked += 1
    assert checked > 20


def test_declined_trump_card_is_placed_with_the_caller() -> None:
    """decline: second_packet: the card "turned over" from the caller's second packet stays in
    its hand, seen by all: every other seat's sampler puts it there."""
    rules = rules_for("court-piece", {"decline": "second_packet"})
    rng = random.Random(3)
    checked = 0
    for seed in range(8):
        for state in playout(rules, seed):
            setting = state.trump_setting
            if state.history and not isinstance(state.history[0][1], DeclineTrump):
                break
            if setting is None or setting.card is None:
                state.apply(DECLINE)
                continue
            caller = state.first_player
            if not state.hand(caller) >> setting.card & 1:
                break  # played: no longer anyone's
            for seat in range(4):
                if seat == caller:
                    continue
                obs = observe(state, seat)
                assert CardTracker.from_view(obs).known[caller] >> setting.card & 1
                placement = Sampler(obs).sample(rng)
                check_consistent(obs, placement)
                assert placement.hands[caller] >> setting.card & 1
                checked += 1
    assert checked > 20
