"""The search bot's greedy playout, faster: the same card at every step, on card masks.

``sample_bots.search.bot.playout`` finishes a world with a perfect-information rule of thumb;
most of a 50 ms move is spent there, in the rule (``_greedy_card``: a list of the legal cards,
an ``_unbeatable`` call per card, ``min`` with a key) and in the engine's bookkeeping. Here the
rule works a suit at a time (``greedy_choice``): within a suit a card is safe from the later
seats exactly when it is above the highest card of that suit they could legally play (and, off
trumps, when none of them can ruff), so "the sure winners" are a mask and "the cheapest" the
lowest rank of a mask.

Where the rest of the hand is plain trick play (``lean_playout``: a trump called, or cut and
dealt, in force and face up, no Court Piece limits, no early end) the tricks are played on
plain ints: follow suit, the engine's ``trick_best`` for the winner, the centre swept by a
second trick in a row (or every trick taken, direct capture), and the engine's ``decide_hand``
for the result. Elsewhere ``HandState.play`` plays the cards. ``tests/sdk/test_expert_playout.py``
holds both to the search bot's playout: the same card at every step and the same value.
"""

from __future__ import annotations

from arena.engine import decide_hand, play_orders, trick_best
from arena.engine.cards import SUIT_MASKS, TENS
from arena.engine.hand import HandState
from arena.engine.rules import Capture, Rules, SweepLimits, TrumpMethod
from sample_bots.search.bot import TEN_RANK, result_reward
from sample_bots.search.bot import playout as search_playout

TRUMP_BONUS = 16
"""A trump's key is its rank plus this (``arena.engine.trick``)."""
NOT_TENS = ((1 << 52) - 1) & ~TENS
NOBODY = -1


def playout(state: HandState, rules: Rules, team: int, blind: bool = False) -> float:
    """Finish ``state`` with the greedy perfect-information policy; its value for ``team``.
    ``blind``: each seat judges a card safe against every card it cannot see, not against the
    later seats' actual cards (``greedy_choice``'s ``unseen``)."""
    if lean_applies(state, rules):
        return lean_playout(state, rules, team, blind)
    return engine_playout(state, rules, team, blind)


def engine_playout(state: HandState, rules: Rules, team: int, blind: bool = False) -> float:
    """``playout`` on the engine's ``HandState`` (every preset): the search bot's, with this
    module's faster greedy rule."""
    return search_playout(state, rules, team, blind_greedy_card if blind else greedy_card)


def lean_applies(state: HandState, rules: Rules) -> bool:
    """The rest of the hand is plain trick play, which ``lean_playout`` knows exactly."""
    return (
        not state.is_over
        and state.legal_mask() != 0
        and rules.trump in (TrumpMethod.CALLED, TrumpMethod.CUT)
        and state.trump_in_force is not None
        and not any(state.undealt(s) for s in range(4))
        and rules.sweep_limits is SweepLimits.NONE
        and not rules.early_end
    )


