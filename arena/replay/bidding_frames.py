"""A bidding game's hand record (Twenty-eight, Twenty-nine) as replay steps, like ``frames`` for the
trick-taking games, and into the same ``HandReplay`` the viewer draws.

Step 0 is the table after the first four cards each, before the auction; step ``i`` follows the
``i``-th action (a bid, a pass, the face-down trump, a call for the exposure, a card). Every fact
of a step comes from ``observe_bidding(state, seat)`` and nothing else:

- a seat's perspective (``0..3``) is that seat's observation alone: its own cards, and the
  face-down trump only if it is the bidder, until the exposure;
- ``none`` is the observation of a seat that holds no secret (not the bidder), hands left out;
- ``all`` is the four observations together, the table's facts from the bidder's (which alone
  sees the face-down card).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, Literal

from arena.engine.actions import HideTrump, PlayCard, RevealTrump
from arena.engine.auction import Bid, Pass
from arena.engine.bidding_hand import BiddingAction, BiddingHand
from arena.engine.bidding_observation import BiddingObservation, observe_bidding
from arena.engine.bidding_outcome import BiddingResult
from arena.engine.bidding_records import parse_bidding_action, replay_bidding_record
from arena.engine.bidding_rules import BiddingRules
from arena.engine.cards import Card, Rank, cards_of, mask_of
from arena.engine.errors import ArenaError, RecordError
from arena.engine.ranking import card_points, ranks_high_to_low
from arena.engine.seats import Seat, team_of
from arena.replay.frames import (
    BiddingResultView,
    BiddingStepView,
    CallView,
    ContractView,
    Event,
    EventKind,
    HandReplay,
    Perspective,
    Play,
    SeatHand,
    Step,
    StepAction,
    TeamView,
    TrumpView,
    trick_index,
)

TEAM_NAMES = "AB"
"""Team 0 is A (seats 0 and 2), team 1 is B."""


def replay_bidding_hand(record: Any, perspective: Perspective) -> HandReplay:
    """Every step of the bidding hand in ``record`` (checked and replayed by the engine) as
    ``perspective`` sees it."""
    rules, states = _replayed(record)
    steps: list[Step] = []
    previous: BiddingObservation | None = None
    dealer = first_player = 0
    for state, move in states:
        views = _observations(state, perspective)
        public = views[0]
        dealer, first_player = public.dealer, public.first_player
        steps.append(_step(rules, len(steps), move, views, perspective, previous))
        previous = public
    return HandReplay(perspective=str(perspective), rules=rules.options(), dealer=dealer, first_player=first_player,
                      steps=steps, tricks=trick_index(steps), game="bidding",
                      rank_order=[str(rank) for rank in ranks_high_to_low(rules.rank_order)
                                  if any(c.rank == rank for c in cards_of(rules.deck_mask))])


def _replayed(record: Any) -> tuple[BiddingRules, Iterator[tuple[BiddingHand, tuple[Seat, BiddingAction] | None]]]:
    """The record checked whole (``replay_bidding_record``), then its states one action at a time."""
    replay_bidding_record(record, require_complete=False)
    state = replay_bidding_record({**record, "actions": [], "result": None}, require_complete=False)
    actions: list[tuple[Seat, BiddingAction]] = []
    for index, entry in enumerate(record["actions"]):
        try:
            actions.append((entry["seat"], parse_bidding_action(entry["action"])))
        except ArenaError as exc:
            raise RecordError(f"actions[{index}]: {exc}") from None

    def states() -> Iterator[tuple[BiddingHand, tuple[Seat, BiddingAction] | None]]:
        yield state, None
        for index, (seat, action) in enumerate(actions):
            try:
                state.apply(action)
            except ArenaError as exc:  # the whole record was checked: only a changed record gets here
                raise RecordError(f"actions[{index}]: {exc}") from None
            yield state, (seat, action)

    return state.rules, states()


def _observations(state: BiddingHand, perspective: Perspective) -> list[BiddingObservation]:
    """The observations a perspective is built from, the table's first: one seat's own; all four,
    the bidder's first; for ``none``, a seat that is not the bidder."""
    if isinstance(perspective, int):
        return [observe_bidding(state, perspective)]
    contract = state.contract
    bidder = contract.bidder if contract is not None else 0
    if perspective == "none":
        return [observe_bidding(state, (bidder + 1) % 4)]
    return [observe_bidding(state, bidder), *(observe_bidding(state, s) for s in range(4) if s != bidder)]


