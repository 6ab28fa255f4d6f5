"""One hand as a state machine: whose turn, which decision, the legal actions, apply an action.

The base entry point ``apply`` validates and explains an illegal action; the rules live in the
private ``_play``/``_finish_trick`` methods. Hot values are ints and bitmasks so random
playouts and search run on this same code (there is no second, faster copy of the rules).

Who wins a trick and whether the win claims the centre are decided by ``arena.engine.trick``,
the functions bots call too. ``HandState.restore`` rebuilds a state from public facts plus a
placement of the unseen cards (how a search bot imagines the hands it cannot see).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

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
)
from arena.engine.cards import CARDS, SUIT_MASKS, Card, CardMask, Suit, cards_of, format_cards, mask_of
from arena.engine.chance import choose_index
from arena.engine.deal import Deal
from arena.engine.errors import IllegalActionError, InvalidActionError
from arena.engine.outcome import HandResult, Trick, decide_hand, majority
from arena.engine.rules import (
    Capture,
    Decline,
    HandResultRule,
    HideFrom,
    MakerDiscard,
    Reveal,
    Rules,
    SweepLimits,
    TrumpCard,
    TrumpMethod,
)
from arena.engine.seats import Seat, next_seats, play_order, play_orders
from arena.engine.trick import (
    NO_SUIT,
    best_of_four,
    claims_pile,
    trick_best,
    trump_counts_from,
    won_with_trumps,
)
from arena.engine.trump import RevealReason, TrumpReveal, TrumpSetting

NOBODY = -1


class Decision(StrEnum):
    """The kind of decision the seat to move faces."""

    CALL_TRUMP = "call_trump"
    HIDE_TRUMP = "hide_trump"
    PLAY = "play"


@dataclass(frozen=True, slots=True)
class PublicHand:
    """What every seat has seen of a hand so far: with a placement of the unseen cards, enough
    to restore a playable state (``HandState.restore``). Cards are the engine's ints."""

    rules: Rules
    dealer: Seat
    decision: Decision | None
    to_move: Seat | None
    tricks: tuple[Trick, ...]
    current_trick: tuple[tuple[Seat, Card | None], ...]
    trump_in_force: Suit | None
    trump_setting: TrumpSetting | None
    reveal: TrumpReveal | None
    pile: CardMask
    pile_tricks: int
    captured: tuple[CardMask, CardMask]
    captured_tricks: tuple[int, int]
    streak_holder: Seat | None
    """The holder as the state reports it (``None`` unless the capture is by sweep)."""
    result: HandResult | None
    current_face_down: tuple[int, ...] = ()
    """Positions of the trick in progress played face down (``Trick.face_down`` for the others)."""


_PLAY_ROWS: list[list[tuple[PlayCard, ...] | None]] = [[None] * 8192 for _ in range(4)]


def play_actions(mask: CardMask) -> tuple[PlayCard, ...]:
    """The ``PlayCard`` singletons of a mask, memoised per suit."""
    out: tuple[PlayCard, ...] = ()
    for s in range(4):
        bits = (mask >> (13 * s)) & 0x1FFF
        if bits:
            row = _PLAY_ROWS[s]
            acts = row[bits]
            if acts is None:
                acts = row[bits] = tuple(PLAY[s * 13 + r] for r in range(13) if bits >> r & 1)
            out += acts
    return out


