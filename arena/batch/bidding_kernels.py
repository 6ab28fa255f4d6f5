"""The compiled rules of Twenty-eight and Twenty-nine: numba kernels over ``bidding_layout``'s arrays.

Each kernel walks the N tables once and follows ``arena.engine.bidding_hand.BiddingHand`` (and
``auction.Auction``) step by step: the auction, the bidder's face-down trump, the two phases of
play, the exposure on call, tricks by the rules' rank order, card points, the hand's result. The
differential tests hold them to it. Cached like ``kernels`` (``cache=True``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from arena.batch.bidding_config import (
    B_ANTICLOCKWISE,
    B_EXPOSE_LAST,
    B_FIRST_PACKET,
    B_HAND_SIZE,
    B_LAST_TRICK_POINTS,
    B_MAX_BID,
    B_MIN_BID,
    B_OVERBID_PARTNER_MIN,
    B_POINTS,
    B_SINGLE_ROUND,
    B_STRENGTH,
    B_VALUES,
)
from arena.batch.bidding_layout import (
    BR_BID,
    BR_BIDDER,
    BR_GAME_POINTS,
    BR_MADE,
    BR_PLAYED,
    BR_POINTS0,
    BR_VOID,
    BR_WINNER,
    CALLS,
    CAPTURED0,
    DEALER,
    DECISION,
    FIRST,
    H_CARD0,
    H_LEADER,
    H_TAKEN,
    H_TAKEN_BY,
    H_WINNER,
    HAND0,
    HIDDEN,
    HIGH_BID,
    HIGH_BIDDER,
    LEADER,
    LED,
    LEGAL,
    MUST_TRUMP,
    PASSES,
    REVEAL_POSITION,
    REVEAL_SEAT,
    REVEAL_TRICK,
    TO_MOVE,
    TRICK_CARD0,
    TRICK_LEN,
    TRICKS_DONE,
    TRUMP,
    TRUMP_LED,
    UNDEALT0,
)
from arena.batch.kernels import (
    CHECK_FINISHED,
    CHECK_ILLEGAL,
    CHECK_OK,
    CHECK_RANGE,
    GIVEN,
    ONE,
    STRIDE,
    UNTIL,
    ZERO,
    bit,
    kernel,
    keyed_uniform,
    lowest,
    next_seat,
    popcount,
    select_bit,
    suit_mask,
)
from arena.batch.layout import Phase
from arena.engine.action_ids import BID_BASE, HIDE_BASE, NUM_BIDDING_ACTIONS, PASS_ID, REVEAL_ID
from arena.engine.bidding_hand import LAST_CALL_TRICK, TRUMP_BONUS

OVER = int(Phase.OVER)
BID = int(Phase.BID)
PLAY = int(Phase.PLAY)
HIDE_TRUMP = int(Phase.HIDE_TRUMP)

RANK_MASK = np.uint64(1 | 1 << 13 | 1 << 26 | 1 << 39)
"""The four cards of rank 0 (shift it by the rank)."""


@kernel
def reset_tables(ints, masks, history, result, deals, dealers, rules):
    """Start every table's hand from its deal (``deals[t, seat, i]`` in deal order): the first
    packet in hand, the rest undealt, the auction opened by the player after the dealer."""
    first_packet = rules[B_FIRST_PACKET]
    size = rules[B_HAND_SIZE]
    for t in range(ints.shape[0]):
        ints[t, :] = 0
        masks[t, :] = ZERO
        history[t, :, :] = -1
        result[t, :] = 0
        result[t, BR_BIDDER] = -1
        result[t, BR_WINNER] = -1
        for seat in range(4):
            hand = ZERO
            later = ZERO
            for i in range(size):
                if i < first_packet:
                    hand |= bit(deals[t, seat, i])
                else:
                    later |= bit(deals[t, seat, i])
            masks[t, HAND0 + seat] = hand
            masks[t, UNDEALT0 + seat] = later
        dealer = dealers[t]
        first = next_seat(dealer, rules[B_ANTICLOCKWISE])
        ints[t, DEALER] = dealer
        ints[t, FIRST] = first
        ints[t, TO_MOVE] = first
        ints[t, LEADER] = first
        ints[t, TRUMP] = -1
        ints[t, LED] = -1
        ints[t, HIDDEN] = -1
        ints[t, REVEAL_SEAT] = -1
        ints[t, HIGH_BIDDER] = -1
        ints[t, DECISION] = BID


@njit(cache=True, inline="always")
def least_bid(ints, t, rules):
    """``Auction.least_bid``: the smallest bid the speaker may make now."""
    high = ints[t, HIGH_BID]
    if not high:
        return rules[B_MIN_BID]
    least = high + 1
    overbid = rules[B_OVERBID_PARTNER_MIN]
    if overbid and ints[t, HIGH_BIDDER] == (ints[t, TO_MOVE] + 2) & 3 and ints[t, PASSES]:
        least = max(least, overbid)  # the partner's bid, the previous speaker passed
    return least


@njit(cache=True, inline="always")
def may_call(ints, masks, t):
    """``BiddingHand._may_call``: at a play decision, while the trump is down, the seat to move
    may call for it when it cannot follow the led suit, or holds nothing but the face-down card."""
    if ints[t, HIDDEN] < 0 or ints[t, DECISION] != PLAY:
        return False
    hand = masks[t, HAND0 + ints[t, TO_MOVE]]
    if not hand:
        return True
    return ints[t, TRICK_LEN] > 0 and not hand & suit_mask(ints[t, LED])


@njit(cache=True, inline="always")
def _legal_cards(ints, masks, t):
    """``BiddingHand.legal_mask``: follow suit; after a call, a trump if it cannot; the bidder
    may not lead trumps while they are down unless a trump was led or it holds nothing else."""
    seat = ints[t, TO_MOVE]
    hand = masks[t, HAND0 + seat]
    trumps = suit_mask(ints[t, TRUMP])
    if ints[t, TRICK_LEN]:
        follow = hand & suit_mask(ints[t, LED])
        if follow:
            return follow
        if ints[t, MUST_TRUMP] and hand & trumps:
            return hand & trumps
        return hand
    if ints[t, HIDDEN] >= 0 and seat == ints[t, HIGH_BIDDER] and not ints[t, TRUMP_LED] and hand & ~trumps:
        return hand & ~trumps
    return hand


@kernel
def check_actions(ints, masks, actions, rules):
    """``(table, code)`` of the first action that may not be applied, or ``(-1, CHECK_OK)``."""
    for t in range(ints.shape[0]):
        action = actions[t]
        if action == -1:
            continue
        if action < -1 or action >= NUM_BIDDING_ACTIONS:
            return t, CHECK_RANGE
        decision = ints[t, DECISION]
        if decision == OVER:
            return t, CHECK_FINISHED
        if decision == BID:
            if action == PASS_ID:
                if not ints[t, HIGH_BID]:
                    return t, CHECK_ILLEGAL
            elif not BID_BASE + least_bid(ints, t, rules) <= action <= BID_BASE + rules[B_MAX_BID]:
                return t, CHECK_ILLEGAL
        elif decision == HIDE_TRUMP:
            if not HIDE_BASE <= action < HIDE_BASE + 52 or not (masks[t, LEGAL] >> np.uint64(action - HIDE_BASE)) & ONE:
                return t, CHECK_ILLEGAL
        elif action == REVEAL_ID:
            if not may_call(ints, masks, t):
                return t, CHECK_ILLEGAL
        elif action >= 52 or not (masks[t, LEGAL] >> np.uint64(action)) & ONE:
            return t, CHECK_ILLEGAL
    return -1, CHECK_OK


@njit(cache=True, inline="always")
def _apply(ints, masks, history, result, t, action, rules):
    """One legal action at table ``t``: a call, the face-down trump, the exposure or a card."""
    decision = ints[t, DECISION]
    if decision == BID:
        _call(ints, masks, t, action, rules)
    elif decision == HIDE_TRUMP:
        _hide(ints, masks, t, action - HIDE_BASE)
    elif action == REVEAL_ID:
        _expose(ints, masks, t)
    else:
        _play(ints, masks, history, result, t, action, rules)


@njit(cache=True, inline="always")
def _call(ints, masks, t, action, rules):
    """``Auction.after``: a pass or a bid; three passes in a row after a bid, a bid of the
    maximum or (single round) the fourth call ends it, and the bidder puts a trump face down."""
    seat = ints[t, TO_MOVE]
    ints[t, CALLS] += 1
    if action == PASS_ID:
        ints[t, PASSES] += 1
    else:
        ints[t, HIGH_BID] = action - BID_BASE
        ints[t, HIGH_BIDDER] = seat
        ints[t, PASSES] = 0
    high = ints[t, HIGH_BID]
    over = high and (high >= rules[B_MAX_BID] or ints[t, PASSES] >= 3
                     or (rules[B_SINGLE_ROUND] and ints[t, CALLS] >= 4))
    if over:
        bidder = ints[t, HIGH_BIDDER]
        ints[t, DECISION] = HIDE_TRUMP
        ints[t, TO_MOVE] = bidder
        masks[t, LEGAL] = masks[t, HAND0 + bidder]
    else:
        ints[t, TO_MOVE] = next_seat(seat, rules[B_ANTICLOCKWISE])


@njit(cache=True, inline="always")
def _hide(ints, masks, t, card):
    """The bidder's card face down (its suit is trumps), the second packet dealt, play begins."""
    seat = ints[t, TO_MOVE]
    masks[t, HAND0 + seat] ^= bit(card)
    ints[t, HIDDEN] = card
    ints[t, TRUMP] = card // 13
    for s in range(4):
        masks[t, HAND0 + s] |= masks[t, UNDEALT0 + s]
        masks[t, UNDEALT0 + s] = ZERO
    ints[t, DECISION] = PLAY
    first = ints[t, FIRST]
    ints[t, TO_MOVE] = first
    ints[t, LEADER] = first
    masks[t, LEGAL] = _legal_cards(ints, masks, t)


