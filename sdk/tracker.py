"""Card tracking for bots: what has been played, what is still out, who is void, where the tens are.

``CardTracker.from_view(observation)`` is a pure function of one seat's observation, so it can
never drift out of step with the game: build a fresh one for every decision. Everything in it is
derived from information the seat is entitled to (``arena.engine.observation``); nothing is guessed.

Cards and sets of cards are the engine's ints and bitmasks (``arena.engine.cards``): a set of suits is a
4-bit mask (bit ``s`` for suit ``s``).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from arena.engine import NO_SUIT, claims_pile, play_key, trick_best, trump_counts_from, won_with_trumps
from arena.engine.cards import CARDS, SUIT_MASKS, TENS, Card, CardMask, Rank, Suit, cards_of, mask_of
from arena.engine.observation import Observation
from arena.engine.rules import Reveal, TrumpMethod
from arena.engine.seats import Seat, play_order
from arena.engine.trump import RevealReason
from sdk.bot import BotView

SuitSet = int
"""A set of suits as a 4-bit mask: bit ``s`` is set when suit ``s`` is in the set."""

_CARD_SETS_TRUMP = (TrumpMethod.CUT, TrumpMethod.FIRST_DISCARD)


class TenPlace(StrEnum):
    """Where one ten is, as far as this seat can tell."""

    CAPTURED_0 = "captured_0"
    """Taken by team 0 (seats 0 and 2): settled for the rest of the hand."""
    CAPTURED_1 = "captured_1"
    """Taken by team 1 (seats 1 and 3)."""
    PILE = "pile"
    """In a finished trick in the centre: the next sweep takes it."""
    TRICK = "trick"
    """Played to the trick in progress."""
    MINE = "mine"
    """In this seat's hand (or its own face-down trump card)."""
    OUT = "out"
    """Not yet seen: in another hand, a packet still to be dealt, or a face-down card."""
    NOT_IN_DECK = "not_in_deck"
    """Not part of the deck in use (never, with the decks the rules allow; kept for safety)."""