class HandState:
    """A hand in progress. Create it with ``HandState(rules, deal, dealer)``."""

    __slots__ = (
        "_active",
        "_captured",
        "_captured_tricks",
        "_claims_need_trumps",
        "_cp_limits",
        "_deal",
        "_dealer",
        "_decision",
        "_early_end",
        "_events",
        "_face_down",
        "_first",
        "_full_hide",
        "_hands",
        "_hidden",
        "_hidden_trump",
        "_last_win_after",
        "_leader",
        "_led",
        "_legal",
        "_maker_down",
        "_method",
        "_n_tricks",
        "_next",
        "_on_play",
        "_on_request",
        "_orders",
        "_pile",
        "_pile_tricks",
        "_result",
        "_reveal",
        "_rules",
        "_setting",
        "_streak",
        "_sweep",
        "_to_move",
        "_trick",
        "_trick_values",
        "_tricks",
        "_trump",
        "_undealt",
    )

    def __init__(self, rules: Rules, deal: Deal, dealer: Seat) -> None:
        full = deal.check(rules)
        if dealer not in (0, 1, 2, 3):
            raise IllegalActionError(f"dealer must be a seat 0..3, not {dealer!r}")
        self._deal: Deal | None = deal
        self._set_table(rules, dealer)
        if self._method in _FULL_DEAL_AT_ONCE or self._full_hide:
            self._hands = full
            self._undealt = [0, 0, 0, 0]
        else:
            first_packet = rules.packets[0]
            self._hands = [mask_of(hand[:first_packet]) for hand in deal.hands]
            self._undealt = [f ^ h for f, h in zip(full, self._hands, strict=True)]
        self._trump = NO_SUIT
        self._active = NO_SUIT
        self._hidden = -1
        self._reveal: TrumpReveal | None = None
        self._setting: TrumpSetting | None = None
        self._to_move: Seat = self._first
        self._decision: Decision | None = Decision.PLAY
        self._trick: list[int] = []
        self._leader: Seat = self._first
        self._led = NO_SUIT
        self._tricks: list[_RawTrick] = []
        self._trick_values: list[Trick] = []
        self._legal: CardMask = 0
        self._pile = 0
        self._pile_tricks = 0
        self._captured = [0, 0]
        self._captured_tricks = [0, 0]
        self._streak: Seat = NOBODY
        self._last_win_after = False
        self._face_down: CardMask = 0
        """Cards played face down so far (``maker_discard: face_down``)."""
        self._events: list[tuple[int, Seat, Action]] = []
        """Decisions other than plays, with the number of cards played before each."""
        self._result: HandResult | None = None
        if self._method is TrumpMethod.CALLED:
            self._decision = Decision.CALL_TRUMP
        elif self._method is TrumpMethod.HIDDEN and rules.hidden_blind:
            self._hide_blind()
        elif self._method is TrumpMethod.HIDDEN:
            self._decision = Decision.HIDE_TRUMP
        elif self._method is TrumpMethod.OPEN_RANDOM:
            self._open_random_trump()
        self._update_legal()

    def _set_table(self, rules: Rules, dealer: Seat) -> None:
        """The facts fixed for the whole hand: the rules' switches, the seats' order."""
        self._rules = rules
        self._dealer = dealer
        self._next = next_seats(rules.direction)
        self._orders = play_orders(rules.direction)
        self._first = self._next[dealer]
        self._n_tricks = rules.hand_size
        self._method = rules.trump
        self._sweep = rules.capture is Capture.SWEEP
        self._cp_limits = rules.sweep_limits is SweepLimits.COURT_PIECE
        # Seed 003: whether a claim depends on the previous trick's win with trumps set.
        self._claims_need_trumps = self._cp_limits or self._method is TrumpMethod.FIRST_DISCARD
        self._hidden_trump = self._method is TrumpMethod.HIDDEN
        """A face-down trump (down or turned up): the reveal's rules apply. Decided once per
        hand so that play and trick scoring of the other methods never look at them."""
        self._on_request = rules.reveal is Reveal.ON_REQUEST
        self._on_play = rules.reveal is Reveal.ON_PLAY
        self._full_hide = self._method is TrumpMethod.HIDDEN and rules.hide_from is HideFrom.FULL_HAND
        self._maker_down = self._on_request and rules.maker_discard is MakerDiscard.FACE_DOWN
        self._early_end = rules.early_end and rules.hand_result is HandResultRule.SEVEN_TRICKS

    # ----------------------------------------------------------------- queries
    @property
    def rules(self) -> Rules:
        return self._rules

    @property
    def deal(self) -> Deal | None:
        """The deal this hand started from (``None`` for a resampled copy)."""
        return self._deal

    @property
    def dealer(self) -> Seat:
        return self._dealer

    @property
    def first_player(self) -> Seat:
        """The player after the dealer: dealt first, settles trumps, leads the first trick."""
        return self._first

    @property
    def to_move(self) -> Seat | None:
        return None if self._decision is None else self._to_move

    @property
    def decision(self) -> Decision | None:
        return self._decision

    @property
    def is_over(self) -> bool:
        return self._decision is None

    @property
    def result(self) -> HandResult | None:
        return self._result

    def hand(self, seat: Seat) -> CardMask:
        """The cards in ``seat``'s hand now (a face-down trump card is not in it)."""
        return self._hands[seat]

    def undealt(self, seat: Seat) -> CardMask:
        """Cards dealt to ``seat`` later in the hand (before trumps are settled)."""
        return self._undealt[seat]

    @property
    def hidden_card(self) -> Card | None:
        """The face-down trump card while it is down (only its owner may be told)."""
        return CARDS[self._hidden] if self._hidden >= 0 else None

    @property
    def trump(self) -> Suit | None:
        """The trump suit as the rules stand (even while hidden), or ``None``."""
        return Suit(self._trump) if self._trump >= 0 else None

    @property
    def trump_in_force(self) -> Suit | None:
        """The suit that counts as trumps for cards played now (public)."""
        return Suit(self._active) if self._active >= 0 else None

    @property
    def trump_setting(self) -> TrumpSetting | None:
        return self._setting

    @property
    def reveal(self) -> TrumpReveal | None:
        return self._reveal

    @property
    def face_down_cards(self) -> CardMask:
        """Cards played face down so far (only their player may see them before the hand ends)."""
        return self._face_down

    @property
    def current_face_down(self) -> tuple[int, ...]:
        """Positions of the trick in progress played face down."""
        down = self._face_down
        return tuple(i for i, c in enumerate(self._trick) if down >> c & 1) if down else ()

    @property
    def tricks(self) -> tuple[Trick, ...]:
        """The finished tricks; each ``Trick`` value is built once, when first asked for."""
        values = self._trick_values
        for index in range(len(values), len(self._tricks)):
            values.append(self._trick_value(index))
        return tuple(values)

    def _trick_value(self, index: int) -> Trick:
        leader, cards, winner, taken_by, taken = self._tricks[index]
        seats = play_order(leader, self._rules.direction)
        down = self._face_down
        face_down = tuple(i for i, c in enumerate(cards) if down >> c & 1) if down else ()
        return Trick(
            index + 1, leader, seats, tuple(CARDS[c] for c in cards), winner, taken_by, taken, face_down
        )

    @property
    def trick_number(self) -> int:
        """The 1-based number of the trick being played (or of the last one when over)."""
        return min(len(self._tricks) + 1, self._n_tricks)

    @property
    def current_trick(self) -> tuple[tuple[Seat, Card], ...]:
        seat = self._leader
        out = []
        for card in self._trick:
            out.append((seat, CARDS[card]))
            seat = self._next[seat]
        return tuple(out)

    @property
    def trick_cards(self) -> tuple[int, ...]:
        """The cards of the trick in progress as plain ints, in play order (cheap, for search)."""
        return tuple(self._trick)

    @property
    def trick_leader(self) -> Seat:
        """The seat that led (or is to lead) the trick in progress."""
        return self._leader

    @property
    def led_suit(self) -> Suit | None:
        return Suit(self._led) if self._trick else None

    @property
    def pile(self) -> CardMask:
        """Cards of finished tricks lying in the centre, taken by nobody yet."""
        return self._pile

    @property
    def pile_tricks(self) -> int:
        return self._pile_tricks

    @property
    def streak_holder(self) -> Seat | None:
        """The player who sweeps the pile by winning the next trick (sweep capture only)."""
        return self._streak if self._streak >= 0 and self._sweep else None

    def captured(self, team: int) -> CardMask:
        return self._captured[team]

    def captured_tricks(self, team: int) -> int:
        return self._captured_tricks[team]

    @property
    def history(self) -> tuple[tuple[Seat, Action], ...]:
        """Every decision taken so far, in order, with the seat that took it."""
        plays: list[tuple[Seat, Action]] = [
            (s, PLAY[c]) for t in self._tricks for s, c in zip(self._orders[t[0]], t[1], strict=True)
        ]
        plays += zip(self._orders[self._leader], map(PLAY.__getitem__, self._trick), strict=False)
        down = self._face_down
        if down:
            plays = [(s, DOWN[a.card] if down >> a.card & 1 else a) for s, a in plays]  # type: ignore[union-attr]
        out: list[tuple[Seat, Action]] = []
        done = 0
        for before, seat, action in self._events:
            out += plays[done:before]
            done = before
            out.append((seat, action))
        out += plays[done:]
        return tuple(out)

    def _plays_made(self) -> int:
        return 4 * len(self._tricks) + len(self._trick)

    @property
    def must_play_trump(self) -> bool:
        """The seat to move asked for (or made) a reveal and must play or lead a trump."""
        if not self._events or self._decision is None:
            return False
        before, _, action = self._events[-1]
        return action is REVEAL and before == self._plays_made()

    # ------------------------------------------------------------ legal actions
    def legal_mask(self) -> CardMask:
        """The cards the seat to move may play (0 outside a play decision)."""
        return self._legal

    def _update_legal(self) -> None:
        if self._decision is not Decision.PLAY:
            self._legal = 0
            return
        hand = self._hands[self._to_move]
        if self._on_play and self._hidden >= 0 and self._to_move == self._first:
            hand |= 1 << self._hidden  # seed 001: it counts as part of its holder's hand
        if self._trick:
            follow = hand & SUIT_MASKS[self._led]
            if follow and self._reveal is not None and self._to_move == self._first:
                follow = self._holder_follow(follow)
            if follow:
                self._legal = follow
                return
        if self.must_play_trump:
            self._legal = (hand & SUIT_MASKS[self._trump]) or hand
        else:
            self._legal = hand

    def legal_actions(self) -> tuple[Action, ...]:
        decision = self._decision
        if decision is Decision.PLAY:
            mask = self._legal
            led = self._led
            acts: tuple[Action, ...]
            if self._trick and mask & SUIT_MASKS[led] == mask:
                row = _PLAY_ROWS[led]
                bits = mask >> (13 * led)
                found = row[bits]
                acts = found if found is not None else play_actions(mask)
            else:
                acts = play_actions(mask)
            if self._hidden >= 0 and self._on_request:
                if self._maker_down and self._may_discard_face_down():
                    acts += tuple(DOWN[c] for c in cards_of(mask))
                if self._may_ask_reveal():
                    acts += (REVEAL,)
            return acts
        if decision is Decision.CALL_TRUMP:
            return _CALL_OR_DECLINE if self._may_decline() else CALL
        if decision is Decision.HIDE_TRUMP:
            return tuple(HIDE[c] for c in cards_of(self._hands[self._to_move]))
        return ()

    def _may_decline(self) -> bool:
        """Seed 003: the caller may decline to choose on five cards under ``trump_card: later``
        or ``decline: second_packet`` (a card of its later packets then sets trumps)."""
        rules = self._rules
        return rules.trump_card is TrumpCard.LATER or rules.decline is Decline.SECOND_PACKET

    def _may_discard_face_down(self) -> bool:
        """Seed 003: the trump maker, unable to follow and not revealing, may discard face down
        (while the trump is still down; ``maker_discard: face_down``)."""
        seat = self._to_move
        return (bool(self._trick) and seat == self._first and self._hidden >= 0
                and not self._hands[seat] & SUIT_MASKS[self._led])

    def _may_ask_reveal(self) -> bool:
        seat = self._to_move
        if not self._trick:
            return seat == self._first
        return not self._hands[seat] & SUIT_MASKS[self._led]

    # -------------------------------------------------------------- applying
    def apply(self, action: Action) -> None:
        """Apply one decision of the seat to move; an illegal one raises and changes nothing."""
        cls = action.__class__
        if cls is PlayCard:
            if action.face_down:  # type: ignore[union-attr]
                self._play_face_down(action.card)  # type: ignore[union-attr]
            else:
                self.play(action.card)  # type: ignore[union-attr]
            return
        if self._decision is None:
            raise IllegalActionError(f"{action}: the hand is over")
        if cls is CallTrump:
            self._call(action.suit)  # type: ignore[union-attr]
        elif cls is HideTrump:
            self._hide(action.card)  # type: ignore[union-attr]
        elif action is REVEAL:
            self._ask_reveal()
        elif cls is DeclineTrump:
            self._decline()
        else:
            raise InvalidActionError(f"{action!r} is not an action")

    def play(self, card: int) -> None:
        """Play ``card`` for the seat to move (the fast path of ``apply``)."""
        if card < 0 or not (self._legal >> card) & 1:
            raise IllegalActionError(self._why_not_playable(card))
        seat = self._to_move
        if self._on_play and card == self._hidden:  # the face-down trump played by its holder
            self._turn_up(seat, RevealReason.PLAYED if self._hands[seat] else RevealReason.LAST_CARD)
        self._hands[seat] ^= 1 << card
        suit = card // 13
        trick = self._trick
        played = len(trick)
        if not played:
            self._led = suit
            self._leader = seat
        elif suit != self._led and self._trump < 0 and self._method in _CARD_SETS_TRUMP:
            self._set_trump_by_card(seat, card, len(self._tricks) + 1)
        trick.append(card)
        if played == 3:
            self._finish_trick(trick)
            return
        seat = self._to_move = self._next[seat]
        hand = self._hands[seat]
        if self._hidden_trump:  # the other methods skip the reveal's rules (the default's hot path)
            if self._hidden >= 0:
                if not self._on_play:  # on_play turns it up only when its holder plays it
                    self._turn_with_hidden_trump()
                self._update_legal()
                return
            follow = hand & SUIT_MASKS[self._led]
            if follow and self._reveal is not None and seat == self._first:
                follow = self._holder_follow(follow)
            self._legal = follow or hand
            return
        self._legal = (hand & SUIT_MASKS[self._led]) or hand

    def _play_face_down(self, card: int) -> None:
        """Play ``card`` face down: legal only where ``DOWN[card]`` is among the legal actions."""
        if not (self._decision is Decision.PLAY and self._maker_down and self._may_discard_face_down()
                and 0 <= card < 52 and self._legal >> card & 1):
            what = f"play {CARDS[card]} down" if 0 <= card < 52 else f"play {card!r} down"
            raise IllegalActionError(
                f"{what}: only the trump maker, unable to follow while the trump is face down, "
                "may discard face down (maker_discard: face_down)"
            )
        self._face_down |= 1 << card
        self.play(card)

    def _finish_trick(self, trick: list[int]) -> None:
        tricks = self._tricks
        number = len(tricks) + 1
        a, b, c, d = trick
        if self._hidden_trump:  # the reveal's trick and face-down discards change who wins
            reveal = self._reveal
            trump_from = 0 if reveal is None else trump_counts_from(self._rules, reveal, number)
            down = self._face_down
            face_down = sum(1 << i for i, card in enumerate(trick) if down >> card & 1) if down else 0
            if trump_from or face_down:
                position = trick_best(trick, self._active, trump_from, face_down) & 3
            else:
                position = best_of_four(a, b, c, d, self._active) & 3
        else:
            position = best_of_four(a, b, c, d, self._active) & 3
        leader = self._leader
        winner = self._orders[leader][position]
        team = winner & 1
        pile = self._pile | (1 << a) | (1 << b) | (1 << c) | (1 << d)
        pile_tricks = self._pile_tricks + 1
        last = number == self._n_tricks
        if self._sweep and not last:
            take = self._streak == winner and claims_pile(self._rules, number, self._last_win_after)
            # A claim restarts the count (seed 000), except under Double Sir's limits (seed 003).
            self._streak = NOBODY if take and not self._cp_limits else winner
        else:
            take = True
        if take:
            self._captured[team] |= pile
            self._captured_tricks[team] += pile_tricks
            tricks.append((leader, trick, winner, team, pile_tricks))
            self._pile = 0
            self._pile_tricks = 0
        else:
            tricks.append((leader, trick, winner, None, 0))
            self._pile = pile
            self._pile_tricks = pile_tricks
        if self._claims_need_trumps:
            self._last_win_after = won_with_trumps(self._rules, self._setting, self._reveal, number, position)
        self._trick = []
        self._leader = winner
        self._to_move = winner
        if self._undealt[0] and self._method is TrumpMethod.CUT:
            self._cut_after_trick(number)
        if last or (self._early_end and max(self._captured_tricks) >= majority(self._rules)):
            self._finish_hand()
            return
        if self._hidden >= 0:
            if self._on_play:  # no automatic reveal; its holder's face-down card counts in its hand
                self._update_legal()
                return
            self._turn_with_hidden_trump()
        self._legal = self._hands[winner]  # leading: any card (a reveal's duty comes with the ask)

    def _finish_hand(self) -> None:
        self._decision = None
        self._legal = 0
        self._result = decide_hand(
            self._rules, self._dealer, self._captured, self._captured_tricks,
            [t[2] for t in self._tricks],
        )

    # ----------------------------------------------------------- trump rules
    def _call(self, suit: int) -> None:
        if self._decision is not Decision.CALL_TRUMP:
            raise IllegalActionError(f"call {Suit(suit)}: {self._decision_text()}")
        self._events.append((0, self._to_move, CALL[suit]))
        self._trump = self._active = suit
        self._setting = TrumpSetting(Suit(suit), TrumpMethod.CALLED, 0, None, self._first)
        self._complete_deal()
        self._decision = Decision.PLAY
        self._update_legal()

    def _decline(self) -> None:
        if self._decision is not Decision.CALL_TRUMP:
            raise IllegalActionError(f"decline: {self._decision_text()}")
        if not self._may_decline():
            raise IllegalActionError(
                "decline: the caller must choose trumps on its first cards "
                "(declining needs trump_card=later or decline=second_packet)"
            )
        seat = self._to_move
        card = self._declined_card(seat)
        self._events.append((0, seat, DECLINE))
        self._complete_deal()
        self._trump = self._active = card // 13
        # Turned face up and left in the caller's hand: every seat knows where it is.
        self._setting = TrumpSetting(Suit(self._trump), TrumpMethod.CALLED, 0, CARDS[card], seat)
        self._decision = Decision.PLAY
        self._update_legal()

    def _declined_card(self, seat: Seat) -> int:
        """The card that sets trumps after a decline: the ``trump_card_index``-th card dealt to
        the caller, or one drawn from its second packet (in card order, so the order an explicit
        deal lists the packet in does not matter) with the hand's chance seed. A world imagined
        without a deal (``restore``) draws from the caller's cards to come instead."""
        rules = self._rules
        deal = self._deal
        index = rules.trump_card_index  # set whenever trump_card is later (Rules checks it)
        if rules.trump_card is TrumpCard.LATER and deal is not None and index is not None:
            return deal.hands[seat][index - 1]
        if deal is not None:
            first, second = rules.packets[0], rules.packets[1]
            packet = sorted(deal.hands[seat][first:first + second])
        else:
            packet = list(cards_of(self._undealt[seat]))
        return packet[choose_index(len(packet), self._chance_seed(), "decline")]

    def _hide_blind(self) -> None:
        """Seed 003: the face-down card taken at random from the caller's first five without
        looking (drawn in card order with the hand's chance seed); nobody chooses, so no event."""
        seat = self._first
        cards = cards_of(self._hands[seat])
        card = cards[choose_index(len(cards), self._chance_seed(), "hidden-blind")]
        self._hands[seat] ^= 1 << card
        self._hidden = card
        self._trump = card // 13
        self._complete_deal()
        self._decision = Decision.PLAY

    def _hide(self, card: int) -> None:
        if self._decision is not Decision.HIDE_TRUMP:
            raise IllegalActionError(f"hide {CARDS[card]}: {self._decision_text()}")
        if not self._hands[self._to_move] >> card & 1:
            raise IllegalActionError(
                f"hide {CARDS[card]}: not among seat {self._to_move}'s "
                f"{'cards' if self._full_hide else 'first cards'} "
                f"({format_cards(self._hands[self._to_move])})"
            )
        self._events.append((0, self._to_move, HIDE[card]))
        self._hands[self._to_move] ^= 1 << card
        self._hidden = card
        self._trump = card // 13
        if self._on_play:
            self._active = self._trump  # seed 001: in force from the first trick, while secret
        self._complete_deal()
        self._decision = Decision.PLAY
        self._update_legal()

    def _ask_reveal(self) -> None:
        if self._decision is not Decision.PLAY or self._hidden < 0:
            raise IllegalActionError(f"reveal: there is no face-down trump ({self._decision_text()})")
        if not self._on_request:
            raise IllegalActionError(
                f"reveal: nobody may ask under reveal={self._rules.reveal}"
                + (" (it is turned up when its holder plays it)" if self._on_play
                   else " (it is turned up at the first void)")
            )
        if not self._may_ask_reveal():
            who = "the trump's owner" if self._to_move == self._first else "a player"
            raise IllegalActionError(
                f"reveal: {who} may ask only when unable to follow suit"
                + (" or when on lead" if self._to_move == self._first else "")
            )
        self._events.append((self._plays_made(), self._to_move, REVEAL))
        self._turn_up(self._to_move, RevealReason.REQUEST)
        self._update_legal()

    def _turn_up(self, seat: Seat, reason: RevealReason) -> None:
        card = self._hidden
        self._hidden = -1
        self._hands[self._first] |= 1 << card
        self._active = self._trump
        self._reveal = TrumpReveal(len(self._tricks) + 1, len(self._trick), seat, CARDS[card], reason)
        self._setting = TrumpSetting(
            Suit(self._trump), TrumpMethod.HIDDEN, len(self._tricks) + 1, CARDS[card], self._first
        )

    def _holder_follow(self, follow: CardMask) -> CardMask:
        """The led-suit cards the trump's owner must follow with, given that it holds some.

        On_void (seed 000: "the player out of the suit may still play anything"), the owner's
        duty to follow in the trick of the reveal is judged on the cards it held before the
        face-down card came back: when that card is its only one of the led suit, it owes
        nothing (0). Otherwise, and in every other trick, the led-suit cards it holds.
        """
        reveal = self._reveal
        if (self._on_request or reveal is None or reveal.trick != len(self._tricks) + 1
                or follow != 1 << reveal.card):
            return follow
        return 0

    def _turn_with_hidden_trump(self) -> None:
        """Automatic reveals: at the first void (on_void) or when only the hidden card is left.
        On_play has none (its callers skip it): the holder plays the card itself (its last card
        at the latest)."""
        seat = self._to_move
        if seat == self._first and not self._hands[seat]:
            self._turn_up(seat, RevealReason.LAST_CARD)
        elif (not self._on_request and self._trick
              and not self._hands[seat] & SUIT_MASKS[self._led]):
            self._turn_up(seat, RevealReason.VOID)

    def _set_trump_by_card(self, seat: Seat, card: int, trick: int) -> None:
        self._trump = self._active = card // 13
        self._setting = TrumpSetting(Suit(self._trump), self._method, trick, CARDS[card], seat)

    def _cut_after_trick(self, number: int) -> None:
        if self._trump < 0:
            if number < self._rules.packets[0]:
                return
            played = [CARDS[c] for t in self._tricks for c in t[1]]
            card = played[choose_index(len(played), self._chance_seed(), "cut-fallback")]
            self._trump = self._active = card // 13
            self._setting = TrumpSetting(Suit(self._trump), TrumpMethod.CUT, number, card, None)
        self._complete_deal()

    def _open_random_trump(self) -> None:
        """Seed 001's open method: after the full deal, a player other than the caller and a
        card of that player's whole hand, both drawn from the hand's chance seed. The card is
        drawn from the hand in card order, so the order an explicit deal lists it in does not
        matter; it stays in its owner's hand."""
        seed = self._chance_seed()
        owners = play_order(self._first, self._rules.direction)[1:]
        owner = owners[choose_index(len(owners), seed, "open-random", "player")]
        hand = cards_of(self._hands[owner])
        card = hand[choose_index(len(hand), seed, "open-random", "card")]
        self._trump = self._active = card // 13
        self._setting = TrumpSetting(Suit(self._trump), TrumpMethod.OPEN_RANDOM, 0, card, owner)

    def _complete_deal(self) -> None:
        for s in range(4):
            self._hands[s] |= self._undealt[s]
            self._undealt[s] = 0

    def _chance_seed(self) -> int:
        return self._deal.chance if self._deal is not None else 0

    # ------------------------------------------------------------- messages
    def _decision_text(self) -> str:
        if self._decision is None:
            return "the hand is over"
        return f"seat {self._to_move} must {_DECISION_VERB[self._decision]}"

    def _why_not_playable(self, card: int) -> str:
        what = f"play {CARDS[card]}" if 0 <= card < 52 else f"play {card!r}"
        if not 0 <= card < 52:
            return f"{what}: not a card"
        if self._decision is not Decision.PLAY:
            return f"{what}: {self._decision_text()}"
        seat = self._to_move
        hand = self._hands[seat]
        if self._on_play and self._hidden >= 0 and seat == self._first:
            hand |= 1 << self._hidden  # counts as part of its holder's hand
        if not hand >> card & 1:
            if self._hidden == card and seat == self._first and not self._rules.hidden_blind:
                # another seat is told nothing more; a blind holder is not told either
                return f"{what}: the face-down trump card is not in seat {seat}'s hand until revealed"
            return f"{what}: seat {seat} does not hold it"
        if self._trick and hand & SUIT_MASKS[self._led]:
            return f"{what}: seat {seat} must follow suit {Suit(self._led)}"
        return f"{what}: seat {seat} revealed the trump and must play a trump ({Suit(self._trump)})"

    # -------------------------------------------------------- copies for search
    def clone(self) -> HandState:
        """An independent copy, for search and for imagined deals. Every slot is written out
        (a loop over ``__slots__`` is 3x slower; a test checks that none is missed)."""
        other = HandState.__new__(HandState)
        other._active = self._active
        other._captured = self._captured[:]
        other._captured_tricks = self._captured_tricks[:]
        other._claims_need_trumps = self._claims_need_trumps
        other._cp_limits = self._cp_limits
        other._deal = self._deal
        other._dealer = self._dealer
        other._decision = self._decision
        other._early_end = self._early_end
        other._events = self._events[:]
        other._face_down = self._face_down
        other._first = self._first
        other._full_hide = self._full_hide
        other._hands = self._hands[:]
        other._hidden = self._hidden
        other._hidden_trump = self._hidden_trump
        other._last_win_after = self._last_win_after
        other._leader = self._leader
        other._led = self._led
        other._legal = self._legal
        other._maker_down = self._maker_down
        other._method = self._method
        other._n_tricks = self._n_tricks
        other._next = self._next
        other._on_play = self._on_play
        other._on_request = self._on_request
        other._orders = self._orders
        other._pile = self._pile
        other._pile_tricks = self._pile_tricks
        other._result = self._result
        other._reveal = self._reveal
        other._rules = self._rules
        other._setting = self._setting
        other._streak = self._streak
        other._sweep = self._sweep
        other._to_move = self._to_move
        other._trick = self._trick[:]
        other._trick_values = self._trick_values[:]
        other._tricks = self._tricks[:]
        other._trump = self._trump
        other._undealt = self._undealt[:]
        return other

    @classmethod
    def restore(
        cls,
        facts: PublicHand,
        hands: Sequence[CardMask],
        undealt: Sequence[CardMask],
        hidden_card: int | None,
    ) -> HandState:
        """A playable state from a hand's public ``facts`` plus a placement of the cards nobody
        sees: each seat's hand, the packets still to come and the face-down trump card. The facts
        must name every card played (a seat that did not see a face-down discard fills in its own
        guess first: ``sdk.worlds``); which of them were face down comes from ``Trick.face_down``
        and ``current_face_down``.

        This is how a seat imagines a world it cannot tell from the real one (``sdk.worlds``
        builds the facts from its view). Only the placement is checked here: the facts are
        trusted to be what a real hand showed. The state has no ``deal``.
        """
        if len(hands) != 4 or len(undealt) != 4:
            raise ValueError("restore needs four hands and four undealt sets")
        if any(c is None for t in facts.tricks for c in t.cards) or any(c is None for _, c in facts.current_trick):
            raise ValueError("restore needs every played card named (place the face-down ones first)")
        state = cls.__new__(cls)
        state._deal = None
        state._set_table(facts.rules, facts.dealer)
        state._hands = list(hands)
        state._undealt = list(undealt)
        state._active = NO_SUIT if facts.trump_in_force is None else int(facts.trump_in_force)
        state._hidden = -1 if hidden_card is None else hidden_card
        if hidden_card is not None:
            state._trump = hidden_card // 13
            if state._on_play:
                state._active = state._trump
        elif facts.trump_setting is not None:
            state._trump = facts.trump_setting.suit
        else:
            state._trump = state._active
        state._reveal = facts.reveal
        state._setting = facts.trump_setting
        state._decision = facts.decision
        state._to_move = facts.to_move if facts.to_move is not None else state._first
        state._tricks = [
            (t.leader, [int(c) for c in t.cards], t.winner, t.taken_by, t.tricks_taken)  # type: ignore[arg-type]
            for t in facts.tricks
        ]
        state._trick_values = list(facts.tricks)
        state._trick = [int(c) for _, c in facts.current_trick]  # type: ignore[arg-type]
        down = 0
        for t in facts.tricks:
            for i in t.face_down:
                down |= 1 << int(t.cards[i])  # type: ignore[arg-type]
        for i in facts.current_face_down:
            down |= 1 << int(facts.current_trick[i][1])  # type: ignore[arg-type]
        state._face_down = down
        if hidden_card is not None or facts.reveal is not None or down:
            state._hidden_trump = True  # facts that show a face-down trump are played by its rules
        state._leader = facts.current_trick[0][0] if facts.current_trick else state._to_move
        state._led = facts.current_trick[0][1] // 13 if facts.current_trick else NO_SUIT  # type: ignore[operator]
        state._pile = facts.pile
        state._pile_tricks = facts.pile_tricks
        state._captured = list(facts.captured)
        state._captured_tricks = list(facts.captured_tricks)
        state._streak = facts.streak_holder if facts.streak_holder is not None else NOBODY
        state._last_win_after = False
        if facts.tricks and state._claims_need_trumps:
            last = facts.tricks[-1]
            state._last_win_after = won_with_trumps(
                facts.rules, facts.trump_setting, facts.reveal, last.number, last.seats.index(last.winner)
            )
        state._events = []
        reveal = facts.reveal
        if reveal is not None and reveal.reason is RevealReason.REQUEST:
            # Kept so that ``must_play_trump`` holds while the asker is still to play.
            state._events.append((4 * (reveal.trick - 1) + reveal.position, reveal.seat, REVEAL))
        state._result = facts.result
        state._update_legal()
        return state

    def resampled(
        self, hands: list[CardMask], undealt: list[CardMask], hidden_card: int | None
    ) -> HandState:
        """A copy with the hidden cards placed differently, the public history kept.

        This is how a seat imagines the others' hands (search bots) and how tests show that
        an observation depends only on what a seat may see. The copy has no ``deal``.
        """
        if len(hands) != 4 or len(undealt) != 4:
            raise ValueError("resampled needs four hands and four undealt sets")
        old = sum(self._hands) + sum(self._undealt) + (1 << self._hidden if self._hidden >= 0 else 0)
        new = sum(hands) + sum(undealt) + (1 << hidden_card if hidden_card is not None else 0)
        if old != new or any(h.bit_count() != o.bit_count() for h, o in zip(hands, self._hands, strict=True)):
            raise ValueError("resampled must keep the same unplayed cards and hand sizes")
        if (hidden_card is None) != (self._hidden < 0):
            raise ValueError("resampled must keep a face-down trump exactly when there is one")
        other = self.clone()
        other._deal = None
        other._hands = list(hands)
        other._undealt = list(undealt)
        if hidden_card is not None:
            other._hidden = hidden_card
            other._trump = hidden_card // 13
            if self._on_play:
                other._active = other._trump
        other._update_legal()
        return other


_RawTrick = tuple[Seat, list[int], Seat, int | None, int]
"""(leader, cards in play order, winner, team that took the pile, tricks taken)."""

_CALL_OR_DECLINE: tuple[Action, ...] = (*CALL, DECLINE)
"""The caller's choices where it may decline to choose on its first five cards (seed 003)."""
_CARD_SETS_TRUMP = (TrumpMethod.CUT, TrumpMethod.FIRST_DISCARD)
_FULL_DEAL_AT_ONCE = (TrumpMethod.FIRST_DISCARD, TrumpMethod.OPEN_RANDOM, TrumpMethod.NONE)
"""Methods that deal all the cards before play (no trump is settled on the first packet)."""
_DECISION_VERB = {
    Decision.CALL_TRUMP: "call trumps",  # or decline, where the rules allow
    Decision.HIDE_TRUMP: "put a trump card face down",
    Decision.PLAY: "play a card",
}