@njit(cache=True, inline="always")
def _expose(ints, masks, t):
    """The call for the trump: the card back in the bidder's hand, trumps in force from the
    caller's card on, and the caller must play a trump if it has one."""
    ints[t, REVEAL_TRICK] = ints[t, TRICKS_DONE] + 1
    ints[t, REVEAL_POSITION] = ints[t, TRICK_LEN]
    ints[t, REVEAL_SEAT] = ints[t, TO_MOVE]
    masks[t, HAND0 + ints[t, HIGH_BIDDER]] |= bit(ints[t, HIDDEN])
    ints[t, HIDDEN] = -1
    ints[t, MUST_TRUMP] = 1
    masks[t, LEGAL] = _legal_cards(ints, masks, t)


@njit(cache=True, inline="always")
def _play(ints, masks, history, result, t, card, rules):
    seat = ints[t, TO_MOVE]
    masks[t, HAND0 + seat] ^= bit(card)
    ints[t, MUST_TRUMP] = 0
    played = ints[t, TRICK_LEN]
    if played == 0:
        ints[t, LED] = card // 13
        ints[t, LEADER] = seat
        if card // 13 == ints[t, TRUMP]:
            ints[t, TRUMP_LED] = 1
    ints[t, TRICK_CARD0 + played] = card
    ints[t, TRICK_LEN] = played + 1
    if played == 3:
        _finish_trick(ints, masks, history, result, t, rules)
    else:
        ints[t, TO_MOVE] = next_seat(seat, rules[B_ANTICLOCKWISE])
    masks[t, LEGAL] = _legal_cards(ints, masks, t) if ints[t, DECISION] == PLAY else ZERO


