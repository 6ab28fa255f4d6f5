"""Which rules the batched engine plays, as the integer switches its kernels read.

The kernels take the rules as one small ``int64`` array (``KernelRules.array``): compiled code
cannot read a ``Rules`` dataclass, and one array keeps every kernel's signature short. Options
the kernels do not implement yet are refused here, by name, before any table exists.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

import numpy as np
import numpy.typing as npt

from arena.batch.errors import UnsupportedRulesError
from arena.engine.rules import (
    Capture,
    Decline,
    Direction,
    HandResultRule,
    HideFrom,
    MakerDiscard,
    Reveal,
    Rules,
    SweepLimits,
    TrumpCard,
    TrumpMethod,
    TwoTwo,
)


class Method(IntEnum):
    """The trump methods the kernels play (codes in ``KernelRules.array``)."""

    CALLED = 0
    NONE = 1
    FIRST_DISCARD = 2
    CUT = 3
    HIDDEN = 4


class ResultRule(IntEnum):
    TENS = 0
    MENDIKOT = 1
    SEVEN_TRICKS = 2


class TwoTwoRule(IntEnum):
    NON_DEALER = 0
    TRICKS_WON_AT_TABLE = 1
    TRICKS_CAPTURED = 2
    DRAW = 3


# Slots of the rules array.
R_ANTICLOCKWISE = 0
R_HAND_SIZE = 1
R_FIRST_PACKET = 2
R_METHOD = 3
R_SWEEP = 4
R_RESULT = 5
R_TWO_TWO = 6
R_KOT_BONUS = 7
R_MENDIKOT_BONUS = 8
R_BONUS_ACES = 9
R_EARLY_END = 10
R_FULL_HIDE = 11
R_ON_REQUEST = 12
R_ON_PLAY = 13
R_MAKER_DOWN = 14
"""Double Sir's ``maker_discard=face_down``: the trump maker may discard face down."""
R_CP_LIMITS = 15
"""Double Sir's ``sweep_limits=court_piece``: no claims on tricks 1, 2 and the last but one, the
count not restarted after a claim, and under a hidden trump a claim needs the previous trick won
after the reveal."""
R_SIZE = 16

_METHODS = {
    TrumpMethod.CALLED: Method.CALLED,
    TrumpMethod.NONE: Method.NONE,
    TrumpMethod.FIRST_DISCARD: Method.FIRST_DISCARD,
    TrumpMethod.CUT: Method.CUT,
    TrumpMethod.HIDDEN: Method.HIDDEN,
}
_RESULTS = {
    HandResultRule.TENS: ResultRule.TENS,
    HandResultRule.MENDIKOT: ResultRule.MENDIKOT,
    HandResultRule.SEVEN_TRICKS: ResultRule.SEVEN_TRICKS,
}
_TWO_TWO = {
    TwoTwo.NON_DEALER: TwoTwoRule.NON_DEALER,
    TwoTwo.TRICKS_WON_AT_TABLE: TwoTwoRule.TRICKS_WON_AT_TABLE,
    TwoTwo.TRICKS_CAPTURED: TwoTwoRule.TRICKS_CAPTURED,
    TwoTwo.DRAW: TwoTwoRule.DRAW,
}

SUPPORTED_PRESETS: tuple[str, ...] = (
    "dehla-pakad", "dehla-pakad-cut", "dehla-pakad-hidden", "mendikot", "mendikot-closed", "court-piece",
    "court-piece-double-sir",
)
"""The presets the batched engine plays as they stand (each held to ``arena.engine`` by the
differential tests); other presets are refused, and so are their options on another preset."""


def unsupported_options(rules: Rules) -> list[str]:
    """The options of ``rules`` the kernels do not play yet, as ``name=value`` (empty: all played)."""
    out = []
    if rules.trump not in _METHODS:
        out.append(f"trump={rules.trump.value}")
    if rules.hidden_blind:
        out.append("hidden_blind=true")
    if rules.trump_card is not TrumpCard.FIRST_PACKET:
        out.append(f"trump_card={rules.trump_card.value}")
    if rules.decline is not Decline.NONE:
        out.append(f"decline={rules.decline.value}")
    return out


@dataclass(frozen=True)
class KernelRules:
    """Validated rules plus their kernel array; build it with ``KernelRules.of``."""

    rules: Rules
    array: npt.NDArray[np.int64]

    def __post_init__(self) -> None:
        # Read-only whoever built it (a test's broken twin too): numba types a writable array
        # apart, and every kernel taking the rules would be compiled a second time for it.
        self.array.setflags(write=False)

    @classmethod
    def of(cls, rules: Rules) -> KernelRules:
        missing = unsupported_options(rules)
        if missing:
            raise UnsupportedRulesError(
                f"the batched engine does not play {', '.join(missing)} yet "
                f"(it plays the presets {', '.join(SUPPORTED_PRESETS)} and their options "
                f"trump=called|none|first_discard|cut|hidden with reveal=on_void|on_request|on_play, "
                f"maker_discard, any direction, deck, capture, sweep_limits, hand_result)"
            )
        array = np.zeros(R_SIZE, dtype=np.int64)
        array[R_ANTICLOCKWISE] = rules.direction is Direction.ANTICLOCKWISE
        array[R_HAND_SIZE] = rules.hand_size
        array[R_FIRST_PACKET] = rules.packets[0]
        array[R_METHOD] = _METHODS[rules.trump]
        array[R_SWEEP] = rules.capture is Capture.SWEEP
        array[R_RESULT] = _RESULTS[rules.hand_result]
        array[R_TWO_TWO] = _TWO_TWO[rules.two_two] if rules.two_two is not None else 0
        array[R_KOT_BONUS] = rules.kot_bonus
        array[R_MENDIKOT_BONUS] = rules.mendikot_bonus
        array[R_BONUS_ACES] = rules.bonus_aces
        array[R_EARLY_END] = rules.early_end and rules.hand_result is HandResultRule.SEVEN_TRICKS
        array[R_FULL_HIDE] = rules.trump is TrumpMethod.HIDDEN and rules.hide_from is HideFrom.FULL_HAND
        array[R_ON_REQUEST] = rules.reveal is Reveal.ON_REQUEST
        array[R_ON_PLAY] = rules.reveal is Reveal.ON_PLAY
        array[R_MAKER_DOWN] = rules.reveal is Reveal.ON_REQUEST and rules.maker_discard is MakerDiscard.FACE_DOWN
        array[R_CP_LIMITS] = rules.capture is Capture.SWEEP and rules.sweep_limits is SweepLimits.COURT_PIECE
        return cls(rules, array)
