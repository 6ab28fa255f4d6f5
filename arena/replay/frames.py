"""A hand record as replay steps: one step per action, each built from the engine's observations.

Step 0 is the table after the deal, before the first action; step ``i`` is the table after the
``i``-th action (a call, a decline, a hide, a reveal or a play). Every fact of a step comes from
``observe(state, seat)``, the view the referee sends a seat, and nothing else:

- a seat's perspective (``0..3``) is built from that seat's observation alone, so its steps hold
  no card of another hand that has not been played and no face-down trump it may not know;
- ``none`` is the public part of the observation of a seat that holds no secret (neither the
  face-down trump nor the maker's face-down discards, ``maker_discard: face_down``);
- ``all`` is the four observations together (the table's public facts from the trump maker's,
  which alone sees the face-down trump and the cards it discarded face down).

This is the only place that decides what a replay shows; the routes only serialise it.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from arena.engine.actions import Action, CallTrump, DeclineTrump, HideTrump, PlayCard, RevealTrump, parse_action
from arena.engine.cards import Card
from arena.engine.deal import Deal
from arena.engine.errors import ArenaError, RecordError
from arena.engine.hand import HandState
from arena.engine.hand_records import read_hand_record
from arena.engine.observation import Observation, observe
from arena.engine.outcome import hand_value
from arena.engine.rules import Capture, Rules, make_rules
from arena.engine.seats import Seat

Perspective = Literal["all", "none", 0, 1, 2, 3]
"""Whose eyes a replay is seen through: all four hands open, one seat's view, or no hands."""

PERSPECTIVE_PATTERN = "^(all|none|[0-3])$"
"""The perspective as a query parameter (``seat=2``, ``seat=all``, ``seat=none``)."""


def parse_perspective(text: str) -> Perspective:
    """``"all"``, ``"none"`` or a seat ``"0"``..``"3"``; anything else is a ``ValueError``."""
    if text == "all":
        return "all"
    if text == "none":
        return "none"
    if text == "0":
        return 0
    if text == "1":
        return 1
    if text == "2":
        return 2
    if text == "3":
        return 3
    raise ValueError(f"seat: expected all, none or a seat 0..3, got {text!r}")


class FrozenModel(BaseModel):
    """The replay's values: immutable, serialised as the API's JSON."""

    model_config = ConfigDict(frozen=True)


class EventKind(StrEnum):
    TRUMP_CALLED = "trump_called"
    TRUMP_HIDDEN = "trump_hidden"
    TRUMP_SET = "trump_set"
    TRUMP_REVEALED = "trump_revealed"
    TRICK_WON = "trick_won"
    SWEEP = "sweep"
    CAPTURE = "capture"
    HAND_OVER = "hand_over"
    CALL = "call"
    """A bid or a pass in a bidding game's auction."""
    CONTRACT = "contract"
    """The auction is over: who bid what."""


class Event(FrozenModel):
    """Something that happened at a step, as the perspective may know it, with a sentence for people."""

    kind: EventKind
    text: str
    seat: int | None = None
    team: int | None = None
    card: str | None = None
    cards: int = 0
    """Cards taken (sweep, capture)."""
    tricks: int = 0
    """Tricks taken with them."""
    tens: int = 0
    """Tens among the cards taken."""


class StepAction(FrozenModel):
    """The action that led to a step: who, what kind, and its text as the perspective may see it."""

    seat: int
    kind: Literal["play", "call", "hide", "reveal", "decline", "bid", "pass"]
    text: str


class Play(FrozenModel):
    seat: int
    card: str | None
    """``None`` for a card played face down that this perspective may not see."""
    face_down: bool = False
    """Played face down (``maker_discard: face_down``): it cannot win the trick."""


class SeatHand(FrozenModel):
    """A seat's hand: its cards where the perspective may see them (``None`` where not)."""

    seat: int
    cards: list[str] | None
    size: int
    to_come: int
    """Cards still to be dealt to it (before trumps are settled)."""


class TeamView(FrozenModel):
    team: int
    captured: list[str]
    captured_face_down: int = 0
    """Face-down cards among the captured that this perspective may not see (not in ``captured``)."""
    tens: int
    tricks_won: int
    tricks_captured: int
    points: int | None = None
    """A bidding game's card points taken so far (the last trick's point included); ``None`` elsewhere."""


class TrumpView(FrozenModel):
    """Trumps as the perspective knows them; a face-down card stays face down until revealed."""

    method: str
    suit: str | None
    """The trump suit this perspective knows (the owner of a face-down card knows it)."""
    in_force: str | None
    """The suit that counts as trumps now, for everyone."""
    face_down: bool
    """A face-down trump card lies on the table."""
    holder: int | None
    """Who put it face down."""
    card: str | None
    """The face-down card if this perspective may see it, or the revealed card."""
    revealed: bool
    set_by: int | None = None
    """The seat whose call or card set trumps (public once set)."""
    set_card: str | None = None
    """The card that set trumps (cut, first discard, open random, the revealed card), public once set."""
    set_in_trick: int | None = None