@dataclass(frozen=True, slots=True)
class CardTracker:
    """Everything a seat can deduce about the cards, at one decision.

    ``out`` is the set of cards this seat cannot see (other hands, undealt packets, a face-down
    trump it did not set). A few of them have a known holder (``known``): the revealed trump card
    returns to its owner's hand, and an ``open_random`` trump card stays in its owner's hand.
    ``voids[s]`` is the set of suits in which seat ``s`` can hold no *unknown* card: it failed to
    follow them (or asked for the trump and then played no trump). A known card can still make a
    "void" seat able to follow: use ``may_follow`` rather than ``voids`` to ask that question.

    A card the trump maker discarded face down that this seat may not see is in ``out`` too (it
    is in no hand: ``face_down_slots`` says where it lies and which suits it cannot be).
    """

    seat: Seat
    partner: Seat
    hand: CardMask
    """This seat's hand now (its face-down card, if any, is in ``own_hidden``)."""
    own_hidden: Card | None
    """This seat's own face-down trump card while it is down."""
    played: CardMask
    """Every card played so far, finished tricks and the trick in progress."""
    trick_cards: CardMask
    """The cards of the trick in progress."""
    out: CardMask
    """Cards this seat cannot see: the other hands, packets to come, a face-down card not its own."""
    known: tuple[CardMask, CardMask, CardMask, CardMask]
    """Cards of ``out`` whose holder is known, per seat."""
    voids: tuple[SuitSet, SuitSet, SuitSet, SuitSet]
    """Per seat, the suits in which it holds no unknown card (shown by a failure to follow)."""
    early_voids: tuple[SuitSet, SuitSet, SuitSet, SuitSet]
    """Cut trump only: suits shown void before the deal was completed. They bind only the cards
    of the first packet (the later packets may bring those suits), so they are not in ``voids``."""
    hand_sizes: tuple[int, int, int, int]
    cards_to_come: tuple[int, int, int, int]
    hidden_holder: Seat | None
    """The seat whose face-down trump is still down (the first player), if any."""
    hidden_suits: SuitSet
    """The suits the face-down card may be of, as far as this seat can tell (0 when none is
    down). Its holder knows it; under ``reveal: on_play`` the others learn from every finished
    trick (its winner must be the winner with that suit as trumps: ``arena.engine.trick``) and
    from the holder's failures to follow (the face-down card counts as part of its hand)."""
    trump: Suit | None
    """The trump suit as this seat knows it (``None`` while hidden from it, or not yet set). An
    on_play trump that the trick winners pin down to one suit is known."""
    trump_in_force: Suit | None
    """The suit that counts as trumps for a card played now, as this seat knows it (an on_play
    trump it cannot pin down is ``None``: the trick in progress is then judged without one)."""
    trump_may_be_set_now: bool
    """Cut / first-discard trump not set yet: the next card off the led suit sets it and wins."""
    pile: CardMask
    """Cards of finished tricks in the centre, taken by nobody yet (sweep capture)."""
    pile_tricks: int
    streak_holder: Seat | None
    """The player who won the last trick and would take the pile by winning this one too."""
    sweep_on_win: bool
    """True when ``streak_holder`` winning the trick in progress takes the pile (the Court Piece
    limits forbid some claims)."""
    captured: tuple[CardMask, CardMask]
    trick_number: int
    tricks_per_hand: int
    last_trick: bool
    """The trick in progress is the last: its winner takes it and whatever is in the centre."""
    leader: Seat | None
    """Who led the trick in progress (``None`` before its first card)."""
    led: Suit | None
    current_trick: tuple[tuple[Seat, Card | None], ...]
    """The plays of the trick in progress (``None``: a face-down card this seat may not see)."""
    winning: tuple[Seat, Card] | None
    """Who is winning the trick in progress, with which card (the engine's rules, including a
    trump-suit card played before an on-request reveal not counting as a trump)."""
    best_key: int
    """The winning card's key (``arena.engine.play_key``: ``rank``, ``rank + TRUMP_BONUS`` for a
    trump); -1 if no card."""
    to_play: tuple[Seat, ...]
    """The seats still to play to the trick in progress after the seat to move, in order."""
    face_down_slots: tuple[SuitSet, ...] = ()
    """One entry per face-down discard this seat may not see, in the order played: the suits it
    cannot be. The maker played it because it could not follow, out of its hand at that moment,
    so it is of neither the led suit nor any suit the maker had already shown void in."""

    # --------------------------------------------------------------- building
    @classmethod
    def from_view(cls, view: Observation | BotView) -> CardTracker:
        """Deduce everything from one seat's observation (a ``BotView`` is unwrapped)."""
        obs = view.observation if isinstance(view, BotView) else view
        rules = obs.rules
        seat = obs.seat
        hand = mask_of(obs.hand)
        own_hidden = obs.hidden_trump_card if obs.hidden_trump_holder == seat else None
        trick_cards = mask_of(c for _, c in obs.current_trick if c is not None)
        played = trick_cards
        for trick in obs.tricks:
            played |= mask_of(c for c in trick.cards if c is not None)
        out = rules.deck_mask & ~hand & ~played
        if own_hidden is not None:
            out &= ~(1 << own_hidden)

        known = [0, 0, 0, 0]
        setting = obs.trump_setting
        if setting is not None and setting.card is not None and setting.seat is not None and out >> setting.card & 1:
            known[setting.seat] |= 1 << setting.card

        voids, early, face_down_slots = _voids(obs)
        hidden_suits = _hidden_suits(obs, voids)
        trump, active = obs.trump, obs.trump_in_force
        if rules.reveal is Reveal.ON_PLAY and active is None and hidden_suits.bit_count() == 1:
            trump = active = Suit(hidden_suits.bit_length() - 1)  # the winners leave one suit
        lead = obs.current_trick[0][1] if obs.current_trick else None
        led = lead.suit if lead is not None else None
        winner, best = _winning(obs, active)
        direction = rules.direction
        to_move = obs.to_move
        if obs.current_trick and to_move is not None:
            leader = obs.current_trick[0][0]
            order = play_order(leader, direction)
            to_play = order[len(obs.current_trick) + 1:]
        elif to_move is not None:
            to_play = play_order(to_move, direction)[1:]
        else:
            to_play = ()
        number = obs.trick_number
        last = number == rules.hand_size
        return cls(
            seat=seat,
            partner=seat ^ 2,
            hand=hand,
            own_hidden=own_hidden,
            played=played,
            trick_cards=trick_cards,
            out=out,
            known=(known[0], known[1], known[2], known[3]),
            voids=voids,
            early_voids=early,
            hand_sizes=obs.hand_sizes,
            cards_to_come=obs.cards_to_come,
            hidden_holder=obs.hidden_trump_holder,
            hidden_suits=hidden_suits,
            trump=trump,
            trump_in_force=active,
            trump_may_be_set_now=(rules.trump in _CARD_SETS_TRUMP and setting is None and obs.result is None),
            pile=mask_of(obs.pile),
            pile_tricks=obs.pile_tricks,
            streak_holder=obs.streak_holder,
            sweep_on_win=obs.streak_holder is not None and _sweep_allowed(obs),
            captured=(mask_of(obs.captured[0]), mask_of(obs.captured[1])),
            trick_number=number,
            tricks_per_hand=rules.hand_size,
            last_trick=last,
            leader=obs.current_trick[0][0] if obs.current_trick else None,
            led=led,
            current_trick=obs.current_trick,
            winning=winner,
            best_key=best,
            to_play=to_play,
            face_down_slots=face_down_slots,
        )

    # --------------------------------------------------------------- queries
    @property
    def unknown(self) -> CardMask:
        """Cards out whose place this seat does not know (what a sampler deals)."""
        k = self.known
        return self.out & ~(k[0] | k[1] | k[2] | k[3])

    @property
    def out_counts(self) -> tuple[int, int, int, int]:
        """How many cards of each suit this seat has not seen."""
        out = self.out
        return (
            (out & SUIT_MASKS[0]).bit_count(), (out & SUIT_MASKS[1]).bit_count(),
            (out & SUIT_MASKS[2]).bit_count(), (out & SUIT_MASKS[3]).bit_count(),
        )

    def out_of(self, suit: int) -> CardMask:
        """The cards of ``suit`` still out."""
        return self.out & SUIT_MASKS[suit]

    def top_out(self, suit: int) -> Card | None:
        """The highest card of ``suit`` still out (``None`` if every card of it is seen)."""
        bits = self.out & SUIT_MASKS[suit]
        return CARDS[bits.bit_length() - 1] if bits else None

    def is_master(self, card: int) -> bool:
        """True when no card still out of ``card``'s suit ranks above it (a sure winner of its
        suit; a trump can still beat it unless it is a trump itself)."""
        above = self.out & SUIT_MASKS[card // 13] & ~((2 << card) - 1)
        return not above

    def higher_out(self, card: int) -> CardMask:
        """Cards out of ``card``'s suit that rank above it."""
        return self.out & SUIT_MASKS[card // 13] & ~((2 << card) - 1)

    def holder_of(self, card: int) -> Seat | None:
        """The seat known to hold ``card`` (this seat for its own cards), else ``None``."""
        if (self.hand >> card & 1) or card == self.own_hidden:
            return self.seat
        for s in range(4):
            if self.known[s] >> card & 1:
                return s
        return None

    def void(self, seat: Seat, suit: int) -> bool:
        """``seat`` has shown it holds no unknown card of ``suit``."""
        return bool(self.voids[seat] >> suit & 1)

    def may_follow(self, seat: Seat, suit: int) -> bool:
        """``seat`` may still hold a card of ``suit`` (false when it cannot)."""
        if seat == self.seat:
            return bool(self.hand & SUIT_MASKS[suit])
        if self.known[seat] & SUIT_MASKS[suit]:
            return True
        return not self.void(seat, suit) and bool(self.unknown & SUIT_MASKS[suit])

    def ten_place(self, suit: int) -> TenPlace:
        """Where the ten of ``suit`` is."""
        ten = suit * 13 + Rank.TEN
        bit = 1 << ten
        if self.captured[0] & bit:
            return TenPlace.CAPTURED_0
        if self.captured[1] & bit:
            return TenPlace.CAPTURED_1
        if self.pile & bit:
            return TenPlace.PILE
        if self.trick_cards & bit:
            return TenPlace.TRICK
        if self.hand & bit or ten == self.own_hidden:
            return TenPlace.MINE
        if self.out & bit:
            return TenPlace.OUT
        return TenPlace.NOT_IN_DECK

    @property
    def tens(self) -> dict[Suit, TenPlace]:
        """Where each ten is, by suit."""
        return {suit: self.ten_place(suit) for suit in Suit}

    @property
    def tens_captured(self) -> tuple[int, int]:
        return ((self.captured[0] & TENS).bit_count(), (self.captured[1] & TENS).bit_count())

    @property
    def tens_at_stake(self) -> int:
        """Tens in the centre pile and the trick in progress: what the next sweep may take."""
        return ((self.pile | self.trick_cards) & TENS).bit_count()

    def play_key(self, card: int) -> int:
        """The key ``card`` would get if the seat to move played it now (-1: it cannot win)."""
        active = NO_SUIT if self.trump_in_force is None else int(self.trump_in_force)
        led = NO_SUIT if self.led is None else int(self.led)
        return play_key(card, led, active, self.trump_may_be_set_now)

    def beats_now(self, card: int) -> bool:
        """Playing ``card`` now would make it the winning card of the trick so far."""
        return self.play_key(card) > self.best_key

    def cards(self, mask: CardMask) -> tuple[Card, ...]:
        """Shortcut for ``arena.engine.cards.cards_of``."""
        return cards_of(mask)


PerSeat = tuple[int, int, int, int]


def _voids(obs: Observation) -> tuple[PerSeat, PerSeat, tuple[SuitSet, ...]]:
    """Suits each seat failed to follow, split at the completion of a cut-trump deal; and for
    each unseen face-down discard, the suits it cannot be (its player's voids at that moment,
    the led suit among them: a face-down card is played only by a maker who cannot follow)."""
    voids = [0, 0, 0, 0]
    early = [0, 0, 0, 0]
    completed_after = 0
    setting = obs.trump_setting
    if obs.rules.trump is TrumpMethod.CUT and setting is not None and not any(obs.cards_to_come):
        completed_after = setting.trick
    slots: list[SuitSet] = []
    tricks: list[tuple[int, tuple[Seat, ...], tuple[Card | None, ...]]] = [
        (t.number, t.seats, t.cards) for t in obs.tricks
    ]
    if obs.current_trick:
        tricks.append((
            len(obs.tricks) + 1,
            tuple(s for s, _ in obs.current_trick),
            tuple(c for _, c in obs.current_trick),
        ))
    for number, seats, cards in tricks:
        led = cards[0] // 13  # type: ignore[operator]  # a lead is never face down
        target = early if number <= completed_after else voids
        for seat, card in zip(seats[1:], cards[1:], strict=True):
            if card is None:
                slots.append(voids[seat] | 1 << led)
            if card is None or card // 13 != led:
                target[seat] |= 1 << led
    reveal = obs.reveal
    if reveal is not None and reveal.reason is RevealReason.REQUEST:
        # The player who asked must then play a trump if able: a non-trump shows a void.
        trump = reveal.card // 13
        for number, seats, cards in tricks:
            if number == reveal.trick and reveal.position < len(cards):
                card = cards[reveal.position]
                if seats[reveal.position] == reveal.seat and card is not None and card // 13 != trump:
                    voids[reveal.seat] |= 1 << trump
                break
    per_seat = (voids[0], voids[1], voids[2], voids[3])
    return per_seat, (early[0], early[1], early[2], early[3]), tuple(slots)


def _winning(obs: Observation, trump: Suit | None) -> tuple[tuple[Seat, Card] | None, int]:
    """The winning seat and card of the trick in progress with ``trump`` in force, and its key
    (``arena.engine.trick``)."""
    if not obs.current_trick:
        return None, -1
    active = NO_SUIT if trump is None else int(trump)
    trump_from = trump_counts_from(obs.rules, obs.reveal, len(obs.tricks) + 1)
    face_down = sum(1 << i for i in obs.current_face_down)
    cards = [0 if card is None else card for _, card in obs.current_trick]  # ignored where face down
    best = trick_best(cards, active, trump_from, face_down)
    seat, card = obs.current_trick[best & 3]
    assert card is not None, "a face-down card never wins"
    return (seat, card), best >> 2


def _hidden_suits(obs: Observation, voids: PerSeat) -> SuitSet:
    """The suits the face-down card may be of, for this seat (see ``CardTracker.hidden_suits``)."""
    holder = obs.hidden_trump_holder
    if holder is None:
        return 0
    if obs.hidden_trump_card is not None:
        return 1 << obs.hidden_trump_card.suit
    if obs.rules.reveal is not Reveal.ON_PLAY:
        return 0xF  # no trick is decided by it while it is down
    suits = 0xF & ~voids[holder]
    for trick in obs.tricks:
        # No face-down discard under on_play (maker_discard applies only to on_request); the
        # mask keeps the reading right should one ever be there.
        cards = [0 if c is None else int(c) for c in trick.cards]
        face_down = sum(1 << i for i in trick.face_down)
        position = trick.seats.index(trick.winner)
        for suit in range(4):
            if suits >> suit & 1 and trick_best(cards, suit, 0, face_down) & 3 != position:
                suits &= ~(1 << suit)
    return suits


def _sweep_allowed(obs: Observation) -> bool:
    """Whether the streak holder winning the trick in progress takes the pile."""
    last = obs.tricks[-1] if obs.tricks else None
    after = last is not None and won_with_trumps(
        obs.rules, obs.trump_setting, obs.reveal, last.number, last.seats.index(last.winner)
    )
    return claims_pile(obs.rules, obs.trick_number, after)
