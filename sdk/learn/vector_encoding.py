"""The observation encoding (``sdk.encoding``) computed in numba from the batched tables.

``encode_rows`` fills one row per (table, seat) with exactly the vector ``encode(observe(...))``
gives on the scalar engine for a one-hand episode (the ``score`` block is zero, as before the
first hand of a match). It reads the full state, so it must repeat what ``observe()`` and
``CardTracker`` let a seat know and nothing more: ``tests/learn/test_vector.py`` holds it to the
scalar encoding step by step on every preset the batched engine plays. Block offsets come in as
an array (``OFFSETS``), not as compiled constants, so a change of the layout cannot hide behind
numba's on-disk cache. A card the trump maker discarded face down (Double Sir's
``maker_discard=face_down``) is veiled as ``observe()`` veils it: every seat but the maker, until
the hand ends, sees only that a card was played face down (``trick_face_down``) and counts it in
``pile_face_down`` / ``captured_face_down``, not in ``played``, ``trick``, ``pile``, ``captured``
or ``tens``. The ``score`` block is the caller's (the match score, ``vector_scores``).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

from arena.batch.config import R_ANTICLOCKWISE, R_HAND_SIZE, R_METHOD, R_ON_PLAY, R_ON_REQUEST, Method
from arena.batch.kernels import lowest, popcount
from arena.batch.layout import (
    CAPTURED0,
    CAUGHT0,
    DEALER,
    DECISION,
    FACE_DOWN,
    FIRST,
    H_CARD0,
    H_LEADER,
    H_WINNER,
    HAND0,
    HIDDEN,
    LEADER,
    MUST_TRUMP,
    PILE,
    PILE_TRICKS,
    REVEAL_CARD,
    REVEAL_POSITION,
    REVEAL_TRICK,
    SETTING_TRICK,
    STREAK,
    TO_MOVE,
    TRICK_CARD0,
    TRICK_LEN,
    TRICKS_DONE,
    TRUMP,
    UNDEALT0,
    Phase,
)
from sdk.encoding import LAYOUT, MAX_TRICKS

BLOCK_NAMES: tuple[str, ...] = (
    "hand", "played", "trick", "trick_leader", "pile", "pile_tricks", "streak_holder", "captured", "tens",
    "tricks_won", "tricks_captured", "voids", "trump", "trump_in_force", "hidden_suits", "hidden_holder",
    "own_hidden_card", "trump_flags", "decision", "to_move", "dealer", "first_player", "hand_sizes",
    "cards_to_come", "trick_number", "trick_face_down", "captured_face_down", "pile_face_down",
)
"""The blocks the kernel writes, in the order of ``OFFSETS``; the others stay zero."""
OFFSETS: npt.NDArray[np.int64] = np.array([LAYOUT.starts[name] for name in BLOCK_NAMES], dtype=np.int64)
OFFSETS.setflags(write=False)

(O_HAND, O_PLAYED, O_TRICK, O_LEADER, O_PILE, O_PILE_TRICKS, O_STREAK, O_CAPTURED, O_TENS, O_WON,
 O_CAUGHT, O_VOIDS, O_TRUMP, O_IN_FORCE, O_HIDDEN_SUITS, O_HIDDEN_HOLDER, O_OWN_HIDDEN, O_FLAGS,
 O_DECISION, O_TO_MOVE, O_DEALER, O_FIRST, O_HAND_SIZES, O_TO_COME, O_TRICK_NUMBER, O_TRICK_DOWN, O_CAPTURED_DOWN,
 O_PILE_DOWN) = range(len(BLOCK_NAMES))

CUT = int(Method.CUT)
HIDDEN_METHOD = int(Method.HIDDEN)
OVER = int(Phase.OVER)
CALL_TRUMP = int(Phase.CALL_TRUMP)
HIDE_TRUMP = int(Phase.HIDE_TRUMP)
TENS = np.uint64(sum(1 << (s * 13 + 8) for s in range(4)))
ONE = np.uint64(1)


@njit(cache=True, inline="always")
def _seat_at(leader: int, position: int, anticlockwise: int) -> int:
    """The seat that plays ``position``-th in a trick led by ``leader``."""
    return (leader - position) & 3 if anticlockwise else (leader + position) & 3


@njit(cache=True, inline="always")
def _set_cards(o, start, cards):
    """One-hot ``o[start + c]`` for every card ``c`` of a bitmask."""
    while cards:
        o[start + lowest(cards)] = 1.0
        cards &= cards - ONE


@njit(cache=True, inline="always")
def _best_position(history, t, k, trump):
    """The position that wins finished trick ``k`` with ``trump`` in force for all four cards."""
    led = history[t, k, H_CARD0] // 13
    best = -1
    position = 0
    for p in range(4):
        card = history[t, k, H_CARD0 + p]
        suit = card // 13
        key = card % 13 + 16 if suit == trump else card % 13 if suit == led else -1
        if key > best:
            best = key
            position = p
    return position


@njit(cache=True)
def encode_rows(ints, masks, history, rules, at, rows, seats, out):
    """``out[i]``: the observation of seat ``seats[i]`` at table ``rows[i]`` (every value written)."""
    anticlockwise = rules[R_ANTICLOCKWISE]
    size = rules[R_HAND_SIZE]
    method = rules[R_METHOD]
    on_play = rules[R_ON_PLAY]
    on_request = rules[R_ON_REQUEST]
    voids = np.zeros(4, dtype=np.int64)
    for i in range(rows.shape[0]):
        t = rows[i]
        me = seats[i]
        mine = me & 1
        o = out[i]
        o[:] = 0.0
        _set_cards(o, at[O_HAND], masks[t, HAND0 + me])
        down = masks[t, FACE_DOWN]
        # Face-down discards this seat may not see (all seats but the maker's, until the hand ends).
        unseen = down if me != ints[t, FIRST] and ints[t, DECISION] != OVER else np.uint64(0)
        # Finished tricks and the trick in progress: cards played, voids, tricks won.
        done = ints[t, TRICKS_DONE]
        undealt = masks[t, UNDEALT0] | masks[t, UNDEALT0 + 1] | masks[t, UNDEALT0 + 2] | masks[t, UNDEALT0 + 3]
        early = 0  # cut trump: voids shown before the deal was completed bind only the first packet
        if method == CUT and ints[t, TRUMP] >= 0 and not undealt:
            early = ints[t, SETTING_TRICK]
        voids[:] = 0
        won_mine = 0
        for k in range(done):
            leader = history[t, k, H_LEADER]
            led = history[t, k, H_CARD0] // 13
            for p in range(4):
                seat = _seat_at(leader, p, anticlockwise)
                card = history[t, k, H_CARD0 + p]
                if not unseen >> np.uint64(card) & ONE:
                    o[at[O_PLAYED] + ((seat - me) & 3) * 52 + card] = 1.0
                if p and card // 13 != led and k + 1 > early:
                    voids[seat] |= 1 << led
            if history[t, k, H_WINNER] & 1 == mine:
                won_mine += 1
        length = ints[t, TRICK_LEN]
        if length:
            leader = ints[t, LEADER]
            led = ints[t, TRICK_CARD0] // 13
            o[at[O_LEADER] + ((leader - me) & 3)] = 1.0
            for p in range(length):
                seat = _seat_at(leader, p, anticlockwise)
                card = ints[t, TRICK_CARD0 + p]
                r = (seat - me) & 3
                if down >> np.uint64(card) & ONE:
                    o[at[O_TRICK_DOWN] + r] = 1.0
                if not unseen >> np.uint64(card) & ONE:
                    o[at[O_PLAYED] + r * 52 + card] = 1.0
                    o[at[O_TRICK] + r * 52 + card] = 1.0
                if p and card // 13 != led:
                    voids[seat] |= 1 << led
        reveal_card = ints[t, REVEAL_CARD]
        if on_request and reveal_card >= 0:
            # The seat that asked for the reveal must then play a trump: a non-trump shows a void.
            number = ints[t, REVEAL_TRICK]
            position = ints[t, REVEAL_POSITION]
            trump_suit = reveal_card // 13
            card = -1
            leader = 0
            if number <= done:
                card = history[t, number - 1, H_CARD0 + position]
                leader = history[t, number - 1, H_LEADER]
            elif position < length:
                card = ints[t, TRICK_CARD0 + position]
                leader = ints[t, LEADER]
            if card >= 0 and card // 13 != trump_suit:
                voids[_seat_at(leader, position, anticlockwise)] |= 1 << trump_suit
        # The centre, the captures and the counts.
        _set_cards(o, at[O_PILE], masks[t, PILE] & ~unseen)
        o[at[O_PILE_DOWN]] = np.float32(popcount(masks[t, PILE] & unseen) / MAX_TRICKS)
        o[at[O_PILE_TRICKS]] = np.float32(ints[t, PILE_TRICKS] / MAX_TRICKS)
        if ints[t, STREAK] >= 0:
            o[at[O_STREAK] + ((ints[t, STREAK] - me) & 3)] = 1.0
        for team in range(2):
            row = 0 if team == mine else 1
            captured = masks[t, CAPTURED0 + team] & ~unseen
            o[at[O_CAPTURED_DOWN] + row] = np.float32(popcount(masks[t, CAPTURED0 + team] & unseen) / MAX_TRICKS)
            _set_cards(o, at[O_CAPTURED] + row * 52, captured)
            o[at[O_TENS] + row] = np.float32(popcount(captured & TENS) / 4)
            won = won_mine if team == mine else done - won_mine
            o[at[O_WON] + row] = np.float32(won / MAX_TRICKS)
            o[at[O_CAUGHT] + row] = np.float32(ints[t, CAUGHT0 + team] / MAX_TRICKS)
        for seat in range(4):
            r = (seat - me) & 3
            for suit in range(4):
                if voids[seat] >> suit & 1:
                    o[at[O_VOIDS] + r * 4 + suit] = 1.0
            o[at[O_HAND_SIZES] + r] = np.float32(popcount(masks[t, HAND0 + seat]) / MAX_TRICKS)
            o[at[O_TO_COME] + r] = np.float32(popcount(masks[t, UNDEALT0 + seat]) / MAX_TRICKS)
        # The trump as this seat knows it (``observe``, then ``CardTracker``).
        first = ints[t, FIRST]
        hidden = ints[t, HIDDEN]
        in_force = ints[t, TRUMP]
        if hidden >= 0 and me != first:
            in_force = -1  # on_play: in force while face down, but only its holder may know
        trump = in_force
        suits = 0
        if hidden >= 0:
            o[at[O_HIDDEN_HOLDER] + ((first - me) & 3)] = 1.0
            if me == first:
                o[at[O_OWN_HIDDEN] + hidden] = 1.0
                suits = 1 << (hidden // 13)
                if trump < 0:
                    trump = hidden // 13
            elif not on_play:
                suits = 0xF
            else:
                # Every finished trick's winner must be the winner with the face-down suit as trumps.
                suits = 0xF & ~voids[first]
                for k in range(done):
                    leader = history[t, k, H_LEADER]
                    winner = history[t, k, H_WINNER]
                    position = (leader - winner) & 3 if anticlockwise else (winner - leader) & 3
                    for suit in range(4):
                        if suits >> suit & 1 and _best_position(history, t, k, suit) != position:
                            suits &= ~(1 << suit)
                if in_force < 0 and suits and not suits & (suits - 1):
                    for suit in range(4):
                        if suits >> suit & 1:
                            trump = in_force = suit
        for suit in range(4):
            if suits >> suit & 1:
                o[at[O_HIDDEN_SUITS] + suit] = 1.0
        if trump >= 0:
            o[at[O_TRUMP] + trump] = 1.0
        if in_force >= 0:
            o[at[O_IN_FORCE] + in_force] = 1.0
        public = reveal_card >= 0 if method == HIDDEN_METHOD else ints[t, TRUMP] >= 0
        decision = ints[t, DECISION]
        over = decision == OVER
        if public:
            o[at[O_FLAGS]] = 1.0
        if reveal_card >= 0:
            o[at[O_FLAGS] + 1] = 1.0
        if ints[t, MUST_TRUMP] and not over and ints[t, TO_MOVE] == me:
            o[at[O_FLAGS] + 2] = 1.0
        if not over:
            o[at[O_DECISION] + (0 if decision == CALL_TRUMP else 1 if decision == HIDE_TRUMP else 2)] = 1.0
            o[at[O_TO_MOVE] + ((ints[t, TO_MOVE] - me) & 3)] = 1.0
        o[at[O_DEALER] + ((ints[t, DEALER] - me) & 3)] = 1.0
        o[at[O_FIRST] + ((first - me) & 3)] = 1.0
        o[at[O_TRICK_NUMBER]] = np.float32(min(done + 1, size) / MAX_TRICKS)