class ResultView(FrozenModel):
    winner: int | None
    outcome: str
    tens: list[int]
    tricks_won: list[int]
    tricks_captured: list[int]
    kot: bool
    mendikot: bool
    points: int
    value: float
    """The hand's value for team 0 (seats 0 and 2): +v won, -v lost, 0 drawn."""


class CallView(FrozenModel):
    """One call of a bidding game's auction (bids are public)."""

    seat: int
    text: str
    bid: int | None
    """The amount bid, ``None`` for a pass."""


class ContractView(FrozenModel):
    bidder: int
    bid: int
    team: int


class BiddingResultView(FrozenModel):
    """A finished bidding hand: did the bidding team's card points reach its bid."""

    bidder: int
    bid: int
    team: int
    points: list[int]
    outcome: Literal["made", "failed", "void"]
    game_points: int
    """Signed, for the bidding team (0 for a void hand)."""
    winner: int | None
    value: float
    """The hand's game points for team 0 (seats 0 and 2)."""


class BiddingStepView(FrozenModel):
    """A bidding game's facts at a step: the auction so far, the contract, the points taken."""

    calls: list[CallView]
    contract: ContractView | None
    points: list[int]
    result: BiddingResultView | None


class Step(FrozenModel):
    index: int
    action: StepAction | None
    trick_number: int
    to_move: int | None
    decision: str | None
    dealer: int
    seats: list[SeatHand]
    trick: list[Play]
    trick_complete: bool
    """The trick shown is finished (its fourth card was this step's play)."""
    trick_winner: int | None
    pile: list[str]
    pile_face_down: int = 0
    """Face-down cards in the pile that this perspective may not see (not in ``pile``)."""
    pile_tricks: int
    streak_holder: int | None
    teams: list[TeamView]
    trump: TrumpView
    events: list[Event]
    result: ResultView | None
    bidding: BiddingStepView | None = None
    """A bidding game's (Twenty-eight) auction, contract, points and result; ``None`` elsewhere."""


class TrickIndex(FrozenModel):
    """Where a trick lies among the steps: its first card's step and its last card's step."""

    number: int
    first_step: int
    last_step: int
    winner: int


class HandReplay(FrozenModel):
    perspective: str
    rules: dict[str, Any]
    dealer: int
    first_player: int
    steps: list[Step]
    tricks: list[TrickIndex]
    game: Literal["tricks", "bidding"] = "tricks"
    """``bidding`` for Twenty-eight and Twenty-nine (``arena.replay.bidding_frames``)."""
    rank_order: list[str] | None = None
    """A bidding game's ranks in every suit, high to low (``J 9 A 10 K Q 8 7``)."""


def replay_hand(record: Any, perspective: Perspective) -> HandReplay:
    """Every step of the hand in ``record`` (a hand record, replayed by the engine) as ``perspective`` sees it."""
    rules, states = _replayed(record)
    steps: list[Step] = []
    previous: Observation | None = None
    first_player = dealer = 0
    for state, move in states:
        views = _observations(state, perspective)
        public = views[0]
        dealer, first_player = public.dealer, public.first_player
        steps.append(_step(rules, len(steps), move, views, perspective, previous))
        previous = public
    return HandReplay(perspective=str(perspective), rules=rules.options(), dealer=dealer, first_player=first_player,
                      steps=steps, tricks=trick_index(steps))


def _replayed(record: Any) -> tuple[Rules, Iterator[tuple[HandState, tuple[Seat, Action] | None]]]:
    """The record's rules and its states one action at a time (the same state, moved on)."""
    checked = read_hand_record(record)
    try:
        rules = make_rules(checked.rules, context="rules")
        deal = Deal.from_text(rules, checked.deal.hands, checked.deal.chance)
        state = HandState(rules, deal, checked.dealer)
    except ArenaError as exc:
        raise RecordError(str(exc)) from None
    actions: list[tuple[Seat, Action]] = []
    for index, entry in enumerate(checked.actions):
        try:
            actions.append((entry.seat, parse_action(entry.action)))
        except ArenaError as exc:
            raise RecordError(f"actions[{index}]: {exc}") from None

    def states() -> Iterator[tuple[HandState, tuple[Seat, Action] | None]]:
        yield state, None
        for index, (seat, action) in enumerate(actions):
            if state.to_move != seat:
                raise RecordError(f"actions[{index}]: seat {state.to_move} is to move, not seat {seat}")
            try:
                state.apply(action)
            except ArenaError as exc:
                raise RecordError(f"actions[{index}]: {exc}") from None
            yield state, (seat, action)

    return rules, states()


