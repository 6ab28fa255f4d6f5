"""What one seat may know: the only view of a hand that ever leaves the engine for a bot.

Information hiding lives here and nowhere else. A seat sees its own hand, the public history
(every card played, tricks, the pile, captures, reveals), the trump only once it may know it
(the owner of a face-down trump knows it from the start), and the match score. It never sees
other hands, cards still to be dealt, a face-down card it did not set, or the deal's seed.

An on_play trump (seed 001's closed method) decides tricks while it is face down, so what a
seat other than its holder sees depends on it in exactly one way: through the winners of the
finished tricks (and what follows from them: captures, tens, the result). Its suit is named
(``trump``, ``trump_in_force``) only once the card is played. Two deals that differ only in
the face-down card and give the same winners give the other seats the same views
(``tests/engine/test_on_play_hiding.py``).

A blind face-down trump (``hidden_blind``, seed 003) was taken from its holder's first five
without looking: its holder sees it no more than the others do (``hidden_trump_card`` is
``None`` and ``trump`` unknown for every seat until it is revealed).

A card the trump maker discarded face down (``maker_discard: face_down``) is seen only by the
maker until the hand ends: every other seat sees ``None`` for it in the trick (``current_trick``,
``tricks``), and counts it in ``pile_face_down`` / ``captured_face_down`` instead of ``pile`` /
``captured`` (so ``tens`` counts only the tens it has seen).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, ClassVar

from arena.engine.actions import Action
from arena.engine.cards import TENS, Card, CardMask, Suit, cards_of
from arena.engine.hand import Decision, HandState
from arena.engine.jsonable import fields_json
from arena.engine.match import MatchScore
from arena.engine.outcome import HandResult, Trick
from arena.engine.rules import Rules
from arena.engine.seats import Seat
from arena.engine.trump import TrumpReveal, TrumpSetting


@dataclass(frozen=True, slots=True)
class Observation:
    """A seat's complete view of the hand now; enough for a bot to need nothing else."""

    rules: Rules
    seat: Seat
    dealer: Seat
    first_player: Seat
    to_move: Seat | None
    decision: Decision | None
    legal_actions: tuple[Action, ...]
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, int, int, int]
    cards_to_come: tuple[int, int, int, int]
    trump: Suit | None
    trump_in_force: Suit | None
    trump_setting: TrumpSetting | None
    hidden_trump_holder: Seat | None
    hidden_trump_card: Card | None
    reveal: TrumpReveal | None
    must_play_trump: bool
    trick_number: int
    current_trick: tuple[tuple[Seat, Card | None], ...]
    """The plays of the trick in progress; ``None`` for a face-down card this seat may not see."""
    tricks: tuple[Trick, ...]
    pile: tuple[Card, ...]
    pile_tricks: int
    streak_holder: Seat | None
    captured: tuple[tuple[Card, ...], tuple[Card, ...]]
    tens: tuple[int, int]
    tricks_won: tuple[int, int]
    tricks_captured: tuple[int, int]
    result: HandResult | None
    match: MatchScore | None
    current_face_down: tuple[int, ...] = ()
    """Positions of the trick in progress played face down (public: every seat saw it happen)."""
    pile_face_down: int = 0
    """Face-down cards in the pile that this seat may not see (not in ``pile``)."""
    captured_face_down: tuple[int, int] = (0, 0)
    """Per team, face-down cards taken that this seat may not see (not in ``captured``)."""

    JSON_OMIT: ClassVar[frozenset[str]] = frozenset({"rules"})
    """The rules are fixed for the match; the JSON of one moment leaves them out."""
    JSON_IF_SET: ClassVar[frozenset[str]] = frozenset(
        {"current_face_down", "pile_face_down", "captured_face_down"}
    )
    """Written only when set: hands without a face-down discard read exactly as before."""

    @property
    def my_turn(self) -> bool:
        return self.to_move == self.seat

    def to_json(self) -> dict[str, Any]:
        """Plain JSON, one key per field (``rules`` aside); used by golden transcripts and debugging."""
        return fields_json(self)


def observe(state: HandState, seat: Seat, match: MatchScore | None = None) -> Observation:
    """The view of ``state`` that ``seat`` is entitled to."""
    if seat not in (0, 1, 2, 3):
        raise ValueError(f"seat must be 0..3, not {seat!r}")
    hidden = state.hidden_card
    holder = state.first_player if hidden is not None else None
    own_hidden = hidden if holder == seat and not state.rules.hidden_blind else None
    in_force = state.trump_in_force
    if hidden is not None and holder != seat:
        in_force = None  # on_play: in force while face down, but only its holder may know
    trump = in_force
    if trump is None and own_hidden is not None:
        trump = own_hidden.suit
    to_move = state.to_move
    my_turn = to_move == seat
    tricks = state.tricks
    won = [0, 0]
    for trick in tricks:
        won[trick.winner & 1] += 1
    captured = (state.captured(0), state.captured(1))
    pile = state.pile
    current: tuple[tuple[Seat, Card | None], ...] = state.current_trick
    unseen = state.face_down_cards if seat != state.first_player and not state.is_over else 0
    if unseen:
        current = tuple((s, None if unseen >> c & 1 else c) for s, c in state.current_trick)
        tricks = tuple(_veiled(t, unseen) for t in tricks)
        pile, captured = pile & ~unseen, (captured[0] & ~unseen, captured[1] & ~unseen)
    return Observation(
        rules=state.rules,
        seat=seat,
        dealer=state.dealer,
        first_player=state.first_player,
        to_move=to_move,
        decision=state.decision,
        legal_actions=state.legal_actions() if my_turn else (),
        hand=cards_of(state.hand(seat)),
        hand_sizes=_four(state.hand(s).bit_count() for s in range(4)),
        cards_to_come=_four(state.undealt(s).bit_count() for s in range(4)),
        trump=trump,
        trump_in_force=in_force,
        trump_setting=state.trump_setting,
        hidden_trump_holder=holder,
        hidden_trump_card=own_hidden,
        reveal=state.reveal,
        must_play_trump=state.must_play_trump and my_turn,
        trick_number=state.trick_number,
        current_trick=current,
        tricks=tricks,
        pile=cards_of(pile),
        pile_tricks=state.pile_tricks,
        streak_holder=state.streak_holder,
        captured=(cards_of(captured[0]), cards_of(captured[1])),
        tens=((captured[0] & TENS).bit_count(), (captured[1] & TENS).bit_count()),
        tricks_won=(won[0], won[1]),
        tricks_captured=(state.captured_tricks(0), state.captured_tricks(1)),
        result=state.result,
        match=match,
        current_face_down=state.current_face_down,
        pile_face_down=(state.pile & unseen).bit_count(),
        captured_face_down=(
            (state.captured(0) & unseen).bit_count(), (state.captured(1) & unseen).bit_count()
        ),
    )


def _veiled(trick: Trick, unseen: CardMask) -> Trick:
    """``trick`` with the face-down cards in ``unseen`` shown as ``None``."""
    if not trick.face_down:
        return trick
    cards = tuple(None if c is not None and unseen >> c & 1 else c for c in trick.cards)
    return replace(trick, cards=cards)


def _four(values: Any) -> tuple[int, int, int, int]:
    a, b, c, d = values
    return (a, b, c, d)

