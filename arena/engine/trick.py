"""Who wins a trick, and whether winning it claims the centre: the one copy of these rules.

``HandState`` plays by these functions, and bots (the SDK's tracker, the sample bots) call them
to reason about a trick as it stands, so a bot can never disagree with the referee about a trick.

A card's *key* ranks it in its trick: ``rank + TRUMP_BONUS`` if it counts as a trump, ``rank``
if it follows the led suit (or leads), -1 if it cannot win. The best of a trick is packed as
one int, ``key << 2 | position`` (``TrickBest``), so the winner is a plain ``max``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, TypeAlias

from arena.engine.rules import Capture, Reveal, Rules, SweepLimits, TrumpMethod

if TYPE_CHECKING:
    from arena.engine.trump import TrumpReveal, TrumpSetting

TRUMP_BONUS = 16
"""Added to a card's rank in its key when it counts as a trump (above every plain rank)."""
NO_SUIT = -1
"""``led`` before the first card of a trick, ``trump`` while no suit counts as trumps."""

TrickBest: TypeAlias = int
"""The winning card of a trick so far, packed: ``key << 2 | position`` (-1 before any card)."""


def play_key(card: int, led: int, trump: int, sets_trump: bool = False) -> int:
    """The key ``card`` gets when played now, ``led`` being the led suit (``NO_SUIT`` when it
    leads) and ``trump`` the suit in force. ``sets_trump``: no trump is set yet and a card off
    the led suit sets it (cut, first discard), so such a card counts as a trump."""
    suit = card // 13
    if suit == trump or (sets_trump and trump < 0 and 0 <= led != suit):
        return card % 13 + TRUMP_BONUS
    if suit == led or led < 0:
        return card % 13
    return -1


def trick_best(cards: Sequence[int], trump: int, trump_from: int = 0, face_down: int = 0) -> TrickBest:
    """The winning card of a trick's ``cards`` (in play order) as it stands, with ``trump`` in
    force from position ``trump_from`` on (an on-request reveal in this trick: a trump-suit card
    played before it was no trump). If the trump suit was led, every card that followed it was
    a trump all along. ``face_down``: a bitmask of positions played face down; those cannot win
    (their card is ignored, so a seat that does not see it may pass any card there)."""
    count = len(cards)
    if not count:
        return -1
    if count == 4 and not trump_from and not face_down:
        a, b, c, d = cards
        return best_of_four(a, b, c, d, trump)
    led = cards[0] // 13
    keys = _PACKED_KEYS[led][trump]
    early = keys if led == trump else _PACKED_KEYS[led][NO_SUIT]
    best = -1
    for position, card in enumerate(cards):
        if face_down >> position & 1:
            continue
        packed = (keys if position >= trump_from else early)[card] | position
        if packed > best:
            best = packed
    return best


def best_of_four(a: int, b: int, c: int, d: int, trump: int) -> TrickBest:
    """``trick_best`` of a finished trick ``a, b, c, d`` with ``trump`` in force for all four
    cards and none face down: the engine's hot path (every trick of most presets), unrolled."""
    keys = _PACKED_KEYS[a // 13][trump]
    best = keys[a]
    packed = keys[b] | 1
    if packed > best:
        best = packed
    packed = keys[c] | 2
    if packed > best:
        best = packed
    packed = keys[d] | 3
    return packed if packed > best else best


def trump_counts_from(rules: Rules, reveal: TrumpReveal | None, trick: int) -> int:
    """The first position of trick number ``trick`` whose card may count as a trump. An on_play
    trump (seed 001's closed method) is in force from the first trick, its reveal changes
    nothing; the other reveals put it in force from the card after them."""
    if reveal is None or reveal.trick != trick or rules.reveal is Reveal.ON_PLAY:
        return 0
    return reveal.position


def won_after_reveal(reveal: TrumpReveal | None, trick: int, position: int) -> bool:
    """The winning card of trick number ``trick``, at ``position``, was played after the face-down
    trump was turned up (Double Sir: only such a win can start a claim). A reveal in a later trick
    (the holder revealing on lead in the next one) came after every card of this one."""
    return reveal is not None and (
        reveal.trick < trick or (reveal.trick == trick and position >= reveal.position)
    )


def won_with_trumps(
    rules: Rules, setting: TrumpSetting | None, reveal: TrumpReveal | None, trick: int, position: int
) -> bool:
    """The winning card of trick number ``trick``, at ``position``, was played once trumps were
    set (seed 003: a claim on the next trick needs it). A face-down trump: after its reveal.
    First discard: in or after the trick that set trumps (its winner played the setting card or
    a higher trump after it). Other methods: always."""
    if rules.trump is TrumpMethod.HIDDEN:
        return won_after_reveal(reveal, trick, position)
    if rules.trump is TrumpMethod.FIRST_DISCARD:
        return setting is not None and setting.trick <= trick
    return True


def claims_pile(rules: Rules, trick: int, previous_won_with_trumps: bool) -> bool:
    """Whether the streak holder (the winner of the previous trick) takes the centre by winning
    trick number ``trick`` too. Always on the last trick; never under direct capture. Court
    Piece's Double Sir limits forbid claims on the first two tricks and the last but one, and
    under a hidden trump a claim needs the previous trick won after the reveal. Under first
    discard a claim needs the previous trick won once trumps were set (seed 003: nothing is
    collected before the trick after the trump-setting one). ``previous_won_with_trumps`` is
    ``won_with_trumps`` of the previous trick."""
    limits = rules.sweep_limits is SweepLimits.COURT_PIECE
    if not limits and rules.capture is not Capture.SWEEP:
        return False
    if trick >= rules.hand_size:  # the Court Piece limits apply to sweep capture only
        return True
    if limits and (trick <= 2 or trick == rules.hand_size - 1):
        return False
    if rules.trump is TrumpMethod.FIRST_DISCARD or (limits and rules.trump is TrumpMethod.HIDDEN):
        return previous_won_with_trumps
    return True


_SUIT_INDEX = (0, 1, 2, 3, NO_SUIT)
_PACKED_KEYS = tuple(
    tuple(tuple(play_key(card, led, trump) << 2 for card in range(52)) for trump in _SUIT_INDEX)
    for led in _SUIT_INDEX
)
"""``_PACKED_KEYS[led][trump][card]``: ``play_key(card, led, trump) << 2``, precomputed (a key of
-1 packs below zero whatever the position). ``NO_SUIT`` (-1) indexes the last row."""