def _observations(state: HandState, perspective: Perspective) -> list[Observation]:
    """The observations a perspective is built from, the one for the table's public facts first:
    one seat's own; all four, the trump maker's first (it alone sees every card on the table);
    or, for ``none``, the view of a seat that holds no secret (not the maker)."""
    if isinstance(perspective, int):
        return [observe(state, perspective)]
    first = observe(state, 0)
    maker = first.hidden_trump_holder if first.hidden_trump_holder is not None else first.first_player
    if perspective == "none":
        return [first if maker != 0 else observe(state, 1)]
    views = [first, *(observe(state, seat) for seat in range(1, 4))]
    return [views[maker], *(view for view in views if view.seat != maker)]


def _step(rules: Rules, index: int, move: tuple[Seat, Action] | None, views: Sequence[Observation],
          perspective: Perspective, previous: Observation | None) -> Step:
    public = views[0]
    own = {view.seat: view for view in views} if perspective != "none" else {}
    finished = previous is not None and len(public.tricks) > len(previous.tricks)
    if finished:
        last = public.tricks[-1]
        trick = [_play(seat, card, position in last.face_down)
                 for position, (seat, card) in enumerate(zip(last.seats, last.cards, strict=True))]
    else:
        trick = [_play(seat, card, position in public.current_face_down)
                 for position, (seat, card) in enumerate(public.current_trick)]
    return Step(
        index=index,
        action=_action(move, own, public),
        trick_number=public.trick_number,
        to_move=public.to_move,
        decision=public.decision.value if public.decision else None,
        dealer=public.dealer,
        seats=[SeatHand(seat=seat, cards=[str(card) for card in own[seat].hand] if seat in own else None,
                        size=public.hand_sizes[seat], to_come=public.cards_to_come[seat]) for seat in range(4)],
        trick=trick,
        trick_complete=finished,
        trick_winner=public.tricks[-1].winner if finished else None,
        pile=[str(card) for card in public.pile],
        pile_face_down=public.pile_face_down,
        pile_tricks=public.pile_tricks,
        streak_holder=public.streak_holder,
        teams=[TeamView(team=team, captured=[str(card) for card in public.captured[team]],
                        captured_face_down=public.captured_face_down[team], tens=public.tens[team],
                        tricks_won=public.tricks_won[team], tricks_captured=public.tricks_captured[team])
               for team in (0, 1)],
        trump=_trump(rules, public, own),
        events=_events(rules, move, public, own, previous),
        result=_result(rules, public),
    )


def _play(seat: Seat, card: Card | None, face_down: bool) -> Play:
    return Play(seat=seat, card=str(card) if card is not None else None, face_down=face_down)


def _action(move: tuple[Seat, Action] | None, own: dict[Seat, Observation],
            public: Observation) -> StepAction | None:
    """The action's text; a card put face down (a trump or a discard) is named only to a
    perspective that may see it."""
    if move is None:
        return None
    seat, action = move
    if isinstance(action, PlayCard) and action.face_down:
        shown = public.tricks[-1].cards[-1] if not public.current_trick else public.current_trick[-1][1]
        return StepAction(seat=seat, kind="play", text=f"plays {shown if shown is not None else 'a card'} face down")
    if isinstance(action, PlayCard):
        return StepAction(seat=seat, kind="play", text=f"plays {action.card}")
    if isinstance(action, CallTrump):
        return StepAction(seat=seat, kind="call", text=f"calls trumps: {action.suit}")
    if isinstance(action, HideTrump):
        known = seat in own and own[seat].hidden_trump_card is not None
        what = str(action.card) if known else "a card"
        return StepAction(seat=seat, kind="hide", text=f"puts {what} face down as trumps")
    if isinstance(action, RevealTrump):
        return StepAction(seat=seat, kind="reveal", text="asks for the face-down trump")
    if isinstance(action, DeclineTrump):
        return StepAction(seat=seat, kind="decline", text="declines to choose trumps on five cards")
    raise RecordError(f"{action!r}: not an action a replay knows")


def _trump(rules: Rules, public: Observation, own: dict[Seat, Observation]) -> TrumpView:
    holder = public.hidden_trump_holder
    face_down = holder is not None
    known = own.get(holder) if holder is not None else None
    hidden_card = known.hidden_trump_card if known is not None else None
    suit = public.trump_in_force
    if suit is None and hidden_card is not None:
        suit = hidden_card.suit
    revealed_card = public.reveal.card if public.reveal is not None else None
    card = hidden_card if hidden_card is not None else revealed_card  # 2S is card 0, a falsy int
    setting = public.trump_setting
    return TrumpView(
        method=rules.trump.value,
        suit=str(suit) if suit is not None else None,
        in_force=str(public.trump_in_force) if public.trump_in_force is not None else None,
        face_down=face_down,
        holder=holder if face_down else (public.first_player if public.reveal is not None else None),
        card=str(card) if card is not None else None,
        revealed=public.reveal is not None,
        set_by=setting.seat if setting is not None else None,
        set_card=str(setting.card) if setting is not None and setting.card is not None else None,
        set_in_trick=setting.trick if setting is not None else None,
    )


