"""Shared helpers of the engine's property tests: deterministic hypothesis settings and
strategies, one seeded random hand, and hands that differ only in cards a seat has not seen.

Play uses its own rng (``play_seed``) and the checks another, so every test plays the same hand
for the same arguments, and a falsifying example is its own repro::

    play_hand(VARIANTS[name], deal_seed, dealer, play_seed)
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from arena.engine.actions import HIDE
from arena.engine.cards import CARDS, Card, CardMask, cards_of, mask_of
from arena.engine.deal import Deal
from arena.engine.hand import Decision, HandState, PublicHand
from arena.engine.rules import Rules
from arena.engine.seats import SEATS


def examples(count: int) -> settings:
    """Deterministic settings: the same examples on every run and machine, no example database."""
    return settings(
        derandomize=True,
        max_examples=count,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow],
    )


deal_seeds = st.integers(0, 2**63 - 1)
dealers = st.integers(0, 3)
play_seeds = st.integers(0, 2**32 - 1)

Visit = Callable[[HandState, random.Random], None]


def play_hand(
    rules: Rules, deal_seed: int, dealer: int, play_seed: int, visit: Visit | None = None
) -> HandState:
    """Play one hand with random legal actions; ``visit`` sees every decision and the end."""
    state = HandState(rules, Deal.from_seed(rules, deal_seed), dealer)
    play = random.Random(play_seed)
    check = random.Random(f"check/{play_seed}")
    for _ in range(4 * rules.hand_size + 8):
        if visit is not None:
            visit(state, check)
        if state.is_over:
            return state
        actions = state.legal_actions()
        assert actions, f"seat {state.to_move} has no legal action in an unfinished hand"
        state.apply(actions[play.randrange(len(actions))])
    raise AssertionError("the hand did not end after every card was played")


def permuted(state: HandState, perm: dict[int, int]) -> HandState:
    """``state`` with every unplayed card ``c`` replaced by ``perm.get(c, c)`` (sizes kept), and
    so every face-down discard: in its trick and wherever its trick lies (pile, captures)."""

    def move(mask: CardMask) -> CardMask:
        return mask_of(perm.get(c, c) for c in cards_of(mask))

    hidden = state.hidden_card
    hands = [move(state.hand(s)) for s in SEATS]
    undealt = [move(state.undealt(s)) for s in SEATS]
    moved_hidden = None if hidden is None else perm.get(hidden, hidden)
    if all(perm.get(c, c) == c for c in cards_of(state.face_down_cards)):
        return state.resampled(hands, undealt, moved_hidden)

    def card(c: Card | None) -> Card:
        assert c is not None
        return CARDS[perm.get(c, c)]

    facts = PublicHand(
        rules=state.rules, dealer=state.dealer, decision=state.decision, to_move=state.to_move,
        tricks=tuple(replace(t, cards=tuple(card(c) for c in t.cards)) for t in state.tricks),
        current_trick=tuple((s, card(c)) for s, c in state.current_trick),
        trump_in_force=state.trump_in_force, trump_setting=state.trump_setting, reveal=state.reveal,
        pile=move(state.pile), pile_tricks=state.pile_tricks,
        captured=(move(state.captured(0)), move(state.captured(1))),
        captured_tricks=(state.captured_tricks(0), state.captured_tricks(1)),
        streak_holder=state.streak_holder, result=state.result,
        current_face_down=state.current_face_down,
    )
    return HandState.restore(facts, hands, undealt, moved_hidden)


def unseen_by(state: HandState, seat: int) -> list[Card]:
    """The cards ``seat`` has not seen: other hands, every seat's cards to come, the face-down
    trump unless ``seat`` put it down (a blind one, ``hidden_blind``, even its holder has not
    seen), and (until the hand ends) the face-down discards unless ``seat`` played them. A trump
    card turned face up in its owner's hand (open random, a declined call) is seen by all."""
    unseen = [c for s in SEATS if s != seat for c in cards_of(state.hand(s))]
    unseen += [c for s in SEATS for c in cards_of(state.undealt(s))]
    setting = state.trump_setting
    if setting is not None and setting.card is not None and setting.card in unseen:
        unseen.remove(setting.card)
    if state.hidden_card is not None and (seat != state.first_player or state.rules.hidden_blind):
        unseen.append(state.hidden_card)
    if seat != state.first_player and not state.is_over:
        unseen += cards_of(state.face_down_cards)
    return unseen


def twin_worlds(rules: Rules, deal_seed: int, dealer: int, pick: int) -> tuple[HandState, HandState]:
    """One deal, two hands: the holder hides a different card in each, of another suit if it can."""
    deal = Deal.from_seed(rules, deal_seed)
    first, second = HandState(rules, deal, dealer), HandState(rules, deal, dealer)
    assert first.decision is Decision.HIDE_TRUMP
    choices = [a.card for a in first.legal_actions()]  # type: ignore[union-attr]
    one = choices[pick % len(choices)]
    others = [c for c in choices if c.suit != one.suit] or [c for c in choices if c != one]
    two = others[pick // len(choices) % len(others)]
    first.apply(HIDE[one])
    second.apply(HIDE[two])
    return first, second
