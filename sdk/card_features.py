"""Per-card facts for a policy's card plays, computed from observation vectors alone (numpy).

Why: a one-hidden-layer network fitted to the heuristic's choices agreed with it on only about
three quarters of them (docs/performance.md, session 17): the facts that decide a card play
(does this card beat the trick so far, is it the highest card of its suit still out, is it a ten)
are conjunctions over several 52-wide blocks, hard for one layer to form. ``card_features``
computes them per card so the network (``sdk.policy_network``) can score each card play by them.

Everything comes from the observation vector (``sdk.encoding``), which holds only what the seat
may know, so training (``sdk.learn``, on the vector environment's observations) and a policy bot
at play time (``sdk.policy_bot``) compute the same facts from the same vector. Suit renaming
(``sdk.learn.symmetry``) commutes with them: a fact of card ``c`` is a fact of its renamed card.
Cards follow the engine's numbering (``suit * 13 + rank``, rank 0 the two, 8 the ten, 12 the ace).
The trump used is the ``trump_in_force`` block: the suit that counts as trumps now, as the seat
knows it; while it does not know one, "beats" compares the led suit only.
"""

from __future__ import annotations

from enum import IntEnum

import numpy as np
import numpy.typing as npt

from sdk.encoding import LAYOUT, OBSERVATION_SIZE
from sdk.encoding_layout import FloatArray

BoolArray = npt.NDArray[np.bool_]
CARDS = 52
RANKS = 13
TEN_RANK = 8
SUIT_OF = np.arange(CARDS) // RANKS
RANK_OF = np.arange(CARDS) % RANKS
PARTNER = 2
"""The partner's relative seat in the observation's seat blocks."""


class CardFeature(IntEnum):
    """The facts per card, in the order of ``card_features``'s last axis (each zero for a card not in hand)."""

    IN_HAND = 0
    LEADS = 1
    """The trick is empty: this card would lead it."""
    FOLLOWS = 2
    """Of the suit led."""
    BEATS = 3
    """It would win the trick as it stands (the cards played so far)."""
    SURE_WIN = 4
    """It beats the trick and no card to come can beat it: the seat plays last, or it is the highest
    unseen-free card of its suit and either a trump or no trump is left unseen (trump known)."""
    OVERTAKES_PARTNER = 5
    """It beats the trick while the partner's card is winning it."""
    MASTER = 6
    """No card of its suit higher than it is unseen (every higher one played or in this hand)."""
    TEN = 7
    TRUMP = 8
    RANK = 9
    """Its rank / 12."""
    SUIT_LENGTH = 10
    """Cards of its suit in this hand / 13."""
    LOWEST_OF_SUIT = 11
    """The lowest card of its suit in this hand."""
    WINS_TEN = 12
    """It beats a trick that holds a ten."""
    TEN_AT_RISK = 13
    """A ten that is not a sure win."""


NUM_CARD_FEATURES = len(CardFeature)


def _block(observations: FloatArray, name: str, shape: tuple[int, ...]) -> FloatArray:
    start = LAYOUT.starts[name]
    size = int(np.prod(shape))
    return observations[:, start:start + size].reshape((len(observations), *shape))