def lean_playout(state: HandState, rules: Rules, team: int, blind: bool = False) -> float:
    """``engine_playout`` on plain ints, where ``lean_applies``; ``state`` is only read."""
    trump_suit = state.trump_in_force
    assert trump_suit is not None
    trump = int(trump_suit)
    order = play_orders(rules.direction)
    hands = [state.hand(s) for s in range(4)]
    trick = list(state.trick_cards)
    leader = state.trick_leader
    seat = state.to_move
    assert seat is not None
    pile, pile_tricks = state.pile, state.pile_tricks
    holder = state.streak_holder
    streak = NOBODY if holder is None else holder
    captured = [state.captured(0), state.captured(1)]
    caught = [state.captured_tricks(0), state.captured_tricks(1)]
    winners = [t.winner for t in state.tricks]
    number = len(winners) + 1
    last_trick = rules.hand_size
    every_trick = rules.capture is not Capture.SWEEP
    while True:
        hand = hands[seat]
        mask = (hand & SUIT_MASKS[trick[0] // 13]) or hand if trick else hand
        if mask & (mask - 1) == 0:
            card = mask.bit_length() - 1
        else:
            last = number == last_trick
            unseen = (hands[0] | hands[1] | hands[2] | hands[3]) ^ hand if blind else -1
            card = greedy_choice(mask, seat, trump, trick, leader, hands, order, streak, last,
                                 last or every_trick or bool(pile & TENS), unseen)
        hands[seat] = hand ^ (1 << card)
        trick.append(card)
        if len(trick) < 4:
            seat = order[seat][1]
            continue
        winner = order[leader][trick_best(trick, trump) & 3]
        a, b, c, d = trick
        pile |= (1 << a) | (1 << b) | (1 << c) | (1 << d)
        pile_tricks += 1
        winners.append(winner)
        if every_trick or number == last_trick or streak == winner:
            captured[winner & 1] |= pile
            caught[winner & 1] += pile_tricks
            pile = pile_tricks = 0
            if not every_trick:
                streak = NOBODY
        else:
            streak = winner
        if number == last_trick:
            break
        number += 1
        trick = []
        leader = seat = winner
    return result_reward(rules, decide_hand(rules, state.dealer, captured, caught, winners), team)


def greedy_card(state: HandState, mask: int, order: tuple[tuple[int, ...], ...], last_trick: int,
                every_trick: bool, blind: bool = False) -> int:
    """``greedy_choice`` for the seat to move in ``state`` (``search``'s ``_greedy_card``)."""
    seat = state.to_move
    assert seat is not None
    trump_suit = state.trump_in_force
    holder = state.streak_holder
    last = state.trick_number == last_trick
    hands = [state.hand(s) for s in range(4)]
    unseen = (hands[0] | hands[1] | hands[2] | hands[3]) & ~hands[seat] if blind else -1
    return greedy_choice(mask, seat, -1 if trump_suit is None else int(trump_suit), state.trick_cards,
                         state.trick_leader, hands, order, NOBODY if holder is None else holder, last,
                         last or every_trick or bool(state.pile & TENS), unseen)


def blind_greedy_card(state: HandState, mask: int, order: tuple[tuple[int, ...], ...], last_trick: int,
                      every_trick: bool) -> int:
    """``greedy_card`` judging safety against every card the seat cannot see."""
    return greedy_card(state, mask, order, last_trick, every_trick, blind=True)


def greedy_choice(mask: int, seat: int, trump: int, trick: list[int] | tuple[int, ...], leader: int,
                  hands: list[int], order: tuple[tuple[int, ...], ...], streak: int, last: bool,
                  at_stake: bool, unseen: int = -1) -> int:
    """Take a trick that matters with the cheapest sure winner, give a ten to a partner who
    surely wins, else throw the cheapest card. ``mask``: the legal cards; ``trump`` -1 for none;
    ``streak``: the seat that sweeps the centre with the next trick, or -1; ``at_stake``: the
    trick matters (the last one, direct capture, or tens in the centre); ``unseen`` (when not
    -1): the cards the seat cannot see, against which a card is judged safe (``_safe_above``)."""
    later = [hands[s] for s in order[seat][1: 4 - len(trick)]]
    sweeping = last or streak == seat
    against_streak = streak >= 0 and streak & 1 != seat & 1
    if not trick:
        sure = 0
        for suit in range(4):
            mine = mask & SUIT_MASKS[suit]
            if mine:
                sure |= mine & _safe_above(suit, suit, trump, later, unseen)
        if sure and (sweeping or at_stake or against_streak):
            return _cheapest_winner(sure, trump)
        return _cheapest(mask, trump)
    led = trick[0] // 13
    packed = trick_best(trick, trump)
    best, best_key = trick[packed & 3], packed >> 2
    best_seat = order[leader][packed & 3]
    if not at_stake:
        for card in trick:
            if card % 13 == TEN_RANK:
                at_stake = True
                break
    if best_seat == seat ^ 2 and (1 << best) & _safe_above(best // 13, led, trump, later, unseen):
        tens = mask & TENS
        return (tens & -tens).bit_length() - 1 if tens else _cheapest(mask, trump)
    sure = 0
    if led != trump:
        mine = mask & SUIT_MASKS[led]
        if mine and best_key < TRUMP_BONUS:
            sure |= mine & _ranks_above(led, best_key) & _safe_above(led, led, trump, later, unseen)
    if trump >= 0:
        mine = mask & SUIT_MASKS[trump]
        if mine:
            sure |= mine & _ranks_above(trump, best_key - TRUMP_BONUS) & _safe_above(trump, led, trump, later, unseen)
    if sure and (sweeping or at_stake or best_seat & 1 != seat & 1 or against_streak):
        return _cheapest_winner(sure, trump)
    return _cheapest(mask, trump)


def _ranks_above(suit: int, rank: int) -> int:
    """The cards of ``suit`` above ``rank`` (every card of it for a negative rank)."""
    if rank < 0:
        return SUIT_MASKS[suit]
    return SUIT_MASKS[suit] & ~((2 << (suit * 13 + rank)) - 1)


def _safe_above(suit: int, led: int, trump: int, later: list[int], unseen: int = -1) -> int:
    """The cards of ``suit`` no seat in ``later`` (their hands) can beat with a legal card,
    ``led`` being the led suit: those above the highest card of ``suit`` any of them may play,
    none at all off trumps when one of them, void in the led suit, holds a trump. With
    ``unseen`` (not -1), above the highest unseen card of ``suit`` where a later seat may play
    that suit (it is led, or the seat is void in the led suit): the seat knows the voids shown,
    not where each unseen card lies."""
    suit_mask = SUIT_MASKS[suit]
    if unseen >= 0:
        playable = False
        for hand in later:
            follow = hand & SUIT_MASKS[led]
            if not follow and suit != trump and trump >= 0 and hand & SUIT_MASKS[trump]:
                return 0
            playable = playable or not follow or suit == led
        threats = unseen & suit_mask if playable else 0
        return suit_mask & ~((2 << (threats.bit_length() - 1)) - 1) if threats else suit_mask
    top = -1
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
