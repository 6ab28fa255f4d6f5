"""One hand of Twenty-eight or Twenty-nine as a state machine: the auction, the face-down trump,
the two phases of play, the result.

Seed 003, the bidding section, and ``docs/rules.md`` ("Twenty-eight and Twenty-nine"): four cards
each, an auction on them (``auction.py``), the highest bidder puts one of its four cards face down
(its suit is trumps; the card is not part of its hand while down), four more cards each. In the
first phase trumps have no effect and the bidder may not lead the trump suit unless it holds
nothing else or the suit was led before; a player unable to follow may discard (the card cannot
win) or call for the trump to be exposed (the card goes back to the bidder's hand and the caller
must play a trump if it has one). From the trick of the exposure on, trumps win; in that trick a
card discarded before the exposure cannot win, even of the trump suit. Nobody calling in the
first seven tricks makes the hand void (option: the bidder exposes and plays it in the last).

Cards are compared by the rules' rank order (``ranking.strength``), never by ``card % 13``.
A game of its own beside ``HandState`` so the presets of the other games play exactly as before.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TypeAlias

from arena.engine.actions import HIDE, PLAY, REVEAL, HideTrump, PlayCard, RevealTrump
from arena.engine.auction import Auction, Bid, Call, Pass
from arena.engine.bidding_outcome import BiddingResult, decide_bidding_hand
from arena.engine.bidding_rules import BiddingRules, NoExposure
from arena.engine.cards import CARDS, SUIT_MASKS, Card, CardMask, Suit, cards_of, format_cards, mask_of
from arena.engine.deal import Deal
from arena.engine.errors import IllegalActionError
from arena.engine.outcome import Trick
from arena.engine.ranking import strength
from arena.engine.seats import Seat, Team, next_seats, play_order, team_of
from arena.engine.trump import RevealReason, TrumpReveal

BiddingAction: TypeAlias = Bid | Pass | HideTrump | RevealTrump | PlayCard
"""Every action of this game: a call in the auction, the face-down trump, a reveal, a card."""

TRUMP_BONUS = 16
"""Added to a trump's strength in its trick key, above every strength of the led suit."""
LAST_CALL_TRICK = 7
"""Seed 003: "If no one calls for trump to be exposed during the first seven tricks, the game
stands invalid"."""


_ACTION_TYPES = (Bid, Pass, HideTrump, RevealTrump, PlayCard)


class BiddingDecision(StrEnum):
    """The kind of decision the seat to move faces."""

    BID = "bid"
    HIDE_TRUMP = "hide_trump"
    PLAY = "play"


@dataclass(frozen=True, slots=True)
class Contract:
    """The auction's outcome: who bid what."""

    bidder: Seat
    bid: int

    @property
    def team(self) -> Team:
        return team_of(self.bidder)