def _keys(led: npt.NDArray[np.int64], trump: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """Per row and card, its strength in a trick: a trump above every other card, then the suit
    led by rank, any other card -1 (``led`` / ``trump`` -1 for none)."""
    suits = SUIT_OF[None, :]
    ranks = RANK_OF[None, :]
    keys = np.where(suits == led[:, None], ranks, -1)
    return np.where(suits == trump[:, None], ranks + RANKS + 3, keys)


def card_features(observations: FloatArray) -> FloatArray:
    """``(N, 52, NUM_CARD_FEATURES)`` float32 facts (``CardFeature``) for ``(N, OBSERVATION_SIZE)`` observations."""
    if observations.ndim != 2 or observations.shape[1] != OBSERVATION_SIZE:
        raise ValueError(f"observations have shape {observations.shape}, expected (N, {OBSERVATION_SIZE})")
    n = len(observations)
    rows = np.arange(n)
    hand = _block(observations, "hand", (CARDS,)) > 0.5
    played = (_block(observations, "played", (4, CARDS)) > 0.5).any(axis=1)
    trick = _block(observations, "trick", (4, CARDS)) > 0.5
    trick_cards = trick.any(axis=1)
    face_down = _block(observations, "trick_face_down", (4,)) > 0.5
    leader_block = _block(observations, "trick_leader", (4,)) > 0.5
    in_force = _block(observations, "trump_in_force", (4,)) > 0.5
    own_hidden = _block(observations, "own_hidden_card", (CARDS,)) > 0.5

    trump = np.where(in_force.any(axis=1), np.argmax(in_force, axis=1), -1)
    led_row = trick[rows, np.argmax(leader_block, axis=1)]
    led = np.where(leader_block.any(axis=1) & led_row.any(axis=1), np.argmax(led_row, axis=1) // RANKS, -1)
    keys = _keys(led, trump)
    played_keys = np.where(trick, keys[:, None, :], -2)  # (N, seat, card)
    seat_best = played_keys.max(axis=2)  # (N, seat)
    best = seat_best.max(axis=1)
    trick_length = trick_cards.sum(axis=1) + face_down.sum(axis=1)
    empty = trick_length == 0
    partner_winning = ~empty & (seat_best[:, PARTNER] == best) & (best >= 0)

    beats = hand & ~empty[:, None] & (keys > best[:, None])
    unseen = ~(played | hand | own_hidden)
    by_suit = unseen.reshape(n, 4, RANKS)
    at_or_above: npt.NDArray[np.int64] = np.flip(np.cumsum(np.flip(by_suit, axis=2), axis=2), axis=2)
    higher_unseen = at_or_above - by_suit  # strictly higher
    master = hand & (higher_unseen.reshape(n, CARDS) == 0)
    is_trump = SUIT_OF[None, :] == trump[:, None]
    unseen_trumps = (unseen & is_trump).sum(axis=1)
    last = trick_length == 3
    safe = master & (is_trump | ((trump >= 0) & (unseen_trumps == 0))[:, None])
    sure = beats & (last[:, None] | safe)
    is_ten = np.broadcast_to(RANK_OF[None, :] == TEN_RANK, (n, CARDS))
    ten_in_trick: BoolArray = np.asarray((trick_cards & is_ten).any(axis=1))
    suit_counts = hand.reshape(n, 4, RANKS).sum(axis=2)
    lower_in_hand: npt.NDArray[np.int64] = np.cumsum(hand.reshape(n, 4, RANKS), axis=2).reshape(n, CARDS) - hand

    out = np.zeros((n, CARDS, NUM_CARD_FEATURES), dtype=np.float32)
    out[:, :, CardFeature.IN_HAND] = hand
    out[:, :, CardFeature.LEADS] = hand & empty[:, None]
    out[:, :, CardFeature.FOLLOWS] = hand & (SUIT_OF[None, :] == led[:, None])
    out[:, :, CardFeature.BEATS] = beats
    out[:, :, CardFeature.SURE_WIN] = sure
    out[:, :, CardFeature.OVERTAKES_PARTNER] = beats & partner_winning[:, None]
    out[:, :, CardFeature.MASTER] = master
    out[:, :, CardFeature.TEN] = hand & is_ten
    out[:, :, CardFeature.TRUMP] = hand & is_trump
    out[:, :, CardFeature.RANK] = hand * (RANK_OF / (RANKS - 1))[None, :]
    out[:, :, CardFeature.SUIT_LENGTH] = hand * (suit_counts[:, SUIT_OF] / RANKS)
    out[:, :, CardFeature.LOWEST_OF_SUIT] = hand & (lower_in_hand == 0)
    out[:, :, CardFeature.WINS_TEN] = beats & ten_in_trick[:, None]
    out[:, :, CardFeature.TEN_AT_RISK] = hand & is_ten & ~sure
    return out