def _step(rules: BiddingRules, index: int, move: tuple[Seat, BiddingAction] | None,
          views: Sequence[BiddingObservation], perspective: Perspective, previous: BiddingObservation | None) -> Step:
    public = views[0]
    own = {view.seat: view for view in views} if perspective != "none" else {}
    finished = previous is not None and len(public.tricks) > len(previous.tricks)
    if finished:
        last = public.tricks[-1]
        trick = [_play(seat, card) for seat, card in zip(last.seats, last.cards, strict=True)]
    else:
        trick = [_play(seat, card) for seat, card in public.current_trick]
    tricks_won = [sum(team_of(t.winner) == team for t in public.tricks) for team in (0, 1)]
    return Step(
        index=index,
        action=_action(move, own),
        trick_number=public.trick_number,
        to_move=public.to_move,
        decision=public.decision.value if public.decision else None,
        dealer=public.dealer,
        seats=[SeatHand(seat=seat, cards=[str(card) for card in own[seat].hand] if seat in own else None,
                        size=public.hand_sizes[seat], to_come=public.cards_to_come[seat]) for seat in range(4)],
        trick=trick,
        trick_complete=finished,
        trick_winner=public.tricks[-1].winner if finished else None,
        pile=[],
        pile_tricks=0,
        streak_holder=None,
        teams=[_team(public, team, tricks_won[team]) for team in (0, 1)],
        trump=_trump(public, own),
        events=_events(rules, move, public, own, previous),
        result=None,
        bidding=BiddingStepView(
            calls=[CallView(seat=seat, text=str(call), bid=call.amount if isinstance(call, Bid) else None)
                   for seat, call in public.calls],
            contract=ContractView(bidder=public.contract.bidder, bid=public.contract.bid,
                                  team=team_of(public.contract.bidder)) if public.contract is not None else None,
            points=list(public.points),
            result=_result(public.result),
        ),
    )


def _play(seat: Seat, card: Card | None) -> Play:
    return Play(seat=seat, card=str(card) if card is not None else None)


def _team(public: BiddingObservation, team: int, tricks_won: int) -> TeamView:
    captured = [card for t in public.tricks if team_of(t.winner) == team for card in t.cards if card is not None]
    tens = sum(c.rank is Rank.TEN for c in captured)
    return TeamView(team=team, captured=[str(card) for card in captured], tens=tens,
                    tricks_won=tricks_won, tricks_captured=tricks_won, points=public.points[team])


def _action(move: tuple[Seat, BiddingAction] | None, own: dict[Seat, BiddingObservation]) -> StepAction | None:
    """The action's text; the face-down card is named only to a perspective that may see it."""
    if move is None:
        return None
    seat, action = move
    if isinstance(action, Bid):
        return StepAction(seat=seat, kind="bid", text=f"bids {action.amount}")
    if isinstance(action, Pass):
        return StepAction(seat=seat, kind="pass", text="passes")
    if isinstance(action, HideTrump):
        known = seat in own and own[seat].hidden_trump_card is not None
        what = str(action.card) if known else "a card"
        return StepAction(seat=seat, kind="hide", text=f"puts {what} face down as trumps")
    if isinstance(action, RevealTrump):
        return StepAction(seat=seat, kind="reveal", text="calls for the trump to be exposed")
    if isinstance(action, PlayCard):
        return StepAction(seat=seat, kind="play", text=f"plays {action.card}")
    raise RecordError(f"{action!r}: not an action a bidding replay knows")


