"""The compiled rules: numba kernels over the batched state's arrays (``layout``).

Each kernel walks the N tables once. They follow ``arena.engine.hand`` step by step for the
options ``config`` admits, and the differential tests hold them to it. Compiled once per
machine and cached (``cache=True``: the first import after a change compiles for a few seconds).

The kernels allocate nothing (``deal_tables`` apart), so they are compiled without numba's
reference counting (``_nrt=False``): with it, every inlined helper's array arguments were
counted up and down, atomically, on every table at every step, about three quarters of a
random step (measured: 5.0 -> 1.2 us a hand; ``docs/performance.md``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from numba import njit, types
from numba.cpython.unsafe.numbers import trailing_zeros
from numba.extending import intrinsic

from arena.batch.config import (
    R_ANTICLOCKWISE,
    R_BONUS_ACES,
    R_CP_LIMITS,
    R_EARLY_END,
    R_FIRST_PACKET,
    R_FULL_HIDE,
    R_HAND_SIZE,
    R_KOT_BONUS,
    R_MAKER_DOWN,
    R_MENDIKOT_BONUS,
    R_METHOD,
    R_ON_PLAY,
    R_ON_REQUEST,
    R_RESULT,
    R_SWEEP,
    R_TWO_TWO,
    Method,
    ResultRule,
    TwoTwoRule,
)
from arena.batch.layout import (
    CAPTURED0,
    CAUGHT0,
    CUT_FALLBACK,
    DEALER,
    DECISION,
    FACE_DOWN,
    FIRST,
    H_CARD0,
    H_LEADER,
    H_TAKEN,
    H_TAKEN_BY,
    H_WINNER,
    HAND0,
    HIDDEN,
    LAST_WON_WITH_TRUMPS,
    LEADER,
    LED,
    LEGAL,
    MUST_TRUMP,
    OUT_FOUR_TENS,
    OUT_MAJORITY,
    OUT_THREE_TENS,
    OUT_TIED,
    OUT_TWO_TWO_AT_TABLE,
    OUT_TWO_TWO_CAPTURED,
    OUT_TWO_TWO_DRAW,
    OUT_TWO_TWO_NON_DEALER,
    PILE,
    PILE_TRICKS,
    RES_ALL_ACES,
    RES_CAUGHT0,
    RES_KOT,
    RES_MENDIKOT,
    RES_OUTCOME,
    RES_PLAYED,
    RES_POINTS,
    RES_TENS0,
    RES_WINNER,
    RES_WON0,
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

OVER = int(Phase.OVER)
CALL_TRUMP = int(Phase.CALL_TRUMP)
PLAY = int(Phase.PLAY)
HIDE_TRUMP = int(Phase.HIDE_TRUMP)
HIDDEN_METHOD = int(Method.HIDDEN)
CALLED = int(Method.CALLED)
FIRST_DISCARD = int(Method.FIRST_DISCARD)
CUT = int(Method.CUT)
RESULT_TENS = int(ResultRule.TENS)
RESULT_MENDIKOT = int(ResultRule.MENDIKOT)
RESULT_SEVEN = int(ResultRule.SEVEN_TRICKS)
TWO_TWO_AT_TABLE = int(TwoTwoRule.TRICKS_WON_AT_TABLE)
TWO_TWO_CAPTURED = int(TwoTwoRule.TRICKS_CAPTURED)
TWO_TWO_DRAW = int(TwoTwoRule.DRAW)

ONE = np.uint64(1)
ZERO = np.uint64(0)
SUIT_BITS = np.uint64(0x1FFF)
TENS_MASK = np.uint64(sum(1 << (s * 13 + 8) for s in range(4)))
ACES_MASK = np.uint64(sum(1 << (s * 13 + 12) for s in range(4)))

# Validation codes of ``check_actions``.
CHECK_OK = 0
CHECK_RANGE = 1
CHECK_FINISHED = 2
CHECK_ILLEGAL = 3
NUM_ACTIONS = 162
CALL_BASE = 52
HIDE_BASE = 58
REVEAL_ID = 57
DOWN_BASE = 110


def kernel(function: Callable[..., Any]) -> Any:
    """A kernel that allocates nothing: compiled, cached, and without numba's reference counting
    (``_nrt``, which numba's typed signature of ``njit`` does not list)."""
    return njit(cache=True, _nrt=False)(function)  # type: ignore[call-overload]


@njit(cache=True, inline="always")
def bit(card: int) -> np.uint64:
    return ONE << np.uint64(card)


@intrinsic
def _ctpop(typingctx, value):
    """LLVM's population count (one instruction on the host's CPU)."""
    if not isinstance(value, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return value(value), codegen


@njit(cache=True, inline="always")
def popcount(x: np.uint64) -> np.int64:
    return np.int64(_ctpop(x))  # type: ignore[call-arg]  # typingctx is numba's


@njit(cache=True, inline="always")
def lowest(x: np.uint64) -> np.int64:
    """The index of the lowest set bit of a nonzero mask."""
    return np.int64(trailing_zeros(x))  # type: ignore[call-arg]  # typingctx is numba's


@njit(cache=True, inline="always")
def suit_mask(suit: int) -> np.uint64:
    return SUIT_BITS << np.uint64(13 * suit)


@njit(cache=True, inline="always")
def next_seat(seat: int, anticlockwise: int) -> int:
    return (seat + 3) & 3 if anticlockwise else (seat + 1) & 3


@kernel
def reset_tables(ints, masks, history, result, deals, dealers, fallbacks, rules):
    """Start every table's hand from its deal (``deals[t, seat, i]`` in deal order)."""
    size = rules[R_HAND_SIZE]
    first_packet = rules[R_FIRST_PACKET]
    method = rules[R_METHOD]
    packets = method in (CALLED, CUT) or (method == HIDDEN_METHOD and not rules[R_FULL_HIDE])
    anticlockwise = rules[R_ANTICLOCKWISE]
    for t in range(ints.shape[0]):
        ints[t, :] = 0
        masks[t, :] = ZERO
        history[t, :, :] = -1
        result[t, :] = 0
        result[t, RES_WINNER] = -1
        result[t, RES_OUTCOME] = -1
        for seat in range(4):
            hand = ZERO
            later = ZERO
            for i in range(size):
                if packets and i >= first_packet:
                    later |= bit(deals[t, seat, i])
                else:
                    hand |= bit(deals[t, seat, i])
            masks[t, HAND0 + seat] = hand
            masks[t, UNDEALT0 + seat] = later
        dealer = dealers[t]
        first = next_seat(dealer, anticlockwise)
        ints[t, DEALER] = dealer
        ints[t, FIRST] = first
        ints[t, TO_MOVE] = first
        ints[t, LEADER] = first
        ints[t, TRUMP] = -1
        ints[t, LED] = -1
        ints[t, STREAK] = -1
        ints[t, CUT_FALLBACK] = fallbacks[t]
        ints[t, HIDDEN] = -1
        ints[t, REVEAL_CARD] = -1
        if method == CALLED:
            ints[t, DECISION] = CALL_TRUMP
        elif method == HIDDEN_METHOD:
            ints[t, DECISION] = HIDE_TRUMP
            masks[t, LEGAL] = masks[t, HAND0 + first]
        else:
            ints[t, DECISION] = PLAY
            masks[t, LEGAL] = masks[t, HAND0 + first]


@njit(cache=True, inline="always")
def may_reveal(ints, masks, t, rules):
    """On_request: the seat to move may ask for the face-down trump (void in the led suit, or
    its owner on lead)."""
    if not rules[R_ON_REQUEST] or ints[t, HIDDEN] < 0 or ints[t, DECISION] != PLAY:
        return False
    seat = ints[t, TO_MOVE]
    if not ints[t, TRICK_LEN]:
        return seat == ints[t, FIRST]
    return not masks[t, HAND0 + seat] & suit_mask(ints[t, LED])


@njit(cache=True, inline="always")
def may_discard_down(ints, masks, t, rules):
    """Double Sir (``maker_discard=face_down``): the trump maker, unable to follow while its
    trump is still face down, may play any of its legal cards face down instead."""
    if not rules[R_MAKER_DOWN] or ints[t, HIDDEN] < 0 or ints[t, DECISION] != PLAY or not ints[t, TRICK_LEN]:
        return False
    seat = ints[t, TO_MOVE]
    return seat == ints[t, FIRST] and not masks[t, HAND0 + seat] & suit_mask(ints[t, LED])


@kernel
def down_allowed(ints, masks, rules, out):
    for t in range(ints.shape[0]):
        out[t] = may_discard_down(ints, masks, t, rules)


@kernel
def reveal_allowed(ints, masks, rules, out):
    for t in range(ints.shape[0]):
        out[t] = may_reveal(ints, masks, t, rules)


@kernel
def check_actions(ints, masks, actions, rules):
    """``(table, code)`` of the first action that may not be applied, or ``(-1, CHECK_OK)``."""
    for t in range(ints.shape[0]):
        action = actions[t]
        if action == -1:
            continue
        if action < -1 or action >= NUM_ACTIONS:
            return t, CHECK_RANGE
        decision = ints[t, DECISION]
        if decision == OVER:
            return t, CHECK_FINISHED
        if decision == PLAY:
            if action == REVEAL_ID:
                if not may_reveal(ints, masks, t, rules):
                    return t, CHECK_ILLEGAL
            elif action >= DOWN_BASE:
                if not may_discard_down(ints, masks, t, rules) or not (
                        masks[t, LEGAL] >> np.uint64(action - DOWN_BASE)) & ONE:
                    return t, CHECK_ILLEGAL
            elif action >= CALL_BASE or not (masks[t, LEGAL] >> np.uint64(action)) & ONE:
                return t, CHECK_ILLEGAL
        elif decision == CALL_TRUMP:
            if not CALL_BASE <= action < CALL_BASE + 4:
                return t, CHECK_ILLEGAL
        elif not HIDE_BASE <= action < HIDE_BASE + 52 or not (masks[t, LEGAL] >> np.uint64(action - HIDE_BASE)) & ONE:
            return t, CHECK_ILLEGAL
    return -1, CHECK_OK


@kernel
def _complete_deal(masks, t):
    for seat in range(4):
        masks[t, HAND0 + seat] |= masks[t, UNDEALT0 + seat]
        masks[t, UNDEALT0 + seat] = ZERO


@kernel
def _call(ints, masks, t, suit):
    ints[t, TRUMP] = suit
    _complete_deal(masks, t)
    ints[t, DECISION] = PLAY
    masks[t, LEGAL] = masks[t, HAND0 + ints[t, TO_MOVE]]


@kernel
def _hide(ints, masks, t, card, rules):
    seat = ints[t, TO_MOVE]
    masks[t, HAND0 + seat] ^= bit(card)
    ints[t, HIDDEN] = card
    if rules[R_ON_PLAY]:
        ints[t, TRUMP] = card // 13  # seed 001: in force from the first trick, while secret
    _complete_deal(masks, t)
    ints[t, DECISION] = PLAY
    masks[t, LEGAL] = _hidden_legal(ints, masks, t, rules)


@kernel
def _turn_up(ints, masks, t):
    """The face-down trump turned up: back in its owner's hand, its suit in force."""
    card = ints[t, HIDDEN]
    ints[t, HIDDEN] = -1
    masks[t, HAND0 + ints[t, FIRST]] |= bit(card)
    ints[t, TRUMP] = card // 13
    ints[t, REVEAL_TRICK] = ints[t, TRICKS_DONE] + 1
    ints[t, REVEAL_POSITION] = ints[t, TRICK_LEN]
    ints[t, REVEAL_CARD] = card


@kernel
def _ask_reveal(ints, masks, t, rules):
    _turn_up(ints, masks, t)
    ints[t, MUST_TRUMP] = 1
    masks[t, LEGAL] = _hidden_legal(ints, masks, t, rules)


@kernel
def _hidden_turns(ints, masks, t, rules):
    """The automatic reveals for the seat to move: its owner with only the face-down card left,
    or (on_void) anyone out of the led suit."""
    seat = ints[t, TO_MOVE]
    hand = masks[t, HAND0 + seat]
    owner_out = seat == ints[t, FIRST] and not hand
    void = not rules[R_ON_REQUEST] and ints[t, TRICK_LEN] and not hand & suit_mask(ints[t, LED])
    if owner_out or void:
        _turn_up(ints, masks, t)


@kernel
def _hidden_legal(ints, masks, t, rules):
    """The legal cards under a face-down trump: follow suit, except that on_void its owner in
    the trick of the reveal owes nothing when the card that came back is its only one of the
    suit; after asking for the reveal (on_request), a trump if it holds one."""
    seat = ints[t, TO_MOVE]
    hand = masks[t, HAND0 + seat]
    if rules[R_ON_PLAY] and ints[t, HIDDEN] >= 0 and seat == ints[t, FIRST]:
        hand |= bit(ints[t, HIDDEN])  # on_play: it counts as part of its holder's hand
    if ints[t, TRICK_LEN]:
        follow = hand & suit_mask(ints[t, LED])
        if (follow and not rules[R_ON_REQUEST] and seat == ints[t, FIRST]
                and ints[t, REVEAL_TRICK] == ints[t, TRICKS_DONE] + 1 and follow == bit(ints[t, REVEAL_CARD])):
            follow = ZERO
        if follow:
            return follow
    if ints[t, MUST_TRUMP]:
        trumps = hand & suit_mask(ints[t, TRUMP])
        if trumps:
            return trumps
    return hand


@njit(cache=True, inline="always")
def _play(ints, masks, history, result, t, card, rules):
    seat = ints[t, TO_MOVE]
    ints[t, MUST_TRUMP] = 0
    if rules[R_ON_PLAY] and card == ints[t, HIDDEN]:  # the face-down trump played by its holder
        _turn_up(ints, masks, t)
    masks[t, HAND0 + seat] ^= bit(card)
    suit = card // 13
    played = ints[t, TRICK_LEN]
    method = rules[R_METHOD]
    if played == 0:
        ints[t, LED] = suit
        ints[t, LEADER] = seat
    elif method in (CUT, FIRST_DISCARD) and suit != ints[t, LED] and ints[t, TRUMP] < 0:  # the rule first: predictable
        ints[t, TRUMP] = suit
        ints[t, SETTING_TRICK] = ints[t, TRICKS_DONE] + 1
    ints[t, TRICK_CARD0 + played] = card
    ints[t, TRICK_LEN] = played + 1
    if played == 3:
        _finish_trick(ints, masks, history, result, t, rules)
        return
    seat = next_seat(seat, rules[R_ANTICLOCKWISE])
    ints[t, TO_MOVE] = seat
    if method == HIDDEN_METHOD:
        if ints[t, HIDDEN] >= 0 and not rules[R_ON_PLAY]:
            _hidden_turns(ints, masks, t, rules)
        masks[t, LEGAL] = _hidden_legal(ints, masks, t, rules)
        return
    hand = masks[t, HAND0 + seat]
    follow = hand & suit_mask(ints[t, LED])
    masks[t, LEGAL] = follow if follow else hand


@njit(cache=True, inline="always")
def _finish_trick(ints, masks, history, result, t, rules):
    done = ints[t, TRICKS_DONE]
    number = done + 1
    led = ints[t, LED]
    trump = ints[t, TRUMP]
    # A trump turned up in this trick counts from the card after its reveal (all of the trick
    # when the trump suit was led).
    trump_from = 0
    if ints[t, REVEAL_TRICK] == number and led != trump and not rules[R_ON_PLAY]:
        trump_from = ints[t, REVEAL_POSITION]
    best = -1
    position = 0
    pile = masks[t, PILE]
    down = masks[t, FACE_DOWN]
    for p in range(4):
        card = ints[t, TRICK_CARD0 + p]
        card_bit = bit(card)
        pile |= card_bit
        suit = card // 13
        # The card's key, without a branch on the cards (those branches were mispredicted
        # about once a trick): a trump (from ``trump_from``) 16 + rank, the led suit its rank,
        # anything else -1, and so is a card played face down (as the reference's trick_best;
        # off the led suit while no trump is in force, it could not win anyway).
        trumps = np.int64(suit == trump) & np.int64(p >= trump_from)
        counts = (trumps | np.int64(suit == led)) & np.int64((down & card_bit) == ZERO)
        key = (card - 13 * suit + 16 * trumps + 1) * counts - 1
        better = int(key > best)
        best = max(key, best)
        position += (p - position) * better
    leader = ints[t, LEADER]
    anticlockwise = rules[R_ANTICLOCKWISE]
    winner = (leader + 3 * position) & 3 if anticlockwise else (leader + position) & 3
    team = winner & 1
    pile_tricks = ints[t, PILE_TRICKS] + 1
    size = rules[R_HAND_SIZE]
    last = number == size
    method = rules[R_METHOD]
    limits = rules[R_CP_LIMITS]
    if rules[R_SWEEP] and not last:
        claims = True
        if limits and (number <= 2 or number == size - 1):
            claims = False
        elif method == FIRST_DISCARD or (limits and method == HIDDEN_METHOD):
            claims = ints[t, LAST_WON_WITH_TRUMPS] != 0
        take = ints[t, STREAK] == winner and claims
        # A claim restarts the count, except under Court Piece's limits.
        ints[t, STREAK] = -1 if take and not limits else winner
    else:
        take = True
    history[t, done, H_LEADER] = leader
    for p in range(4):
        history[t, done, H_CARD0 + p] = ints[t, TRICK_CARD0 + p]
    history[t, done, H_WINNER] = winner
    # Taken or left, without a branch (under sweep capture, whether the pile is taken was
    # mispredicted about a third of the time): ``taken`` is 1 or 0, ``keep`` all ones or none.
    taken = np.int64(take)
    keep = ZERO - np.uint64(taken)
    masks[t, CAPTURED0 + team] |= pile & keep
    ints[t, CAUGHT0 + team] += pile_tricks * taken
    history[t, done, H_TAKEN_BY] = (team + 1) * taken - 1
    history[t, done, H_TAKEN] = pile_tricks * taken
    masks[t, PILE] = pile & ~keep
    ints[t, PILE_TRICKS] = pile_tricks * (1 - taken)
    if method == FIRST_DISCARD:
        setting = ints[t, SETTING_TRICK]
        ints[t, LAST_WON_WITH_TRUMPS] = 1 if 0 < setting <= number else 0
    elif limits and method == HIDDEN_METHOD:  # the winning card came after the reveal
        revealed = ints[t, REVEAL_TRICK]
        after = 0 < revealed < number or (revealed == number and position >= ints[t, REVEAL_POSITION])
        ints[t, LAST_WON_WITH_TRUMPS] = 1 if after else 0
    ints[t, TRICK_LEN] = 0
    ints[t, LEADER] = winner
    ints[t, TO_MOVE] = winner
    ints[t, TRICKS_DONE] = number
    if method == CUT and masks[t, UNDEALT0] and (ints[t, TRUMP] >= 0 or number >= rules[R_FIRST_PACKET]):
        if ints[t, TRUMP] < 0:
            k = ints[t, CUT_FALLBACK]
            ints[t, TRUMP] = history[t, k // 4, H_CARD0 + k % 4] // 13
            ints[t, SETTING_TRICK] = number
        _complete_deal(masks, t)
    majority = size // 2 + 1
    if last or (rules[R_EARLY_END] and max(ints[t, CAUGHT0], ints[t, CAUGHT0 + 1]) >= majority):
        _finish_hand(ints, masks, history, result, t, rules)
        return
    if ints[t, HIDDEN] >= 0:
        if rules[R_ON_PLAY]:  # no automatic reveal; its holder's face-down card counts in its hand
            masks[t, LEGAL] = _hidden_legal(ints, masks, t, rules)
            return
        _hidden_turns(ints, masks, t, rules)
    masks[t, LEGAL] = masks[t, HAND0 + winner]


@kernel
def _finish_hand(ints, masks, history, result, t, rules):
    """``arena.engine.outcome.decide_hand`` on the table's captured cards and trick winners."""
    ints[t, DECISION] = OVER
    masks[t, LEGAL] = ZERO
    played = ints[t, TRICKS_DONE]
    size = rules[R_HAND_SIZE]
    tens0 = popcount(masks[t, CAPTURED0] & TENS_MASK)
    tens1 = popcount(masks[t, CAPTURED0 + 1] & TENS_MASK)
    aces0 = popcount(masks[t, CAPTURED0] & ACES_MASK)
    aces1 = popcount(masks[t, CAPTURED0 + 1] & ACES_MASK)
    won1 = 0
    for i in range(played):
        won1 += history[t, i, H_WINNER] & 1
    won0 = played - won1
    caught0 = ints[t, CAUGHT0]
    caught1 = ints[t, CAUGHT0 + 1]
    rule = rules[R_RESULT]
    need = size // 2 + 1
    kot = False
    mendikot = False
    if rule == RESULT_SEVEN:
        winner = 0 if caught0 >= need else 1 if caught1 >= need else -1
        outcome = OUT_MAJORITY if winner >= 0 else OUT_TIED
        if winner >= 0 and played >= need:
            kot = True
            for i in range(need):
                if history[t, i, H_WINNER] & 1 != winner:
                    kot = False
    elif tens0 >= 3 or tens1 >= 3:
        winner = 0 if tens0 >= 3 else 1
        tens = tens0 if winner == 0 else tens1
        outcome = OUT_FOUR_TENS if tens == 4 else OUT_THREE_TENS
        if rule == RESULT_TENS:
            kot = tens == 4
        else:
            mendikot = tens == 4
            won = won0 if winner == 0 else won1
            kot = mendikot and won == played and played == size
    elif rule == RESULT_MENDIKOT:
        winner = 0 if caught0 >= need else 1 if caught1 >= need else -1
        outcome = OUT_MAJORITY if winner >= 0 else OUT_TIED
    else:
        two_two = rules[R_TWO_TWO]
        if two_two == TWO_TWO_DRAW:
            winner = -1
            outcome = OUT_TWO_TWO_DRAW
        elif two_two == TWO_TWO_AT_TABLE and won0 != won1:
            winner = 0 if won0 > won1 else 1
            outcome = OUT_TWO_TWO_AT_TABLE
        elif two_two == TWO_TWO_CAPTURED and caught0 != caught1:
            winner = 0 if caught0 > caught1 else 1
            outcome = OUT_TWO_TWO_CAPTURED
        else:
            winner = 1 - (ints[t, DEALER] & 1)
            outcome = OUT_TWO_TWO_NON_DEALER
    all_aces = winner >= 0 and (aces0 if winner == 0 else aces1) == 4
    points = 0
    if winner >= 0 and rule != RESULT_TENS:
        points = 1 + rules[R_KOT_BONUS] * int(kot) + rules[R_MENDIKOT_BONUS] * int(mendikot)
        if rules[R_BONUS_ACES] and mendikot and all_aces:
            points += 1
    result[t, RES_WINNER] = winner
    result[t, RES_OUTCOME] = outcome
    result[t, RES_TENS0] = tens0
    result[t, RES_TENS0 + 1] = tens1
    result[t, RES_WON0] = won0
    result[t, RES_WON0 + 1] = won1
    result[t, RES_CAUGHT0] = caught0
    result[t, RES_CAUGHT0 + 1] = caught1
    result[t, RES_PLAYED] = played
    result[t, RES_KOT] = kot
    result[t, RES_MENDIKOT] = mendikot
    result[t, RES_ALL_ACES] = all_aces
    result[t, RES_POINTS] = points


@kernel
def legal_actions_mask(ints, masks, rules, out):
    """``out[t, a]``: action ``a`` is legal at table ``t`` (``out`` zeroed by the caller)."""
    for t in range(ints.shape[0]):
        decision = ints[t, DECISION]
        if decision == PLAY:
            legal = masks[t, LEGAL]
            while legal:
                card = lowest(legal)
                out[t, card] = True
                legal &= legal - ONE
            if may_reveal(ints, masks, t, rules):
                out[t, REVEAL_ID] = True
            if may_discard_down(ints, masks, t, rules):
                legal = masks[t, LEGAL]
                while legal:
                    out[t, DOWN_BASE + lowest(legal)] = True
                    legal &= legal - ONE
        elif decision == CALL_TRUMP:
            for suit in range(4):
                out[t, CALL_BASE + suit] = True
        elif decision == HIDE_TRUMP:
            legal = masks[t, LEGAL]
            while legal:
                out[t, HIDE_BASE + lowest(legal)] = True
                legal &= legal - ONE


@njit(cache=True, inline="always")
def select_bit(cards, k):
    """The index of the ``k``-th set bit of ``cards`` (from 0, low to high): a binary search
    on population counts, with no loop that depends on ``k`` and no branch on the data (each
    halving is arithmetic: its branch was mispredicted half the time, a quarter of the step)."""
    position = 0
    width = 32
    while width:
        keep = (ONE << np.uint64(width)) - ONE
        count = popcount(cards & keep)
        high = int(k >= count)  # 1: the bit is in the upper half
        k -= count * high
        shift = width * high
        cards = (cards >> np.uint64(shift)) & keep
        position += shift
        width >>= 1
    return position


@njit(cache=True, inline="always")
def _kth(cards, uniform):
    """The ``floor(uniform * count)``-th card of a nonempty mask, low to high."""
    return select_bit(cards, int(uniform * popcount(cards)))


@njit(cache=True, inline="always")
def _random_play(ints, masks, t, uniform, rules):
    """A random play decision in the engine's order: the legal cards low to high, then the same
    cards face down where allowed, then the reveal where allowed. Returns an action id."""
    legal = masks[t, LEGAL]
    count = popcount(legal)
    if not may_reveal(ints, masks, t, rules):  # the common case on its own path (measured: a third faster)
        return select_bit(legal, int(uniform * count))
    down = may_discard_down(ints, masks, t, rules)  # offered only beside the reveal
    k = int(uniform * (count * (2 if down else 1) + 1))
    if k < count:
        return select_bit(legal, k)
    if down and k < 2 * count:
        return DOWN_BASE + select_bit(legal, k - count)
    return REVEAL_ID


@njit(cache=True, inline="always")
def _apply_play(ints, masks, history, result, t, action, rules):
    """A play decision's action id: a card, a card face down, or the reveal."""
    if action == REVEAL_ID:
        _ask_reveal(ints, masks, t, rules)
    elif action >= DOWN_BASE:
        masks[t, FACE_DOWN] |= bit(action - DOWN_BASE)
        _play(ints, masks, history, result, t, action - DOWN_BASE, rules)
    else:
        _play(ints, masks, history, result, t, action, rules)


@kernel
def random_actions(ints, masks, uniforms, rules, out):
    """A uniformly random legal action per table, the ``floor(u * count)``-th legal action in
    the engine's order (cards low to high; suits S H D C), or -1 where the hand is over."""
    for t in range(ints.shape[0]):
        decision = ints[t, DECISION]
        if decision == PLAY:
            out[t] = _random_play(ints, masks, t, uniforms[t], rules)
        elif decision == CALL_TRUMP:
            out[t] = CALL_BASE + int(uniforms[t] * 4)
        elif decision == HIDE_TRUMP:
            out[t] = HIDE_BASE + _kth(masks[t, LEGAL], uniforms[t])
        else:
            out[t] = -1


_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_TO_UNIT = 1.0 / 9007199254740992.0  # 2**-53


@njit(cache=True, inline="always")
def keyed_uniform(key: np.uint64, table: int) -> float:
    """A uniform in [0, 1) for ``table`` from ``key``: SplitMix64's output function on
    ``key + (table + 1) * golden``, the top 53 bits."""
    z = key + np.uint64(table + 1) * _GOLDEN
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    z = z ^ (z >> np.uint64(31))
    return float(z >> np.uint64(11)) * _TO_UNIT


@kernel
def keyed_uniforms(key, out):
    for t in range(out.shape[0]):
        out[t] = keyed_uniform(key, t)


# The sources of ``advance``'s actions.
GIVEN = 0
DRAWN = 1
UNTIL = 2
STRIDE = np.uint64(0xD1B54A32D192ED03)
"""Added to the key for each further move at a table in one ``UNTIL`` call (odd: distinct keys)."""


@kernel
def advance(ints, masks, history, result, source, actions, uniforms, key, rules, out, stop, log, log_len):
    """Every table's next action from ``source``, applied:

    - ``GIVEN``: ``actions[t]`` (checked by the caller; -1 leaves the table as it is);
    - ``DRAWN``: the random legal action for ``uniforms[t]`` (``random_actions``'s, legal by
      construction, so unchecked), written to ``out[t]``;
    - ``UNTIL``: keyed random actions (the ``m``-th move's key ``key + m * STRIDE``) until a seat
      with ``stop[seat]`` is to move or the hand is over, each appended to ``log[t]``
      (``log_len[t]`` its length): the opponents' moves of the vector environments.

    One kernel, not three: each inlines the whole hand step, the longest compile of the engine,
    and a fresh clone (CI) compiled it once per use. ``step_keyed`` stays apart: the random
    playouts' hot path, measured 5% slower inside this kernel (``docs/performance.md``)."""
    for t in range(ints.shape[0]):
        move = 0
        while True:
            decision = ints[t, DECISION]
            if source == GIVEN:
                action = actions[t]
                if action < 0:
                    break
            else:
                if source == UNTIL and (decision == OVER or stop[ints[t, TO_MOVE]]):
                    break
                uniform = uniforms[t] if source == DRAWN else keyed_uniform(key + np.uint64(move) * STRIDE, t)
                if decision == PLAY:
                    action = _random_play(ints, masks, t, uniform, rules)
                elif decision == CALL_TRUMP:
                    action = CALL_BASE + int(uniform * 4)
                elif decision == HIDE_TRUMP:
                    action = HIDE_BASE + _kth(masks[t, LEGAL], uniform)
                else:
                    out[t] = -1
                    break
                if source == UNTIL:
                    log[t, log_len[t]] = action
                    log_len[t] += 1
                else:
                    out[t] = action
            if decision == CALL_TRUMP:
                _call(ints, masks, t, action - CALL_BASE)
            elif decision == HIDE_TRUMP:
                _hide(ints, masks, t, action - HIDE_BASE, rules)
            else:
                _apply_play(ints, masks, history, result, t, action, rules)
            if source != UNTIL:
                break
            move += 1


@kernel
def step_keyed(ints, masks, history, result, key, rules, out):
    """``step_random`` with table ``t``'s uniform ``keyed_uniform(key, t)``: no array of uniforms."""
    for t in range(ints.shape[0]):
        decision = ints[t, DECISION]
        if decision == PLAY:
            action = _random_play(ints, masks, t, keyed_uniform(key, t), rules)
            out[t] = action
            _apply_play(ints, masks, history, result, t, action, rules)
        elif decision == CALL_TRUMP:
            suit = int(keyed_uniform(key, t) * 4)
            out[t] = CALL_BASE + suit
            _call(ints, masks, t, suit)
        elif decision == HIDE_TRUMP:
            card = _kth(masks[t, LEGAL], keyed_uniform(key, t))
            out[t] = HIDE_BASE + card
            _hide(ints, masks, t, card, rules)
        else:
            out[t] = -1


def shuffle_groups(count: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The divisors ``count, count - 1, ..., 2`` of a Fisher-Yates shuffle in runs whose
    product is below 2**32: the runs' products and lengths."""
    products: list[int] = []
    lengths: list[int] = []
    product, length = 1, 0
    for divisor in range(count, 1, -1):
        if product * divisor >= 1 << 32:
            products.append(product)
            lengths.append(length)
            product, length = 1, 0
        product *= divisor
        length += 1
    products.append(product)
    lengths.append(length)
    return tuple(products), tuple(lengths)


# Module constants, so that every division below is by a number the compiler knows (a multiply).
_P52, _L52 = shuffle_groups(52)
_P32, _L32 = shuffle_groups(32)
_U32 = np.uint64(32)


@njit(cache=True, inline="always")
def _divide(limbs, divisor):
    """``limbs`` (16 base-2**32 digits, most significant first) floor-divided by ``divisor``
    in place; returns the remainder."""
    rem = ZERO
    d = np.uint64(divisor)
    for k in range(16):
        cur = (rem << _U32) | limbs[k]
        q = cur // d
        limbs[k] = q
        rem = cur - q * d
    return rem


@njit(cache=True, inline="always")
def _swaps(cards, top, rem, length):
    """Fisher-Yates steps ``top``, ``top - 1``, ... (``length`` of them) from the remainder of
    their run's product: the mixed-radix digits, low first."""
    r = np.uint32(rem)
    for k in range(length):
        i = top - k
        d = np.uint32(i + 1)
        j = r % d
        r = r // d
        cards[i], cards[j] = cards[j], cards[i]


@njit(cache=True)
def deal_tables(digests, deck, size, out):
    """``arena.engine.chance.shuffled`` of ``deck`` (52 or 32 cards) by each table's 512-bit
    number (its BLAKE2b digest, big-endian), cut into four hands of ``size``. Fisher-Yates takes
    the number's mixed-radix digits (divmod by n, n - 1, ..., 2) a run at a time: one division
    of the big number by the run's product (below 2**32), then the small remainder by each."""
    n = deck.shape[0]
    limbs = np.empty(16, dtype=np.uint64)
    cards = np.empty(n, dtype=np.int64)
    for t in range(digests.shape[0]):
        for k in range(16):
            limbs[k] = (
                (np.uint64(digests[t, 4 * k]) << np.uint64(24))
                | (np.uint64(digests[t, 4 * k + 1]) << np.uint64(16))
                | (np.uint64(digests[t, 4 * k + 2]) << np.uint64(8))
                | np.uint64(digests[t, 4 * k + 3])
            )
        for k in range(n):
            cards[k] = deck[k]
        if n == 52:
            _swaps(cards, 51, _divide(limbs, _P52[0]), _L52[0])
            _swaps(cards, 46, _divide(limbs, _P52[1]), _L52[1])
            _swaps(cards, 41, _divide(limbs, _P52[2]), _L52[2])
            _swaps(cards, 35, _divide(limbs, _P52[3]), _L52[3])
            _swaps(cards, 29, _divide(limbs, _P52[4]), _L52[4])
            _swaps(cards, 23, _divide(limbs, _P52[5]), _L52[5])
            _swaps(cards, 16, _divide(limbs, _P52[6]), _L52[6])
            _swaps(cards, 8, _divide(limbs, _P52[7]), _L52[7])
        else:
            _swaps(cards, 31, _divide(limbs, _P32[0]), _L32[0])
            _swaps(cards, 25, _divide(limbs, _P32[1]), _L32[1])
            _swaps(cards, 18, _divide(limbs, _P32[2]), _L32[2])
            _swaps(cards, 10, _divide(limbs, _P32[3]), _L32[3])
        for seat in range(4):
            for k in range(size):
                out[t, seat, k] = cards[seat * size + k]
