"""The ``Bot`` base class: one method per decision kind, typed views in, typed actions out."""

from __future__ import annotations

import abc
import random
from dataclasses import dataclass

from arena.contract.messages import BiddingHandEnd, HandEnd, MatchEnd, MatchStart
from arena.engine.actions import (
    CALL,
    DECLINE,
    DOWN,
    HIDE,
    PLAY,
    REVEAL,
    Action,
    CallTrump,
    DeclineTrump,
    HideTrump,
    PlayCard,
    RevealTrump,
)
from arena.engine.auction import BID, PASS, Bid
from arena.engine.bidding_hand import BiddingAction, BiddingDecision
from arena.engine.bidding_observation import BiddingObservation
from arena.engine.bidding_rules import BiddingRules
from arena.engine.cards import Card, Suit
from arena.engine.hand import Decision
from arena.engine.observation import Observation
from arena.engine.ranking import strength


@dataclass(frozen=True, slots=True)
class BotView:
    """What a bot gets for a decision: the seat's observation plus its clock.

    ``observation`` is exactly the engine's per-seat view (``arena.engine.observation``); the
    shortcuts below save typing for the common questions.
    """

    observation: Observation
    per_move: float
    bank_left: float

    @property
    def seat(self) -> int:
        return self.observation.seat

    @property
    def hand(self) -> tuple[Card, ...]:
        return self.observation.hand

    @property
    def legal_cards(self) -> tuple[Card, ...]:
        """Cards that may be played (or set face down as the trump) now, lowest suit and rank
        first. A card that may also be discarded face down is listed once (``face_down_cards``)."""
        return tuple(
            a.card for a in self.observation.legal_actions
            if isinstance(a, HideTrump) or (isinstance(a, PlayCard) and not a.face_down)
        )

    @property
    def face_down_cards(self) -> tuple[Card, ...]:
        """Cards this seat may discard face down now (the trump maker unable to follow, under
        ``maker_discard: face_down``); empty otherwise."""
        return tuple(a.card for a in self.observation.legal_actions if isinstance(a, PlayCard) and a.face_down)

    def unseen_if_allowed(self, card: Card) -> Card | PlayCard:
        """``card`` face down where that is legal, else ``card``. Such a discard cannot win
        whether it is seen or not (it is off the led suit and no trump counts while the trump is
        down), so playing it unseen only keeps the trump suit from the other seats."""
        action = DOWN[card]
        return action if action in self.observation.legal_actions else card

    @property
    def may_decline(self) -> bool:
        """True when the caller may decline to choose trumps on its first five cards (seed 003:
        ``trump_card: later`` or ``decline: second_packet``); ``call_trump`` may then return
        ``DECLINE``, and a card of its later packets, turned up for all, sets trumps."""
        return DECLINE in self.observation.legal_actions

    @property
    def may_reveal(self) -> bool:
        """True when asking for (or showing) the face-down trump is allowed now."""
        return REVEAL in self.observation.legal_actions


@dataclass(frozen=True, slots=True)
class BiddingView:
    """What a bot gets for a decision of a bidding game (Twenty-eight, Twenty-nine; protocol
    1.6): the seat's ``BiddingObservation`` plus its clock, with shortcuts."""

    observation: BiddingObservation
    per_move: float
    bank_left: float

    @property
    def seat(self) -> int:
        return self.observation.seat

    @property
    def rules(self) -> BiddingRules:
        return self.observation.rules

    @property
    def hand(self) -> tuple[Card, ...]:
        return self.observation.hand

    @property
    def legal_bids(self) -> tuple[int, ...]:
        """The amounts this seat may bid now, lowest first (empty outside the auction)."""
        return tuple(a.amount for a in self.observation.legal_actions if isinstance(a, Bid))

    @property
    def may_pass(self) -> bool:
        """False for the auction's opener, who must bid at least the minimum."""
        return PASS in self.observation.legal_actions

    @property
    def legal_cards(self) -> tuple[Card, ...]:
        """Cards that may be played (or, for the bidder, put face down as the trump) now."""
        return tuple(a.card for a in self.observation.legal_actions if isinstance(a, PlayCard | HideTrump))

    @property
    def may_call_for_trump(self) -> bool:
        """True when this seat may call for the face-down trump to be exposed (it cannot follow
        suit while the trump is down); ``play_bidding`` may then return ``REVEAL``."""
        return REVEAL in self.observation.legal_actions

    def strength(self, card: Card) -> int:
        """How high ``card`` ranks in its suit under these rules (J 9 A 10 K Q 8 7: 12 for the jack)."""
        return strength(self.rules.rank_order, card)


