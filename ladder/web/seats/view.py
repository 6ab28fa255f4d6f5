"""What the browser is shown of a person's table: built from the seat's ``SeatMoment`` alone,
that is from the observations the referee sent the seat (``observe()``), and the table's public
facts (its id, the rules' preset, the bots' names, whether it ended). Nothing here reads the
referee, the deal or the record, so nothing here can show a card the seat may not see; the leak
test (``tests/web/test_seat_leaks.py``) scans every response against the engine's own view."""

from __future__ import annotations

import time
from typing import Any

from pydantic import BaseModel, ConfigDict

from arena.engine.actions import CallTrump, DeclineTrump, HideTrump, PlayCard, RevealTrump
from arena.engine.auction import Bid, Pass
from arena.engine.bidding_observation import BiddingObservation
from arena.engine.bidding_outcome import BiddingMatchScore, BiddingResult
from arena.engine.cards import Card, Suit
from arena.engine.match import MatchScore
from arena.engine.observation import Observation
from arena.engine.outcome import HandResult
from ladder.web.seats.person import SeatMoment
from ladder.web.seats.tables import PersonTable

SUIT_SYMBOLS = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}
SUIT_NAMES = {Suit.SPADES: "spades", Suit.HEARTS: "hearts", Suit.DIAMONDS: "diamonds", Suit.CLUBS: "clubs"}
TEAMS = ("Team A", "Team B")


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True)


class CardView(_Model):
    text: str
    """``10H``: the engine's text."""
    label: str
    """``10♥``: as drawn."""
    red: bool
    legal: bool = False
    action: str | None = None
    """The move that plays it now (``play 10H``, ``hide 10H``), when legal."""


class ChoiceView(_Model):
    """A decision that is not a card of the hand: a trump call, declining, a reveal, a face-down discard."""

    action: str
    label: str


class CallView(_Model):
    """One call of a bidding game's auction (bids are public)."""

    seat: int
    who: str
    call: str
    """``bid 16`` or ``pass``."""


class PlayView(_Model):
    seat: int
    who: str
    card: CardView | None
    """``None``: played face down, unseen by this seat."""


class SeatView(_Model):
    """The table as seat 0 sees it now."""

    table_id: str
    match_id: str
    preset: str
    game: str
    """``tricks`` (Dehla Pakad and the other trick-taking games) or ``bidding`` (Twenty-eight, Twenty-nine)."""
    length: str
    seats: tuple[str, str, str, str]
    phase: str
    """``starting``, ``your-turn``, ``waiting`` (the bots play), ``hand-over`` or ``finished``
    (the seat's match is over; the table may still be ending: wait for ``finished``)."""
    turn: int
    decision: str | None
    seconds_left: float | None
    per_move: float
    bank_left: float
    hand: tuple[CardView, ...]
    choices: tuple[ChoiceView, ...]
    trick: tuple[PlayView, ...]
    last_trick: tuple[PlayView, ...]
    trump: str | None
    trump_note: str
    hand_sizes: tuple[int, int, int, int]
    pile: int
    tens: tuple[int, int]
    tricks_won: tuple[int, int]
    tricks_captured: tuple[int, int]
    auction: tuple[CallView, ...] = ()
    """A bidding game's calls so far, in order (empty for a trick-taking game)."""
    contract: str | None = None
    """A bidding game's contract once the auction is over: who bid how much."""
    card_points: tuple[int, int] = (0, 0)
    """A bidding game's card points per team so far."""
    score: str
    hands_done: int
    last_result: str | None
    finished: bool
    """The table has ended (its record written, its bots stopped); ``outcome`` is then set."""
    outcome: str | None
    record_page: str | None


def card_view(card: Card, action: str | None = None) -> CardView:
    return CardView(text=str(card), label=f"{card.rank}{SUIT_SYMBOLS[card.suit]}",
                    red=card.suit in (Suit.HEARTS, Suit.DIAMONDS), legal=action is not None, action=action)