@njit(cache=True, inline="always")
def _finish_trick(ints, masks, history, result, t, rules):
    """``BiddingHand._finish_trick``: a trump wins from the card of the call for it on (from the
    start of every later trick); the trick goes to its winner's team."""
    done = ints[t, TRICKS_DONE]
    number = done + 1
    led = ints[t, LED]
    trump = ints[t, TRUMP]
    revealed = ints[t, REVEAL_TRICK]
    trump_from = 4 if not revealed or revealed > number else ints[t, REVEAL_POSITION] if revealed == number else 0
    best = -1
    position = 0
    cards = ZERO
    for p in range(4):
        card = ints[t, TRICK_CARD0 + p]
        cards |= bit(card)
        suit = card // 13
        if suit == trump and trump != led and p >= trump_from:
            key = rules[B_STRENGTH + card % 13] + TRUMP_BONUS
        elif suit == led:
            key = rules[B_STRENGTH + card % 13]
        else:
            key = -1
        if key > best:
            best = key
            position = p
    leader = ints[t, LEADER]
    winner = (leader + 3 * position) & 3 if rules[B_ANTICLOCKWISE] else (leader + position) & 3
    team = winner & 1
    masks[t, CAPTURED0 + team] |= cards
    history[t, done, H_LEADER] = leader
    for p in range(4):
        history[t, done, H_CARD0 + p] = ints[t, TRICK_CARD0 + p]
    history[t, done, H_WINNER] = winner
    history[t, done, H_TAKEN_BY] = team
    history[t, done, H_TAKEN] = 1
    ints[t, TRICK_LEN] = 0
    ints[t, LEADER] = winner
    ints[t, TO_MOVE] = winner
    ints[t, TRICKS_DONE] = number
    last = number == rules[B_HAND_SIZE]
    void = number == LAST_CALL_TRICK and ints[t, HIDDEN] >= 0 and not rules[B_EXPOSE_LAST]
    if last or void:
        _finish_hand(ints, masks, result, t, team if last else -1, void, rules)


@njit(cache=True, inline="always")
def _card_points(cards, rules):
    total = 0
    for rank in range(13):
        points = rules[B_POINTS + rank]
        if points:
            total += points * popcount(cards & (RANK_MASK << np.uint64(rank)))
    return total