def _events(rules: Rules, move: tuple[Seat, Action] | None, public: Observation, own: dict[Seat, Observation],
            previous: Observation | None) -> list[Event]:
    events: list[Event] = []
    if move is not None and isinstance(move[1], HideTrump):
        seat = move[0]
        card = own[seat].hidden_trump_card if seat in own else None
        events.append(Event(kind=EventKind.TRUMP_HIDDEN, seat=seat, card=str(card) if card is not None else None,
                            text=f"seat {seat} puts " + (f"{card}" if card is not None else "a card") + " face down"))
    setting, before = public.trump_setting, previous.trump_setting if previous is not None else None
    if public.reveal is not None and (previous is None or previous.reveal is None):
        reveal = public.reveal
        events.append(Event(kind=EventKind.TRUMP_REVEALED, seat=reveal.seat, card=str(reveal.card),
                            text=f"the face-down trump {reveal.card} is turned up ({reveal.reason.value}, "
                                 f"for seat {reveal.seat}): trumps are {reveal.card.suit}"))
    elif setting is not None and before is None:
        kind = EventKind.TRUMP_CALLED if move is not None and isinstance(move[1], CallTrump) else EventKind.TRUMP_SET
        how = f" by {setting.card}" if setting.card is not None else ""
        who = f" (seat {setting.seat})" if setting.seat is not None else ""
        events.append(Event(kind=kind, seat=setting.seat, card=str(setting.card) if setting.card else None,
                            text=f"trumps are {setting.suit}{how}{who}"))
    if previous is not None and len(public.tricks) > len(previous.tricks):
        events += _trick_events(rules, public, previous)
    if public.result is not None and (previous is None or previous.result is None):
        result = public.result
        who = "drawn" if result.winner is None else f"won by Team {TEAM_LETTERS[result.winner]}"
        events.append(Event(kind=EventKind.HAND_OVER, team=result.winner,
                            text=f"hand {who} ({result.outcome.value}), tens {result.tens[0]}-{result.tens[1]}"))
    return events


def _trick_events(rules: Rules, public: Observation, previous: Observation) -> list[Event]:
    trick = public.tricks[-1]
    events = [Event(kind=EventKind.TRICK_WON, seat=trick.winner, team=trick.winner & 1,
                    text=f"trick {trick.number} to seat {trick.winner} (Team {TEAM_LETTERS[trick.winner & 1]})")]
    if trick.taken_by is not None:
        team = trick.taken_by
        cards = len(public.captured[team]) - len(previous.captured[team])
        tens = public.tens[team] - previous.tens[team]
        kind = EventKind.SWEEP if rules.capture is Capture.SWEEP else EventKind.CAPTURE
        verb = "sweeps" if kind is EventKind.SWEEP else "takes"
        text = (f"Team {TEAM_LETTERS[team]} {verb} {cards} cards "
                f"({_count(trick.tricks_taken, 'trick')}, {_count(tens, 'ten')})")
        events.append(Event(kind=kind, seat=trick.winner, team=team, cards=cards, tricks=trick.tricks_taken,
                            tens=tens, text=text))
    return events


def _result(rules: Rules, public: Observation) -> ResultView | None:
    result = public.result
    if result is None:
        return None
    return ResultView(winner=result.winner, outcome=result.outcome.value, tens=list(result.tens),
                      tricks_won=list(result.tricks_won), tricks_captured=list(result.tricks_captured),
                      kot=result.kot, mendikot=result.mendikot, points=result.points,
                      value=hand_value(rules, result))


def trick_index(steps: Sequence[Step]) -> list[TrickIndex]:
    """Where each trick's first and last card lie among ``steps``."""
    index: list[TrickIndex] = []
    first: int | None = None
    for step in steps:
        if step.action is None or step.action.kind != "play":
            continue
        if first is None:
            first = step.index
        if step.trick_complete and step.trick_winner is not None:
            index.append(TrickIndex(number=len(index) + 1, first_step=first, last_step=step.index,
                                    winner=step.trick_winner))
            first = None
    return index


TEAM_LETTERS = "AB"
"""Team 0 (seats 0 and 2) is Team A, team 1 Team B: the one name every page and event uses."""


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"
