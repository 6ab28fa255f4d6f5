"""What one seat may know: the only view of a hand that ever leaves the engine for a bot.

Information hiding lives here and nowhere else. A seat sees its own hand, the public history
(every card played, tricks, the pile, captures, reveals), the trump only once it may know it
(the owner of a face-down trump knows it from the start), and the match score. It never sees
other hands, cards still to be dealt, a face-down card it did not set, or the deal's seed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from arena.engine.actions import Action
from arena.engine.cards import TENS, Card, Suit, cards_of
from arena.engine.hand import Decision, HandState, TrumpReveal, TrumpSetting
from arena.engine.match import MatchScore
from arena.engine.outcome import HandResult, Trick
from arena.engine.rules import Rules
from arena.engine.seats import Seat


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
    current_trick: tuple[tuple[Seat, Card], ...]
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

    @property
    def my_turn(self) -> bool:
        return self.to_move == self.seat

    def to_json(self) -> dict[str, Any]:
        """Plain JSON, stable key order; used by golden transcripts and debugging."""
        return {
            "seat": self.seat,
            "dealer": self.dealer,
            "first_player": self.first_player,
            "to_move": self.to_move,
            "decision": self.decision.value if self.decision else None,
            "legal_actions": [str(a) for a in self.legal_actions],
            "hand": [str(c) for c in self.hand],
            "hand_sizes": list(self.hand_sizes),
            "cards_to_come": list(self.cards_to_come),
            "trump": str(self.trump) if self.trump is not None else None,
            "trump_in_force": str(self.trump_in_force) if self.trump_in_force is not None else None,
            "trump_setting": _setting_json(self.trump_setting),
            "hidden_trump_holder": self.hidden_trump_holder,
            "hidden_trump_card": str(self.hidden_trump_card) if self.hidden_trump_card is not None else None,
            "reveal": _reveal_json(self.reveal),
            "must_play_trump": self.must_play_trump,
            "trick_number": self.trick_number,
            "current_trick": [[s, str(c)] for s, c in self.current_trick],
            "tricks": [t.to_json() for t in self.tricks],
            "pile": [str(c) for c in self.pile],
            "pile_tricks": self.pile_tricks,
            "streak_holder": self.streak_holder,
            "captured": [[str(c) for c in team] for team in self.captured],
            "tens": list(self.tens),
            "tricks_won": list(self.tricks_won),
            "tricks_captured": list(self.tricks_captured),
            "result": self.result.to_json() if self.result else None,
            "match": self.match.to_json() if self.match else None,
        }


def observe(state: HandState, seat: Seat, match: MatchScore | None = None) -> Observation:
    """The view of ``state`` that ``seat`` is entitled to."""
    if seat not in (0, 1, 2, 3):
        raise ValueError(f"seat must be 0..3, not {seat!r}")
    hidden = state.hidden_card
    holder = state.first_player if hidden is not None else None
    own_hidden = hidden if holder == seat else None
    trump = state.trump_in_force
    if trump is None and own_hidden is not None:
        trump = own_hidden.suit
    to_move = state.to_move
    my_turn = to_move == seat
    tricks = state.tricks
    won = [0, 0]
    for trick in tricks:
        won[trick.winner & 1] += 1
    captured = (state.captured(0), state.captured(1))
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
        trump_in_force=state.trump_in_force,
        trump_setting=state.trump_setting,
        hidden_trump_holder=holder,
        hidden_trump_card=own_hidden,
        reveal=state.reveal,
        must_play_trump=state.must_play_trump and my_turn,
        trick_number=state.trick_number,
        current_trick=state.current_trick,
        tricks=tricks,
        pile=cards_of(state.pile),
        pile_tricks=state.pile_tricks,
        streak_holder=state.streak_holder,
        captured=(cards_of(captured[0]), cards_of(captured[1])),
        tens=((captured[0] & TENS).bit_count(), (captured[1] & TENS).bit_count()),
        tricks_won=(won[0], won[1]),
        tricks_captured=(state.captured_tricks(0), state.captured_tricks(1)),
        result=state.result,
        match=match,
    )


def _four(values: Any) -> tuple[int, int, int, int]:
    a, b, c, d = values
    return (a, b, c, d)


def _setting_json(setting: TrumpSetting | None) -> dict[str, Any] | None:
    if setting is None:
        return None
    return {
        "suit": str(setting.suit),
        "method": setting.method.value,
        "trick": setting.trick,
        "card": str(setting.card) if setting.card is not None else None,
        "seat": setting.seat,
    }


def _reveal_json(reveal: TrumpReveal | None) -> dict[str, Any] | None:
    if reveal is None:
        return None
    return {
        "trick": reveal.trick,
        "position": reveal.position,
        "seat": reveal.seat,
        "card": str(reveal.card),
        "reason": reveal.reason.value,
    }
