"""Shared by the tracker and sampler tests: rule variants and seeded random playouts."""

from __future__ import annotations

import random
from collections.abc import Iterator

from arena.engine.cards import SUIT_MASKS, CardMask
from arena.engine.deal import Deal
from arena.engine.hand import HandState
from arena.engine.rules import PRESETS, Rules, rules_for

VARIANTS: dict[str, Rules] = {name: rules_for(name) for name in PRESETS} | {
    "dehla-pakad direction=anticlockwise": rules_for("dehla-pakad", {"direction": "anticlockwise"}),
    "dehla-pakad-cut deck=short32": rules_for("dehla-pakad-cut", {"deck": "short32"}),
    "mendikot trump=first_discard": rules_for("mendikot", {"trump": "first_discard"}),
    "court-piece-double-sir hide_from=full_hand": rules_for("court-piece-double-sir", {"hide_from": "full_hand"}),
    "mendikot trump=open_random": rules_for("mendikot", {"trump": "open_random"}),
    "mendikot trump=none": rules_for("mendikot", {"trump": "none"}),
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