def _trump(public: BiddingObservation, own: dict[Seat, BiddingObservation]) -> TrumpView:
    holder = public.hidden_trump_holder
    known = own.get(holder) if holder is not None else None
    hidden_card = known.hidden_trump_card if known is not None else None
    reveal = public.reveal
    in_force = reveal.card.suit if reveal is not None else None
    suit = in_force if in_force is not None else (hidden_card.suit if hidden_card is not None else None)
    card = hidden_card if hidden_card is not None else (reveal.card if reveal is not None else None)
    bidder = public.contract.bidder if public.contract is not None else None
    return TrumpView(
        method="face_down",
        suit=str(suit) if suit is not None else None,
        in_force=str(in_force) if in_force is not None else None,
        face_down=holder is not None,
        holder=holder if holder is not None else (bidder if reveal is not None else None),
        card=str(card) if card is not None else None,
        revealed=reveal is not None,
        set_by=reveal.seat if reveal is not None else None,
        set_card=str(reveal.card) if reveal is not None else None,
        set_in_trick=reveal.trick if reveal is not None else None,
    )


def _events(rules: BiddingRules, move: tuple[Seat, BiddingAction] | None, public: BiddingObservation,
            own: dict[Seat, BiddingObservation], previous: BiddingObservation | None) -> list[Event]:
    events: list[Event] = []
    action = move[1] if move is not None else None
    if move is not None and isinstance(action, Bid | Pass):
        what = f"bids {action.amount}" if isinstance(action, Bid) else "passes"
        events.append(Event(kind=EventKind.CALL, seat=move[0], text=f"seat {move[0]} {what}"))
    contract = public.contract
    if contract is not None and (previous is None or previous.contract is None):
        team = team_of(contract.bidder)
        events.append(Event(kind=EventKind.CONTRACT, seat=contract.bidder, team=team,
                            text=f"seat {contract.bidder} wins the auction at {contract.bid}: Team "
                                 f"{TEAM_NAMES[team]} needs {contract.bid} of {rules.total_points} points"))
    if move is not None and isinstance(action, HideTrump):
        seat = move[0]
        card = own[seat].hidden_trump_card if seat in own else None
        events.append(Event(kind=EventKind.TRUMP_HIDDEN, seat=seat, card=str(card) if card is not None else None,
                            text=f"seat {seat} puts " + (str(card) if card is not None else "a card") + " face down"))
    reveal = public.reveal
    if reveal is not None and (previous is None or previous.reveal is None):
        events.append(Event(kind=EventKind.TRUMP_REVEALED, seat=reveal.seat, card=str(reveal.card),
                            text=f"seat {reveal.seat} calls for the trump: {reveal.card} is exposed, "
                                 f"trumps are {reveal.card.suit}"))
    if previous is not None and len(public.tricks) > len(previous.tricks):
        trick = public.tricks[-1]
        team = team_of(trick.winner)
        points = card_points(mask_of(c for c in trick.cards if c is not None))
        last = public.points[team] - previous.points[team] - points  # the last trick's point (Twenty-nine)
        extra = f" and {last} for the last trick" if last > 0 else ""
        events.append(Event(kind=EventKind.TRICK_WON, seat=trick.winner, team=team, cards=4, tricks=1,
                            text=f"trick {trick.number} to seat {trick.winner}: Team {TEAM_NAMES[team]} "
                                 f"takes {points} points{extra}"))
    result = public.result
    if result is not None and (previous is None or previous.result is None):
        view = _result(result)
        assert view is not None
        events.append(Event(kind=EventKind.HAND_OVER, team=view.winner, text=_verdict(view)))
    return events


def _result(result: BiddingResult | None) -> BiddingResultView | None:
    if result is None:
        return None
    team = result.bidding_team
    outcome: Literal["made", "failed", "void"] = "void" if result.void else ("made" if result.made else "failed")
    value = float(result.game_points if team == 0 else -result.game_points)
    return BiddingResultView(bidder=result.bidder, bid=result.bid, team=team, points=list(result.points),
                             outcome=outcome, game_points=result.game_points, winner=result.winner, value=value)


def _verdict(result: BiddingResultView) -> str:
    team = TEAM_NAMES[result.team]
    points = f"points A {result.points[0]} - B {result.points[1]}"
    if result.outcome == "void":
        return f"the hand stands invalid: nobody called for the trump in seven tricks ({points})"
    verb = "made" if result.outcome == "made" else "failed"
    return (f"Team {team} {verb} its bid of {result.bid} ({points}): "
            f"{result.game_points:+d} game point{'s' if abs(result.game_points) != 1 else ''} for Team {team}")