@njit(cache=True, inline="always")
def _finish_hand(ints, masks, result, t, last_team, void, rules):
    """``bidding_outcome.decide_bidding_hand``: card points (and the last trick's) against the bid."""
    ints[t, DECISION] = OVER
    bidder = ints[t, HIGH_BIDDER]
    bid = ints[t, HIGH_BID]
    team = bidder & 1
    bonus = rules[B_LAST_TRICK_POINTS]
    points0 = _card_points(masks[t, CAPTURED0], rules) + (bonus if last_team == 0 else 0)
    points1 = _card_points(masks[t, CAPTURED0 + 1], rules) + (bonus if last_team == 1 else 0)
    result[t, BR_BIDDER] = bidder
    result[t, BR_BID] = bid
    result[t, BR_POINTS0] = points0
    result[t, BR_POINTS0 + 1] = points1
    result[t, BR_PLAYED] = ints[t, TRICKS_DONE]
    if void:
        result[t, BR_VOID] = 1
        result[t, BR_WINNER] = -1
        return
    made = (points1 if team else points0) >= bid
    value = rules[B_VALUES + bid]
    result[t, BR_MADE] = made
    result[t, BR_GAME_POINTS] = value if made else -value
    result[t, BR_WINNER] = team if made else 1 - team


@kernel
def legal_actions_mask(ints, masks, rules, out):
    """``out[t, a]``: action ``a`` (``bidding_action_id``) is legal at table ``t`` (``out`` zeroed by the caller)."""
    for t in range(ints.shape[0]):
        decision = ints[t, DECISION]
        if decision == BID:
            if ints[t, HIGH_BID]:
                out[t, PASS_ID] = True
            for amount in range(least_bid(ints, t, rules), rules[B_MAX_BID] + 1):
                out[t, BID_BASE + amount] = True
        elif decision != OVER:
            base = HIDE_BASE if decision == HIDE_TRUMP else 0
            legal = masks[t, LEGAL]
            while legal:
                out[t, base + lowest(legal)] = True
                legal &= legal - ONE
            if may_call(ints, masks, t):
                out[t, REVEAL_ID] = True


@kernel
def call_options(ints, masks, rules, least, reveal):
    """Per table: the least bid allowed now (0 outside the auction) and whether the seat to move
    may call for the trump."""
    for t in range(ints.shape[0]):
        least[t] = least_bid(ints, t, rules) if ints[t, DECISION] == BID else 0
        reveal[t] = may_call(ints, masks, t)


@njit(cache=True, inline="always")
def _random_action(ints, masks, t, uniform, rules):
    """The ``floor(uniform * count)``-th legal action in id order (cards, the call for the
    trump, hides; a pass, then bids low to high), or -1 where the hand is over."""
    decision = ints[t, DECISION]
    if decision == BID:
        least = least_bid(ints, t, rules)
        can_pass = 1 if ints[t, HIGH_BID] else 0
        k = int(uniform * (rules[B_MAX_BID] - least + 1 + can_pass))
        if k < can_pass:
            return PASS_ID
        return BID_BASE + least + k - can_pass
    if decision == OVER:
        return -1
    legal = masks[t, LEGAL]
    count = popcount(legal)
    if decision == HIDE_TRUMP:
        return HIDE_BASE + select_bit(legal, int(uniform * count))
    reveal = 1 if may_call(ints, masks, t) else 0
    k = int(uniform * (count + reveal))
    return select_bit(legal, k) if k < count else REVEAL_ID


@kernel
def random_actions(ints, masks, uniforms, rules, out):
    for t in range(ints.shape[0]):
        out[t] = _random_action(ints, masks, t, uniforms[t], rules)


@kernel
def advance(ints, masks, history, result, source, actions, uniforms, key, rules, out, stop, log, log_len):
    """Every table's next action from ``source``, applied, as ``kernels.advance`` (one compile
    of the inlined step for the checked, random and opponents' steps; ``step_keyed`` apart):
    ``GIVEN`` actions (checked; -1 leaves the table), ``DRAWN`` from ``uniforms`` (legal by
    construction; to ``out``), or keyed ones ``UNTIL`` a seat in ``stop`` is to move (logged)."""
    for t in range(ints.shape[0]):
        move = 0
        while True:
            if source == GIVEN:
                action = actions[t]
            elif source == UNTIL:
                if ints[t, DECISION] == OVER or stop[ints[t, TO_MOVE]]:
                    break
                action = _random_action(ints, masks, t, keyed_uniform(key + np.uint64(move) * STRIDE, t), rules)
                log[t, log_len[t]] = action
                log_len[t] += 1
            else:
                action = _random_action(ints, masks, t, uniforms[t], rules)
                out[t] = action
            if action >= 0:
                _apply(ints, masks, history, result, t, action, rules)
            if source != UNTIL:
                break
            move += 1


@kernel
def step_keyed(ints, masks, history, result, key, rules, out):
    """``step_random`` with table ``t``'s uniform ``keyed_uniform(key, t)``."""
    for t in range(ints.shape[0]):
        action = _random_action(ints, masks, t, keyed_uniform(key, t), rules)
        out[t] = action
        if action >= 0:
            _apply(ints, masks, history, result, t, action, rules)
