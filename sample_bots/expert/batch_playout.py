"""The expert's greedy playout for a whole batch of worlds at once, on numpy arrays.

At 50 ms a move the scalar playout (``sample_bots.expert.playout``, about 150 µs a playout)
leaves the search a few dozen worlds. Here every (world, candidate) pair is a row, and each play
of the rest of the hand is one set of array operations for all rows: the legal cards, the
greedy rule (``greedy_choice``'s, card for card), the trick's best card, the sweep and the
captured cards. Two facts make that possible: every row starts from the same public position,
so all rows are at the same place in a trick at every step (only the seat to move differs, as
tricks are won by different seats); and the greedy rule works a suit at a time, so a hand is
four 13-bit rank masks and "the highest card", "the cheapest card" and "the cheapest sure
winner" are table look-ups on them.

It covers what ``lean_playout`` covers (``lean_applies``: a trump in force and face up, every
card dealt, no Court Piece limits, no early end). The hand's result is the engine's
``decide_hand``, called once per distinct outcome (rows alike in the captured tens and aces, the
tricks captured, the tricks won at the table and the first tricks' teams share one call).
``tests/sdk/test_expert_batch_playout.py`` holds it to the engine (``HandState``) on the same
deals with the same forced choices, and to ``lean_playout``'s values. A play costs about 100 µs
of array operations whatever the batch's size, so the batch beats the scalar playout 3x only
from about 128 rows (``python -m bench.expert playouts``); the expert uses it only with
``--batch`` (its sequential tests found the extra worlds not better: ``docs/bots.md``).
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from typing import TypeVar

import numpy as np
import numpy.typing as npt

from arena.engine import TENS, TRUMP_BONUS, decide_hand, majority, play_orders
from arena.engine.cards import Rank
from arena.engine.hand import HandState
from arena.engine.rules import Capture, Direction, Rules
from sample_bots.search.bot import result_reward

Ints = npt.NDArray[np.int64]
Bools = npt.NDArray[np.bool_]
Masks = TypeVar("Masks", Ints, Bools)

TEN = int(Rank.TEN)
ACE = int(Rank.ACE)
SUIT_BITS = 0x1FFF
EMPTY = 99
"""The ranking key of an empty suit: above every card's."""
SHIFTS = np.array([0, 13, 26, 39], dtype=np.int64)
SUITS = np.arange(4, dtype=np.int64)


def _tables() -> tuple[Ints, Ints, Ints]:
    """Per 13-bit rank mask: its highest rank (-1 if empty), ``ABOVE[r + 1]`` the ranks above
    ``r``, and ``CHOICE``: the ranking keys of the greedy rule's three ways to pick a card from a
    suit's cards, a key per (way, trump or not, mask) at ``way * 16384 + trump * 8192 + mask``,
    the best card of the mask's key with its rank in the low 4 bits, the lowest key best. Way 0:
    ``_cheapest`` (not a ten, not a trump, lowest rank); way 1: ``_cheapest_winner`` (not a
    trump, lowest rank); way 2: a ten if there is one (a partner surely wins), else way 0."""
    size = 1 << 13
    high = np.full(size, -1, dtype=np.int64)
    low = np.full(size, 13, dtype=np.int64)
    for mask in range(1, size):
        high[mask] = mask.bit_length() - 1
        low[mask] = (mask & -mask).bit_length() - 1
    masks = np.arange(size, dtype=np.int64)
    not_ten = masks & (SUIT_BITS & ~(1 << TEN))
    has_ten = (masks >> TEN) & 1 == 1
    choice = np.empty(6 * size, dtype=np.int64)
    for trump in (0, 1):
        cheap = np.where(not_ten != 0, trump * TRUMP_BONUS + low[not_ten],
                         np.where(has_ten, 2 * TRUMP_BONUS + trump * TRUMP_BONUS + TEN, EMPTY))
        winner = np.where(masks != 0, trump * TRUMP_BONUS + low, EMPTY)
        feed = np.where(has_ten, TEN, cheap + 4 * TRUMP_BONUS)
        for way, keys in enumerate((cheap, winner, feed)):
            choice[(2 * way + trump) * size:(2 * way + trump + 1) * size] = keys
    above = np.array([SUIT_BITS] + [SUIT_BITS & ~((2 << r) - 1) for r in range(13)], dtype=np.int64)
    return high, above, choice