def _hand(observation: Observation | BiddingObservation) -> tuple[tuple[CardView, ...], tuple[ChoiceView, ...]]:
    by_card: dict[Card, str] = {}
    choices: list[ChoiceView] = []
    for action in observation.legal_actions:
        if isinstance(action, Bid):
            choices.append(ChoiceView(action=str(action), label=f"Bid {action.amount}"))
            continue
        if isinstance(action, Pass):
            choices.append(ChoiceView(action=str(action), label="Pass"))
            continue
        if isinstance(action, RevealTrump) and isinstance(observation, BiddingObservation):
            choices.append(ChoiceView(action=str(action), label="Call for the trump to be exposed"))
            continue
        if (isinstance(action, PlayCard) and not action.face_down) or isinstance(action, HideTrump):
            by_card[action.card] = str(action)
        elif isinstance(action, PlayCard):
            choices.append(ChoiceView(action=str(action), label=f"{card_view(action.card).label} face down"))
        elif isinstance(action, CallTrump):
            choices.append(ChoiceView(action=str(action), label=f"Trumps: {SUIT_SYMBOLS[action.suit]} "
                                                                f"{SUIT_NAMES[action.suit]}"))
        elif isinstance(action, DeclineTrump):
            choices.append(ChoiceView(action=str(action), label="Decline to choose trumps"))
        elif isinstance(action, RevealTrump):
            choices.append(ChoiceView(action=str(action), label="Reveal the trump"))
    held = set(observation.hand)
    for card, move in by_card.items():
        if card not in held:  # the maker's face-down trump, played from the table (``reveal: on_play``)
            choices.append(ChoiceView(action=move, label=f"Play your face-down trump {card_view(card).label}"))
    return tuple(card_view(c, by_card.get(c)) for c in observation.hand), tuple(choices)


def _plays(seats: tuple[int, ...], cards: tuple[Card | None, ...], names: tuple[str, ...]) -> tuple[PlayView, ...]:
    return tuple(PlayView(seat=s, who=names[s], card=None if c is None else card_view(c))
                 for s, c in zip(seats, cards, strict=True))


def _trump(observation: Observation | BiddingObservation) -> tuple[str | None, str]:
    if observation.trump is not None:
        suit = observation.trump
        note = "" if observation.hidden_trump_card is None or observation.reveal is not None else \
            f"face down, yours: {card_view(observation.hidden_trump_card).label} (not yet shown)"
        return f"{SUIT_SYMBOLS[suit]} {SUIT_NAMES[suit]}", note
    if observation.hidden_trump_holder is not None:
        return None, f"face down (seat {observation.hidden_trump_holder} set it)"
    return None, "not chosen yet"


def result_text(result: HandResult | BiddingResult) -> str:
    if isinstance(result, BiddingResult):
        return _bidding_result_text(result)
    if result.winner is None:
        return f"Hand drawn (tens {result.tens[0]}–{result.tens[1]})"
    extra = " — a kot!" if result.kot else ""
    return (f"{TEAMS[result.winner]} won the hand (tens {result.tens[0]}–{result.tens[1]}, "
            f"tricks {result.tricks_won[0]}–{result.tricks_won[1]}){extra}")


def _bidding_result_text(result: BiddingResult) -> str:
    team = TEAMS[result.bidding_team]
    if result.void:
        return f"Hand void: nobody called for the trump in time (seat {result.bidder} bid {result.bid})"
    made = "made" if result.made else "failed"
    return (f"{team} {made} its bid of {result.bid} (seat {result.bidder}): card points "
            f"{result.points[0]}–{result.points[1]}, game points {result.game_points:+d}")


def _score(match: MatchScore | BiddingMatchScore | None) -> str:
    if match is None:
        return ""
    if isinstance(match, BiddingMatchScore):
        return f"Game points A {match.points[0]} – B {match.points[1]}"
    return (f"Hands won {match.hands_won[0]}–{match.hands_won[1]} · kots {match.kots[0]}–{match.kots[1]}"
            + (f" · points {match.points[0]}–{match.points[1]}" if any(match.points) else ""))