class BiddingHand:
    """A Twenty-eight (or Twenty-nine) hand in progress: ``BiddingHand(rules, deal, dealer)``."""

    def __init__(self, rules: BiddingRules, deal: Deal, dealer: Seat) -> None:
        full = deal.check(rules.deal_rules)
        if dealer not in (0, 1, 2, 3):
            raise IllegalActionError(f"dealer must be a seat 0..3, not {dealer!r}")
        self._rules = rules
        self._deal = deal
        self._dealer = dealer
        self._next = next_seats(rules.direction)
        self._first: Seat = self._next[dealer]
        first_packet = rules.packets[0]
        self._hands: list[CardMask] = [mask_of(hand[:first_packet]) for hand in deal.hands]
        self._undealt: list[CardMask] = [f ^ h for f, h in zip(full, self._hands, strict=True)]
        self._auction = Auction(rules, self._first)
        self._contract: Contract | None = None
        self._decision: BiddingDecision | None = BiddingDecision.BID
        self._to_move: Seat = self._first
        self._hidden = -1
        self._trump = -1
        self._reveal: TrumpReveal | None = None
        self._must_trump = False
        self._trump_led = False
        self._leader: Seat = self._first
        self._trick: list[int] = []
        self._tricks: list[Trick] = []
        self._captured: list[CardMask] = [0, 0]
        self._history: list[tuple[Seat, BiddingAction]] = []
        self._result: BiddingResult | None = None

    # ----------------------------------------------------------------- queries
    @property
    def rules(self) -> BiddingRules:
        return self._rules

    @property
    def deal(self) -> Deal:
        return self._deal

    @property
    def dealer(self) -> Seat:
        return self._dealer

    @property
    def first_player(self) -> Seat:
        """The player after the dealer: opens the auction, leads the first trick."""
        return self._first

    @property
    def decision(self) -> BiddingDecision | None:
        return self._decision

    @property
    def to_move(self) -> Seat | None:
        return None if self._decision is None else self._to_move

    @property
    def is_over(self) -> bool:
        return self._decision is None

    @property
    def auction(self) -> Auction:
        return self._auction

    @property
    def contract(self) -> Contract | None:
        """The bidder and its bid, once the auction is over."""
        return self._contract

    def hand(self, seat: Seat) -> CardMask:
        """The cards in ``seat``'s hand now (the face-down trump is not in it while down)."""
        return self._hands[seat]

    def undealt(self, seat: Seat) -> CardMask:
        """The cards ``seat`` is still to be dealt (the second packet, before the trump is set)."""
        return self._undealt[seat]

    @property
    def hidden_card(self) -> Card | None:
        """The face-down trump while it is down (only the bidder may be told)."""
        return CARDS[self._hidden] if self._hidden >= 0 else None

    @property
    def trump(self) -> Suit | None:
        """The trump suit as set (even while face down), or ``None`` before it is set."""
        return Suit(self._trump) if self._trump >= 0 else None

    @property
    def reveal(self) -> TrumpReveal | None:
        """When and by whose call the trump was exposed (``None`` in the first phase)."""
        return self._reveal

    @property
    def must_play_trump(self) -> bool:
        """The seat to move called for the exposure in this trick and has not played yet."""
        return self._must_trump and self._decision is not None

    @property
    def trump_led(self) -> bool:
        """A trick has been led with a card of the trump suit (the bidder may then lead it)."""
        return self._trump_led

    @property
    def trick_number(self) -> int:
        return min(len(self._tricks) + 1, self._rules.hand_size)

    @property
    def trick_leader(self) -> Seat:
        return self._leader

    @property
    def current_trick(self) -> tuple[tuple[Seat, Card], ...]:
        seats = play_order(self._leader, self._rules.direction)
        return tuple((seats[i], CARDS[c]) for i, c in enumerate(self._trick))

    @property
    def tricks(self) -> tuple[Trick, ...]:
        return tuple(self._tricks)

    def captured(self, team: Team) -> CardMask:
        """The cards of the tricks ``team`` has won."""
        return self._captured[team]

    @property
    def result(self) -> BiddingResult | None:
        return self._result

    @property
    def history(self) -> tuple[tuple[Seat, BiddingAction], ...]:
        """Every decision taken so far, in order, with the seat that took it."""
        return tuple(self._history)

    # ------------------------------------------------------------ legal actions
    def legal_actions(self) -> tuple[BiddingAction, ...]:
        decision = self._decision
        if decision is BiddingDecision.BID:
            return self._auction.legal_calls()
        if decision is BiddingDecision.HIDE_TRUMP:
            return tuple(HIDE[c] for c in cards_of(self._hands[self._to_move]))
        if decision is BiddingDecision.PLAY:
            plays = tuple(PLAY[c] for c in cards_of(self.legal_mask()))
            return (*plays, REVEAL) if self._may_call() else plays
        return ()

    def legal_mask(self) -> CardMask:
        """The cards the seat to move may play now (0 outside a play decision)."""
        if self._decision is not BiddingDecision.PLAY:
            return 0
        seat = self._to_move
        hand = self._hands[seat]
        if self._trick:
            follow = hand & SUIT_MASKS[self._trick[0] // 13]
            if follow:
                return follow
            if self._must_trump:
                return (hand & SUIT_MASKS[self._trump]) or hand
            return hand
        if self._hidden >= 0 and seat == self._bidder() and not self._trump_led:
            # First phase: the bidder may not lead trumps unless it holds nothing else.
            return (hand & ~SUIT_MASKS[self._trump]) or hand
        return hand

    @property
    def may_call(self) -> bool:
        """Whether the seat to move may call for the face-down trump now (``REVEAL`` is legal)."""
        return self._decision is BiddingDecision.PLAY and self._may_call()

    def _may_call(self) -> bool:
        """Whether the seat to move may call for the face-down trump: while it is down, when it
        cannot follow the led suit; or the bidder left with nothing but the face-down card
        (``no_exposure: last_trick``)."""
        if self._hidden < 0:
            return False
        hand = self._hands[self._to_move]
        if not hand:
            return True
        return bool(self._trick) and not hand & SUIT_MASKS[self._trick[0] // 13]

    def _bidder(self) -> Seat:
        return self._contract.bidder if self._contract is not None else -1

    # ------------------------------------------------------------------ apply
    def apply(self, action: BiddingAction) -> None:
        """Take ``action`` for the seat to move; an illegal one is explained and changes nothing."""
        decision = self._decision
        if decision is None:
            raise IllegalActionError(f"cannot {action}: the hand is over")
        if action not in self.legal_actions():
            raise IllegalActionError(self._why_not(action))
        seat = self._to_move
        self._history.append((seat, action))
        if isinstance(action, Bid | Pass):
            self._call(action)
        elif isinstance(action, HideTrump):
            self._hide(seat, action.card)
        elif isinstance(action, RevealTrump):
            self._expose(seat)
        else:
            self._play(seat, action.card)

    def play(self, card: int) -> None:
        """Play ``card`` for the seat to move: the fast path of ``apply(PLAY[card])`` (same
        checks, same reasons, without building every legal action)."""
        if self._decision is not BiddingDecision.PLAY or not 0 <= card < 52 or not self.legal_mask() >> card & 1:
            self.apply(PLAY[card] if 0 <= card < 52 else card)  # type: ignore[arg-type]  # raises with the reason
            return
        seat = self._to_move
        self._history.append((seat, PLAY[card]))
        self._play(seat, card)

    def _why_not(self, action: BiddingAction) -> str:
        seat = self._to_move
        decision = self._decision
        if not isinstance(action, _ACTION_TYPES):
            return f"{action!r} is not an action of this game (a bid, a pass, hide, reveal or play)"
        if isinstance(action, Bid | Pass):
            if decision is not BiddingDecision.BID:
                return f"cannot {action}: the auction is over"
            return self._auction_reason(action)
        if decision is BiddingDecision.BID:
            return f"seat {seat} must bid or pass, not {action}"
        if isinstance(action, HideTrump):
            if decision is not BiddingDecision.HIDE_TRUMP:
                return f"cannot {action}: the trump is already set"
            return f"cannot {action}: seat {seat} holds {format_cards(self._hands[seat])}"
        if decision is BiddingDecision.HIDE_TRUMP:
            return f"seat {seat} must put a trump card face down, not {action}"
        if isinstance(action, RevealTrump):
            if self._hidden < 0:
                return "cannot reveal: the trump is already exposed"
            return f"cannot reveal: seat {seat} can follow suit or is leading"
        card = action.card
        if action.face_down:
            return f"cannot {action}: no card is played face down in this game"
        hand = self._hands[seat]
        if not hand >> card & 1:
            return f"cannot play {card}: seat {seat} does not hold it"
        if self._trick:
            led = Suit(self._trick[0] // 13)
            if hand & SUIT_MASKS[led]:
                return f"cannot play {card}: seat {seat} must follow suit ({led})"
            return f"cannot play {card}: seat {seat} called for the trump and must play one ({self.trump})"
        return f"cannot lead {card}: the bidder may not lead trumps before they are exposed"

    def _auction_reason(self, call: Call) -> str:
        try:
            self._auction.after(call)
        except IllegalActionError as exc:
            return str(exc)
        return f"cannot {call} now"

    def _call(self, call: Call) -> None:
        self._auction = self._auction.after(call)
        speaker = self._auction.to_speak
        if speaker is not None:
            self._to_move = speaker
            return
        high = self._auction.high
        assert high is not None  # the opener must bid, so an auction that is over has a bid
        self._contract = Contract(*high)
        self._decision = BiddingDecision.HIDE_TRUMP
        self._to_move = high[0]

    def _hide(self, seat: Seat, card: Card) -> None:
        self._hidden = card
        self._trump = card // 13
        self._hands[seat] ^= 1 << card
        for s in range(4):  # the remaining cards are dealt
            self._hands[s] |= self._undealt[s]
            self._undealt[s] = 0
        self._decision = BiddingDecision.PLAY
        self._to_move = self._leader = self._first

    def _expose(self, seat: Seat) -> None:
        card = self._hidden
        reason = RevealReason.REQUEST if self._hands[seat] else RevealReason.LAST_CARD
        self._reveal = TrumpReveal(len(self._tricks) + 1, len(self._trick), seat, CARDS[card], reason)
        self._hands[self._bidder()] |= 1 << card
        self._hidden = -1
        self._must_trump = True

    def _play(self, seat: Seat, card: int) -> None:
        self._hands[seat] ^= 1 << card
        self._must_trump = False
        if not self._trick and card // 13 == self._trump:
            self._trump_led = True
        self._trick.append(card)
        if len(self._trick) == 4:
            self._finish_trick()
        else:
            self._to_move = self._next[seat]

    def _finish_trick(self) -> None:
        number = len(self._tricks) + 1
        cards = self._trick
        seats = play_order(self._leader, self._rules.direction)
        position = max(range(4), key=lambda i: self._key(cards, i))
        winner = seats[position]
        team = team_of(winner)
        self._captured[team] |= mask_of(cards)
        self._tricks.append(Trick(number, self._leader, seats, tuple(CARDS[c] for c in cards), winner, team, 1))
        self._trick = []
        self._leader = self._to_move = winner
        n_tricks = self._rules.hand_size
        void = number == LAST_CALL_TRICK and self._hidden >= 0 and self._rules.no_exposure is NoExposure.VOID
        if number == n_tricks or void:
            self._decision = None
            contract = self._contract
            assert contract is not None  # play starts only after the auction
            last = team if number == n_tricks else None
            captured = (self._captured[0], self._captured[1])
            self._result = decide_bidding_hand(
                self._rules, contract.bidder, contract.bid, captured, last, number, void=void
            )

    def _key(self, cards: list[int], position: int) -> int:
        """How the card at ``position`` of the trick ``cards`` (in play order) ranks in it, as
        the trick stands: a trump in force gets its strength plus ``TRUMP_BONUS``, a card of the
        led suit its strength, any other card -1 (it cannot win). A trump is in force from the
        card after the exposure call on (from the start of every later trick); a discard before
        it cannot win even if it is of the trump suit."""
        card = cards[position]
        suit = card // 13
        led = cards[0] // 13
        reveal = self._reveal
        trick = len(self._tricks) + 1
        in_force = reveal is not None and (reveal.trick < trick or position >= reveal.position)
        if in_force and suit == self._trump != led:
            return strength(self._rules.rank_order, card) + TRUMP_BONUS
        if suit == led:
            return strength(self._rules.rank_order, card)
        return -1

    def clone(self) -> BiddingHand:
        """An independent copy (for search and tests)."""
        other = BiddingHand.__new__(BiddingHand)
        other.__dict__.update(self.__dict__)
        other._hands = self._hands[:]
        other._undealt = self._undealt[:]
        other._trick = self._trick[:]
        other._tricks = self._tricks[:]
        other._captured = self._captured[:]
        other._history = self._history[:]
        return other


def new_hand(rules: BiddingRules, seed: int, dealer: Seat) -> BiddingHand:
    """A hand from a seeded deal of the rules' 32-card pack."""
    return BiddingHand(rules, Deal.from_seed(rules.deal_rules, seed), dealer)