HIGH, ABOVE, CHOICE = _tables()


def _keys() -> Ints:
    """``play_key`` at ``trump * 208 + led * 52 + card``: a trump's rank plus 16, a card of the
    led suit its rank, else -1."""
    in_force, led, card = np.meshgrid(np.arange(4), np.arange(4), np.arange(52), indexing="ij")
    suit, rank = card // 13, card % 13
    keys: Ints = np.where(suit == in_force, rank + TRUMP_BONUS, np.where(suit == led, rank, -1)).reshape(-1)
    return keys


KEYS = _keys()
SEAT_AT = {direction: np.array([play_orders(direction)[leader][k] for leader in range(4) for k in range(4)],
                               dtype=np.int64) for direction in Direction}
"""Per direction, the seat at position ``k`` of a trick ``leader`` leads, at ``leader * 4 + k``."""
CHEAPEST, CHEAPEST_WINNER, FEED = 0, 1, 2
"""The ways of ``CHOICE``."""
_TENS = np.int64(TENS)


def _mask(flags: Bools) -> Ints:
    """All ones where ``flags``, else zeros: ``x & _mask(f)`` is ``x`` where ``f``, else 0."""
    return -flags.astype(np.int64)


class BatchHand:
    """The rest of one hand in every row at once: rows share the public position of ``start``
    and differ in the hands. ``legal()`` and ``greedy()`` give each row's cards as (suit, rank)
    arrays; ``play`` plays one card in every row; ``values`` scores the finished rows.

    The hands are kept in the current trick's play order (``h[row, position, suit]``, rotated
    to the winner at each trick's end), so the seat to move is the same column in every row."""

    def __init__(self, start: HandState, rules: Rules, hands: Ints, trumps: Ints | None = None,
                 blind: bool | Bools = False) -> None:
        rows = hands.shape[0]
        if trumps is None:
            trump = start.trump_in_force
            if trump is None:
                raise ValueError("the batched playout needs a trump in force")
            trumps = np.full(rows, int(trump), dtype=np.int64)
        self.rules = rules
        self.start = start
        blind_rows = np.broadcast_to(np.asarray(blind, dtype=np.bool_), (rows,))
        self.blind = bool(blind_rows.all()) if rows else False
        """Each seat judges a card safe against every card it cannot see (``greedy_choice``'s
        ``unseen``), in every row."""
        self._mixed: Bools | None = blind_rows if blind_rows.any() and not self.blind else None
        """Where only some rows are blind: which."""
        self.trump = trumps
        """Each row's trump suit (``start``'s, unless a row's is given: a trump call compared)."""
        self.rows = rows
        self.ar = np.arange(rows)
        self._ar4 = (self.ar * 4)[:, None]
        order = play_orders(rules.direction)
        self._seat_at = SEAT_AT[rules.direction]
        """``_seat_at[leader * 4 + k]``: the seat at position ``k`` of a trick ``leader`` leads."""
        self._single_trump = int(trumps[0]) if rows and bool((trumps == trumps[0]).all()) else None
        """The one trump of every row, where they share it (slices then, not per-row look-ups)."""
        self._trump_suit = np.equal(SUITS, trumps[:, None])
        self._is_trump = self._trump_suit.astype(np.int64) << 13
        self._trump_column = np.where(self._trump_suit, SUIT_BITS, 0).astype(np.int64)
        self._trump_base = trumps * 208
        self.every_trick = rules.capture is not Capture.SWEEP
        self.hand_size = rules.hand_size
        leader = start.trick_leader
        by_seat = (hands[:, :, None] >> SHIFTS) & SUIT_BITS  # [row, seat, suit] rank masks
        self.h = np.ascontiguousarray(by_seat[:, list(order[leader])])
        self.leader = np.full(rows, leader, dtype=np.int64)
        self.k = 0
        self.led = np.zeros(rows, dtype=np.int64)
        self._led_only = np.zeros((rows, 4), dtype=np.int64)
        self.best = np.zeros(rows, dtype=np.int64)
        """The trick's best card so far: ``(key + 1) << 8 | position << 6 | suit << 4 | rank``."""
        self.trick_mask = np.zeros(rows, dtype=np.int64)
        self.pile = np.full(rows, start.pile, dtype=np.int64)
        self.pile_tricks = np.full(rows, start.pile_tricks, dtype=np.int64)
        holder = start.streak_holder
        self.streak = np.full(rows, -1 if holder is None else holder, dtype=np.int64)
        self.captured = [np.full(rows, start.captured(t), dtype=np.int64) for t in (0, 1)]
        self.caught = [np.full(rows, start.captured_tricks(t), dtype=np.int64) for t in (0, 1)]
        self.winners_before = [t.winner for t in start.tricks]
        self.number = len(self.winners_before) + 1
        self.winners = np.zeros((rows, self.hand_size - len(self.winners_before)), dtype=np.int64)
        for played in start.trick_cards:  # the trick in progress: the same cards in every row
            self._place(np.full(rows, played // 13, dtype=np.int64), np.full(rows, played % 13, dtype=np.int64),
                        remove=False)
        assert start.to_move == self._seat_at[leader * 4 + self.k]

    @property
    def over(self) -> bool:
        return self.number > self.hand_size

    def seats(self) -> Ints:
        """Each row's seat to move."""
        return self._seat_at[self.leader * 4 + self.k]

    def legal(self) -> Ints:
        """Each row's legal cards for its seat to move: ``[row, suit]`` rank masks."""
        hand = self.h[:, self.k]
        if self.k == 0:
            return hand
        follow = hand[self.ar, self.led]
        legal: Ints = hand & (self._led_only | _mask(follow == 0)[:, None])
        return legal

    def play(self, suit: Ints, rank: Ints) -> None:
        """Play card (``suit``, ``rank``) for the seat to move in every row (legal: not checked)."""
        self._place(suit, rank, remove=True)

    def _place(self, suit: Ints, rank: Ints, remove: bool) -> None:
        k = self.k
        if remove:
            hand = self.h[:, k]
            hand[self.ar, suit] &= ~(np.int64(1) << rank)
        card = suit * 13 + rank
        if k == 0:
            self.led = suit
            self._led_only = np.where(suit[:, None] == SUITS, SUIT_BITS, 0)
        key = KEYS[self._trump_base + self.led * 52 + card]
        packed = ((key + 1) << 8) | (k << 6) | (suit << 4) | rank
        self.best = packed if k == 0 else np.maximum(self.best, packed)
        self.trick_mask |= np.int64(1) << card
        self.k += 1
        if self.k == 4:
            self._end_trick()

    def _end_trick(self) -> None:
        position = self._winning_position()
        winner = self._seat_at[self.leader * 4 + position]
        self.pile |= self.trick_mask
        self.pile_tricks += 1
        self.winners[:, self.number - 1 - len(self.winners_before)] = winner
        last = self.number == self.hand_size
        takes = np.full(self.rows, -1, dtype=np.int64) if self.every_trick or last else _mask(self.streak == winner)
        to_one = -(winner & 1)
        for team, side in ((0, ~to_one), (1, to_one)):
            self.captured[team] |= self.pile & takes & side
            self.caught[team] += self.pile_tricks & takes & side
        self.pile &= ~takes
        self.pile_tricks &= ~takes
        if not self.every_trick:
            self.streak = winner ^ ((-1 ^ winner) & takes)
        self.number += 1
        self.k = 0
        self.leader = winner
        self.h = self.h.reshape(-1, 4)[self._ar4 + ((position[:, None] + SUITS) & 3)]
        self.trick_mask = np.zeros(self.rows, dtype=np.int64)

    def _winning_position(self) -> Ints:
        """The position in the trick of its best card."""
        return (self.best >> 6) & 3

    # ------------------------------------------------------------------ the greedy rule
    def greedy(self) -> tuple[Ints, Ints]:
        """``greedy_choice`` in every row: take a trick that matters with the cheapest sure
        winner, give a ten to a partner who surely wins, else throw the cheapest card."""
        k, trump = self.k, self.trump
        ar = self.ar
        legal = self.legal()
        seat = self.seats()
        later = [self.h[:, j] for j in range(k + 1, 4)]
        last = self.number == self.hand_size
        streak = self.streak
        keen = (streak == seat) | ((streak >= 0) & ((streak ^ seat) & 1 == 1))
        """Sweeping with this trick, or stopping the other team's sweep."""
        if last or self.every_trick:
            keen |= True
        else:
            keen |= self.pile & _TENS != 0
        single = self._single_trump
        mixed = self._mixed
        if self.blind or mixed is not None:
            others = [j for j in range(4) if j != k]
            unseen = self.h[:, others[0]] | self.h[:, others[1]] | self.h[:, others[2]]
        if k == 0:
            # The highest card of a union is the highest of its parts: one look-up, not three.
            top = HIGH[unseen] if self.blind else HIGH[later[0] | later[1] | later[2]]
            if mixed is not None:
                top = np.where(mixed[:, None], HIGH[unseen], top)
            blocked = np.zeros((self.rows, 4), dtype=np.bool_)
            for hand in later:
                has_trump = hand[:, single] if single is not None else hand[ar, trump]
                blocked |= (hand == 0) & (has_trump != 0)[:, None]
            sure = legal & ABOVE[top + 1] & ~_mask(blocked & ~self._trump_suit)
            take = (_or_columns(sure) != 0) & keen
            return _choose(np.where(take[:, None], sure, legal), take.astype(np.int64), self._is_trump)
        led = self.led
        led_is_trump = led == trump
        if k < 3:
            follows = [hand[ar, led] for hand in later]
            trumps = [hand[:, single] if single is not None else hand[ar, trump] for hand in later]
            voids = [follow == 0 for follow in follows]
            any_void = _or_list(voids)
            if not self.blind:
                top_led = HIGH[_or_list(follows)]
                open_trumps = _mask(led_is_trump)
                top_trump = HIGH[_or_list([t & (_mask(v) | open_trumps) for t, v in zip(trumps, voids, strict=True)])]
            if self.blind or mixed is not None:
                blind_led = HIGH[unseen[ar, led]]
                blind_trump = np.where(any_void | led_is_trump,
                                       HIGH[unseen[:, single] if single is not None else unseen[ar, trump]], -1)
                if mixed is None:
                    top_led, top_trump = blind_led, blind_trump
                else:
                    top_led = np.where(mixed, blind_led, top_led)
                    top_trump = np.where(mixed, blind_trump, top_trump)
            ruffed = _or_list([v & (t != 0) for t, v in zip(trumps, voids, strict=True)]) & ~led_is_trump
        else:
            top_led = top_trump = np.full(self.rows, -1, dtype=np.int64)
            ruffed = np.zeros(self.rows, dtype=np.bool_)
        best = self.best
        best_key = (best >> 8) - 1
        best_position = (best >> 6) & 3
        best_rank = best & 15
        keen |= (self.trick_mask & _TENS != 0) | ((best_position ^ k) & 1 == 1)
        beats_led = ABOVE[np.minimum(best_key, 12) + 1] & ~_mask(ruffed) & ABOVE[top_led + 1]
        sure_led = legal[ar, led] & beats_led & _mask(~led_is_trump & (best_key < TRUMP_BONUS))
        own_trumps = legal[:, single] if single is not None else legal[ar, trump]
        sure_trump = own_trumps & ABOVE[np.maximum(best_key - TRUMP_BONUS, -1) + 1] & ABOVE[top_trump + 1]
        sure = (self._led_only & sure_led[:, None]) | (self._trump_column & sure_trump[:, None])
        take = ((sure_led | sure_trump) != 0) & keen
        way = take.astype(np.int64)
        if k >= 2:
            best_safe = np.where((best >> 4) & 3 == led, ~ruffed & (best_rank > top_led), best_rank > top_trump)
            feed = (best_position == k - 2) & best_safe
            way = np.where(feed, FEED, way)
            take &= ~feed
        return _choose(np.where(take[:, None], sure, legal), way, self._is_trump)

    def play_greedy(self, deadline: float = math.inf) -> bool:
        """Finish every row with the greedy rule; ``False`` if ``deadline`` (``time.perf_counter``)
        passed first (checked at every trick's end), the rows then unfinished."""
        while not self.over:
            suit, rank = self.greedy()
            self.play(suit, rank)
            if self.k == 0 and time.perf_counter() > deadline:
                return self.over
        return True

    # ------------------------------------------------------------------ results
    def outcome_keys(self) -> Ints:
        """Per row, what the hand's result depends on (``decide_hand``): each team's captured
        tens and aces, its tricks captured, the tricks won at the table, and which team (if one)
        won the first ``majority`` tricks."""
        tens = [_count_rank(self.captured[t], TEN) for t in (0, 1)]
        aces = [_count_rank(self.captured[t], ACE) for t in (0, 1)]
        prefix = np.array(self.winners_before, dtype=np.int64)
        teams = np.concatenate([np.broadcast_to(prefix & 1, (self.rows, len(prefix))), self.winners & 1], axis=1)
        won1 = teams.sum(axis=1)
        need = majority(self.rules)
        first = teams[:, :need]
        first_team = np.where(first.all(axis=1), 1, np.where(~first.any(axis=1), 0, 2))
        key = tens[0]
        for part, size in ((tens[1], 5), (aces[0], 5), (aces[1], 5), (self.caught[0], 16),
                           (self.caught[1], 16), (won1, 16), (first_team, 3)):
            key = key * size + part
        return key

    def results_of(self, row: int) -> tuple[list[int], list[int], list[int]]:
        """Row ``row``'s captured cards, tricks captured and trick winners, as the engine has them."""
        captured = [int(self.captured[0][row]), int(self.captured[1][row])]
        caught = [int(self.caught[0][row]), int(self.caught[1][row])]
        return captured, caught, self.winners_before + [int(w) for w in self.winners[row]]

    def values(self, team: int) -> npt.NDArray[np.float64]:
        """Each finished row's value for ``team`` (``result_reward`` of ``decide_hand``)."""
        keys, first, inverse = np.unique(self.outcome_keys(), return_index=True, return_inverse=True)
        worth = np.empty(len(keys), dtype=np.float64)
        for index, row in enumerate(first):
            captured, caught, winners = self.results_of(int(row))
            result = decide_hand(self.rules, self.start.dealer, captured, caught, winners)
            worth[index] = result_reward(self.rules, result, team)
        return worth[inverse.reshape(-1)]


def _count_rank(masks: Ints, rank: int) -> Ints:
    """How many cards of ``rank`` each 52-bit mask holds."""
    total = np.zeros(masks.shape, dtype=np.int64)
    for shift in (0, 13, 26, 39):
        total += (masks >> (shift + rank)) & 1
    return total


def _choose(cards: Ints, way: Ints, is_trump: Ints) -> tuple[Ints, Ints]:
    """Each row's best card of ``cards`` (``[row, suit]`` rank masks) the row's ``way``
    (``CHOICE``): its suit (the lowest on a tie) and rank."""
    keys = (CHOICE[cards + is_trump + (way << 14)[:, None]] << 2) | SUITS
    best = np.minimum(np.minimum(keys[:, 0], keys[:, 1]), np.minimum(keys[:, 2], keys[:, 3]))
    return best & 3, (best >> 2) & 15


def _or_columns(masks: Ints) -> Ints:
    """The union of each row's four suit masks (a column at a time: faster than a reduction
    along the row for four columns)."""
    return masks[:, 0] | masks[:, 1] | masks[:, 2] | masks[:, 3]


def _or_list(arrays: list[Masks]) -> Masks:
    """The element-wise union of ``arrays``."""
    out = arrays[0]
    for more in arrays[1:]:
        out = out | more
    return out


def hands_array(hands: Sequence[Sequence[int]]) -> Ints:
    """Rows of four 52-bit hands as an ``[row, seat]`` array."""
    return np.array(hands, dtype=np.int64).reshape(len(hands), 4)


def batch_playout(start: HandState, rules: Rules, team: int, hands: Ints, first: Sequence[int] | None = None,
                  blind: bool = False) -> npt.NDArray[np.float64]:
    """Each row's greedy playout value for ``team``: ``start``'s position with the row's
    ``hands`` (``[row, seat]`` 52-bit masks), ``first[row]`` played first if given. Where
    ``lean_applies(start, rules)``; ``blind``: ``BatchHand``'s."""
    batch = BatchHand(start, rules, hands, blind=blind)
    if first is not None:
        cards = np.asarray(first, dtype=np.int64)
        batch.play(cards // 13, cards % 13)
    batch.play_greedy()
    return batch.values(team)
