"""The per-card facts a policy scores card plays by (``sdk.card_features``), held to the engine.

Random hands are played on the scalar engine; at each card play the facts of the card played are
computed from the seat's encoded view, and when its trick ends they are checked against the
engine's winner: a card that did not beat the trick so far cannot win it, the last card's "beats"
is the winner exactly, and a "sure win" always wins. Checked where the seat knows the trump in
force and it stays the same through the trick (a suit set or revealed mid-trick changes the
comparison, and a seat the trump is hidden from cannot know it).
"""

from __future__ import annotations

import random

import numpy as np
from hypothesis import given

from arena.engine.actions import PlayCard
from arena.engine.cards import cards_of
from arena.engine.deal import Deal
from arena.engine.hand import Decision, HandState
from arena.engine.observation import observe
from arena.engine.rules import rules_for
from sdk.card_features import CardFeature, card_features
from sdk.encoding import block_view, encode
from tests.engine_helpers import deal_seeds, dealers, examples, play_seeds

PRESETS = ("dehla-pakad", "dehla-pakad-cut", "court-piece")


def _tallies(preset: str, deal_seed: int, dealer: int, play_seed: int) -> dict[str, int]:
    rules = rules_for(preset)
    state = HandState(rules, Deal.from_seed(rules, deal_seed), dealer)
    play = random.Random(play_seed)
    tallies = {"checked": 0, "last": 0, "sure": 0, "beats": 0}
    pending: list[tuple[int, np.ndarray, int | None]] = []  # seat, the card's facts, the trump it knew
    while not state.is_over:
        actions = state.legal_actions()
        action = actions[play.randrange(len(actions))]
        seat = state.to_move
        assert seat is not None
        done = len(state.tricks)
        if state.decision is Decision.PLAY and isinstance(action, PlayCard) and not action.face_down:
            vector = encode(observe(state, seat))
            facts = card_features(vector[None, :])[0]
            in_hand = np.flatnonzero(facts[:, CardFeature.IN_HAND])
            assert in_hand.tolist() == sorted(cards_of(state.hand(seat)))
            pending.append((seat, facts[action.card], _known_trump(vector)))
        state.apply(action)
        if len(state.tricks) > done:
            trick = state.tricks[-1]
            if len(pending) != 4:  # a card played face down: positions are not the recorded ones
                pending = []
                continue
            for position, (played_by, facts, known) in enumerate(pending):
                if known != state.trump_in_force:
                    continue  # the trump the seat knew is not the one the trick was decided by
                won = trick.winner == played_by
                tallies["checked"] += 1
                tallies["beats"] += int(facts[CardFeature.BEATS])
                if won and position > 0:
                    assert facts[CardFeature.BEATS] == 1.0, (preset, trick, position)
                if position == 3:
                    tallies["last"] += 1
                    assert facts[CardFeature.BEATS] == float(won), (preset, trick, position)
                if facts[CardFeature.SURE_WIN]:
                    tallies["sure"] += 1
                    assert won, (preset, trick, position)
                assert facts[CardFeature.LEADS] == float(position == 0), (preset, trick, position)
            pending = []
    return tallies


def _known_trump(vector: np.ndarray) -> int | None:
    """The trump in force as the seat knows it (its ``trump_in_force`` block)."""
    suits = np.flatnonzero(block_view(vector, "trump_in_force"))
    return int(suits[0]) if len(suits) else None


@examples(15)
@given(deal_seeds, dealers, play_seeds)
def test_the_card_facts_agree_with_the_engines_trick_winner(deal_seed: int, dealer: int, play_seed: int) -> None:
    for preset in PRESETS:
        tallies = _tallies(preset, deal_seed, dealer, play_seed)
        assert tallies["checked"] > 0, (preset, tallies)


def test_the_checks_meet_every_case() -> None:
    """Over a few seeded hands each branch is met (a check that never runs would prove nothing)."""
    totals = {"checked": 0, "last": 0, "sure": 0, "beats": 0}
    for seed in range(6):
        for key, value in _tallies("dehla-pakad", seed, seed % 4, seed).items():
            totals[key] += value
    assert totals["last"] > 20 and totals["sure"] > 5 and 0 < totals["beats"] < totals["checked"], totals