class Bot(abc.ABC):
    """Subclass it and implement ``play``; ``call_trump`` and ``hide_trump`` have sensible
    defaults (the longest suit of the cards held then). Exceptions are reported to the
    referee as a crash of this decision, never swallowed silently."""

    name: str = "bot"

    def on_match_start(self, start: MatchStart) -> None:
        """Called once before the first hand; ``start.seat`` and ``start.rules`` are here, and
        ``start.seat_seed`` for the bot's own randomness (see ``seeded_rng``)."""

    def call_trump(self, view: BotView) -> Suit | DeclineTrump:
        """Name trumps after seeing the first five cards (called-trump rules), or return
        ``DECLINE`` where ``view.may_decline`` (the default never declines)."""
        return longest_suit(view.hand)

    def hide_trump(self, view: BotView) -> Card:
        """Choose a card of ``view.hand`` to put face down (the first five, or the whole hand
        under ``hide_from: full_hand``); its suit is trumps. Never asked under ``hidden_blind``:
        the card is drawn unseen, and ``observation.hidden_trump_card`` stays empty even for its
        holder until it is revealed."""
        suit = longest_suit(view.hand)
        return max((c for c in view.hand if c.suit == suit), key=lambda c: c.rank)

    @abc.abstractmethod
    def play(self, view: BotView) -> Card | PlayCard | RevealTrump:
        """Play a card from ``view.legal_cards`` (or return ``REVEAL`` when ``view.may_reveal``,
        or ``DOWN[card]`` for a card of ``view.face_down_cards``)."""

    def on_hand_end(self, end: HandEnd) -> None:
        """Called after each hand with its result and all four hands."""

    # ------------------------------------------------ bidding games (protocol 1.6)
    def bid(self, view: BiddingView) -> int | None:
        """Bid an amount of ``view.legal_bids``, or ``None`` to pass (only if ``view.may_pass``:
        the opener must bid). The default passes where it may, else bids the least."""
        return None if view.may_pass else view.legal_bids[0]

    def set_trump(self, view: BiddingView) -> Card:
        """As the highest bidder, choose the card of ``view.hand`` (your first four) to put face
        down; its suit is trumps. The default: the highest card of the longest suit."""
        suit = longest_suit(view.hand)
        return max((c for c in view.hand if c.suit == suit), key=view.strength)

    def play_bidding(self, view: BiddingView) -> Card | RevealTrump:
        """Play a card of ``view.legal_cards``, or return ``REVEAL`` when
        ``view.may_call_for_trump`` to call for the trump (then a new decision follows). The
        default plays the lowest legal card by the rules' rank order."""
        return min(view.legal_cards, key=lambda c: (view.strength(c), c.suit))

    def on_bidding_hand_end(self, end: BiddingHandEnd) -> None:
        """Called after each hand of a bidding game with its result and all four hands."""

    def decide_bidding(self, view: BiddingView) -> BiddingAction:
        """Dispatch a bidding game's decision to ``bid``, ``set_trump`` or ``play_bidding``."""
        decision = view.observation.decision
        if decision is BiddingDecision.BID:
            amount = self.bid(view)
            return PASS if amount is None else BID[amount]
        if decision is BiddingDecision.HIDE_TRUMP:
            return HIDE[self.set_trump(view)]
        answer = self.play_bidding(view)
        if isinstance(answer, RevealTrump):
            return REVEAL
        return PLAY[answer]

    def on_match_end(self, end: MatchEnd) -> None:
        """Called once when the match is over."""

    def decide(self, view: BotView) -> Action:
        """Dispatch to the method for this decision and turn its answer into an action."""
        decision = view.observation.decision
        if decision is Decision.CALL_TRUMP:
            call = self.call_trump(view)
            return DECLINE if isinstance(call, DeclineTrump) else CALL[Suit(call)]
        if decision is Decision.HIDE_TRUMP:
            return HIDE[self.hide_trump(view)]
        answer = self.play(view)
        if isinstance(answer, RevealTrump):
            return REVEAL
        if isinstance(answer, PlayCard | CallTrump | HideTrump):
            return answer
        return PLAY[answer]


class DelegatingBot(Bot):
    """Another bot's notifications (``inner``), for a wrapper that answers every decision in its own
    ``decide``, mostly by asking ``inner``: to change its timing, say, or to judge its choices."""

    def __init__(self, inner: Bot) -> None:
        self.inner = inner

    def on_match_start(self, start: MatchStart) -> None:
        self.inner.on_match_start(start)

    def on_hand_end(self, end: HandEnd) -> None:
        self.inner.on_hand_end(end)

    def on_match_end(self, end: MatchEnd) -> None:
        self.inner.on_match_end(end)

    def play(self, view: BotView) -> Card | PlayCard | RevealTrump:
        raise AssertionError("decide() answers every decision")


def seeded_rng(start: MatchStart, salt: int | str = 0) -> random.Random:
    """A random stream for this seat in this match, from ``start.seat_seed`` (and ``salt``, the
    bot's own seed): the same match seed gives the same stream, so a bot drawing on it plays a
    repeatable match. A referee before protocol 1.1 sends no seat seed: then the match id and
    the seat make the stream (repeatable only with the same match id)."""
    if start.seat_seed:
        return random.Random(f"{salt}/seat-seed/{start.seat_seed}")
    return random.Random(f"{salt}/{start.match_id}/{start.seat}")


def longest_suit(cards: tuple[Card, ...]) -> Suit:
    """The suit with most cards, ties broken by the higher total rank."""
    def strength(suit: Suit) -> tuple[int, int]:
        in_suit = [c for c in cards if c.suit == suit]
        return len(in_suit), sum(int(c.rank) for c in in_suit)
    return max(Suit, key=strength)