def _outcome(table: PersonTable) -> str | None:
    if not table.finished:
        return None
    outcome = table.outcome
    if outcome is None:
        return f"The table ended: {table.failure or 'stopped'}"
    if outcome.void_reason:
        return f"The match was void: {outcome.void_reason}"
    faults = "; ".join(f"{f.bot} (seat {f.seat}): {f.kind.value}, {f.detail}" for f in outcome.faults)
    winner = "a draw" if outcome.winner_team is None else f"{TEAMS[outcome.winner_team]} won"
    return f"Match over: {winner}, {outcome.score[0]:g}–{outcome.score[1]:g}" + (f" ({faults})" if faults else "")


def _phase(moment: SeatMoment, table: PersonTable) -> str:
    if table.finished or moment.match_over:
        return "finished"
    if moment.observation is None:
        return "starting"
    if moment.waiting:
        return "your-turn"
    return "hand-over" if moment.at_hand_end else "waiting"


def seat_view(table: PersonTable, moment: SeatMoment, now: float | None = None) -> SeatView:
    """The page's facts for ``moment`` (``PersonBot.moment``) of ``table``."""
    now = time.monotonic() if now is None else now
    names = table.seat_names
    observation = moment.observation
    hand: tuple[CardView, ...] = ()
    choices: tuple[ChoiceView, ...] = ()
    trick: tuple[PlayView, ...] = ()
    last: tuple[PlayView, ...] = ()
    trump, trump_note = None, "not chosen yet"
    if observation is not None:
        if moment.waiting:
            hand, choices = _hand(observation)
        else:
            hand = tuple(card_view(c) for c in observation.hand)
        trick = tuple(PlayView(seat=s, who=names[s], card=None if c is None else card_view(c))
                      for s, c in observation.current_trick)
        if observation.tricks:
            done = observation.tricks[-1]
            last = _plays(done.seats, done.cards, names)
        trump, trump_note = _trump(observation)
    left = None if moment.deadline is None else max(0.0, moment.deadline - now)
    return SeatView(
        table_id=table.table_id, match_id=table.match_id, preset=table.choice.preset,
        game="bidding" if table.choice.bidding else "tricks",
        length=table.choice.length.value, seats=names, phase=_phase(moment, table), turn=moment.turn,
        decision=None if observation is None or observation.decision is None or not moment.waiting
        else observation.decision.value,
        seconds_left=None if left is None else round(left, 1), per_move=moment.per_move,
        bank_left=round(moment.bank_left, 1), hand=hand, choices=choices, trick=trick, last_trick=last,
        trump=trump, trump_note=trump_note,
        hand_sizes=observation.hand_sizes if observation else (0, 0, 0, 0),
        **(_bidding_facts(observation, names) if isinstance(observation, BiddingObservation)
           else _trick_facts(observation)),
        score=_score(moment.score), hands_done=moment.hands_done,
        last_result=None if moment.last_result is None else result_text(moment.last_result),
        finished=table.finished, outcome=_outcome(table),
        record_page=f"/local/{table.match_id}" if table.finished else None)


def _trick_facts(observation: Observation | None) -> dict[str, Any]:
    """A trick-taking game's pile, tens and tricks (zero before the first observation)."""
    return {
        "pile": len(observation.pile) + observation.pile_face_down if observation else 0,
        "tens": observation.tens if observation else (0, 0),
        "tricks_won": observation.tricks_won if observation else (0, 0),
        "tricks_captured": observation.tricks_captured if observation else (0, 0),
    }


def _bidding_facts(observation: BiddingObservation, names: tuple[str, ...]) -> dict[str, Any]:
    """A bidding game's public auction, contract, card points and tricks per team (no tens, no pile)."""
    contract = observation.contract
    return {
        "pile": 0, "tens": (0, 0), "tricks_won": observation.tricks_won, "tricks_captured": observation.tricks_won,
        "auction": tuple(CallView(seat=seat, who=names[seat], call=str(call)) for seat, call in observation.calls),
        "contract": None if contract is None else
        f"{names[contract.bidder]} (seat {contract.bidder}, {TEAMS[contract.team]}) bid {contract.bid}",
        "card_points": observation.points,
    }
