"""The search bot's greedy playout, computed on card masks: the same card at every step, faster.

``sample_bots.search.bot.playout`` finishes a world with a perfect-information rule of thumb;
most of a 50 ms move is spent there, and most of that in the rule itself (``_greedy_card``:
a list of the legal cards, a ``_unbeatable`` call per card, ``min`` with a key), not in the
engine. Here the rule works a suit at a time: within a suit a card is safe from the later seats
exactly when it is above the highest card of that suit they could legally play (and, off trumps,
when none of them can ruff), so "the sure winners" are a mask, and "the cheapest" the lowest rank
of a mask. The rules stay the engine's (``HandState.play``). ``tests/sdk/test_expert_playout.py``
holds both policies to the same card at every step of random positions on every preset.
"""

from __future__ import annotations

from arena.engine import play_orders, trick_best
from arena.engine.cards import SUIT_MASKS, TENS
from arena.engine.hand import HandState
from arena.engine.rules import Capture, Rules
from sample_bots.search.bot import TEN_RANK, reward

TRUMP_BONUS = 16
"""A trump's key is its rank plus this (``arena.engine.trick``)."""
NOT_TENS = ((1 << 52) - 1) & ~TENS


def playout(state: HandState, rules: Rules, team: int) -> float:
    """Finish ``state`` with the greedy perfect-information policy; its value for ``team``."""
    last_trick = rules.hand_size
    order = play_orders(rules.direction)
    every_trick = rules.capture is not Capture.SWEEP
    while not state.is_over:
        mask = state.legal_mask()
        if mask == 0:  # not a card decision (cannot happen once play has started)
            state.apply(state.legal_actions()[0])
        elif mask & (mask - 1) == 0:
            state.play(mask.bit_length() - 1)
        else:
            state.play(greedy_card(state, mask, order, last_trick, every_trick))
    return reward(rules, state, team)


def greedy_card(state: HandState, mask: int, order: tuple[tuple[int, ...], ...], last_trick: int,
                every_trick: bool) -> int:
    """``sample_bots.search.bot._greedy_card``'s choice: take a trick that matters with the
    cheapest sure winner, give a ten to a partner who surely wins, else throw the cheapest card."""
    seat = state.to_move
    assert seat is not None
    trump_suit = state.trump_in_force
    trump = -1 if trump_suit is None else int(trump_suit)
    trick = state.trick_cards
    later = [state.hand(s) for s in order[seat][1: 4 - len(trick)]]
    streak = state.streak_holder
    last = state.trick_number == last_trick
    at_stake = last or every_trick or bool(state.pile & TENS)
    sweeping = last or streak == seat
    against_streak = streak is not None and streak & 1 != seat & 1
    if not trick:
        sure = 0
        for suit in range(4):
            mine = mask & SUIT_MASKS[suit]
            if mine:
                sure |= mine & _safe_above(suit, suit, trump, later)
        if sure and (sweeping or at_stake or against_streak):
            return _cheapest_winner(sure, trump)
        return _cheapest(mask, trump)
    led = trick[0] // 13
    packed = trick_best(trick, trump)
    best, best_key = trick[packed & 3], packed >> 2
    best_seat = order[state.trick_leader][packed & 3]
    if not at_stake:
        for card in trick:
            if card % 13 == TEN_RANK:
                at_stake = True
                break
    if best_seat == seat ^ 2 and (1 << best) & _safe_above(best // 13, led, trump, later):
        tens = mask & TENS
        return (tens & -tens).bit_length() - 1 if tens else _cheapest(mask, trump)
    sure = 0
    if led != trump:
        mine = mask & SUIT_MASKS[led]
        if mine and best_key < TRUMP_BONUS:
            sure |= mine & _ranks_above(led, best_key) & _safe_above(led, led, trump, later)
    if trump >= 0:
        mine = mask & SUIT_MASKS[trump]
        if mine:
            sure |= mine & _ranks_above(trump, best_key - TRUMP_BONUS) & _safe_above(trump, led, trump, later)
    if sure and (sweeping or at_stake or best_seat & 1 != seat & 1 or against_streak):
        return _cheapest_winner(sure, trump)
    return _cheapest(mask, trump)


def _ranks_above(suit: int, rank: int) -> int:
    """The cards of ``suit`` above ``rank`` (every card of it for a negative rank)."""
    if rank < 0:
        return SUIT_MASKS[suit]
    return SUIT_MASKS[suit] & ~((2 << (suit * 13 + rank)) - 1)


def _safe_above(suit: int, led: int, trump: int, later: list[int]) -> int:
    """The cards of ``suit`` no seat in ``later`` (their hands) can beat with a legal card,
    ``led`` being the led suit: those above the highest card of ``suit`` any of them may play,
    none at all off trumps when one of them, void in the led suit, holds a trump."""
    top = -1
    suit_mask = SUIT_MASKS[suit]
    for hand in later:
        follow = hand & SUIT_MASKS[led]
        if not follow and suit != trump and trump >= 0 and hand & SUIT_MASKS[trump]:
            return 0
        options = (follow or hand) & suit_mask
        if options:
            high = options.bit_length() - 1
            if high > top:
                top = high
    return suit_mask if top < 0 else suit_mask & ~((2 << top) - 1)


def _lowest_rank(cards: int) -> int:
    """The card of lowest rank in ``cards`` (the lowest suit on a tie), as ``min`` by rank picks
    from the cards in ascending order."""
    best, best_rank = -1, 13
    for suit in range(4):
        mine = cards & SUIT_MASKS[suit]
        if mine:
            card = (mine & -mine).bit_length() - 1
            rank = card - 13 * suit
            if rank < best_rank:
                best, best_rank = card, rank
    return best


def _cheapest(cards: int, trump: int) -> int:
    """The least valuable card: not a ten, not a trump, lowest rank (``search``'s ``_cheapest``)."""
    trumps = SUIT_MASKS[trump] if trump >= 0 else 0
    for group in (cards & NOT_TENS & ~trumps, cards & NOT_TENS & trumps, cards & TENS & ~trumps, cards & TENS):
        if group:
            return _lowest_rank(group)
    raise ValueError("no card to choose from")


def _cheapest_winner(cards: int, trump: int) -> int:
    """Off trumps first, then the lowest rank (``search``'s ``_cheapest_winner``)."""
    trumps = SUIT_MASKS[trump] if trump >= 0 else 0
    plain = cards & ~trumps
    return _lowest_rank(plain if plain else cards)
