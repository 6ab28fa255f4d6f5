"""The one module that converts between protobuf messages and engine objects.

Nothing else imports the generated code. Enums map by name (engine value ``on_void`` is proto
``REVEAL_ON_VOID``), cards and suits by number plus one, hands by number plus one. Decoding
what a bot sent raises ``ConversionError`` with the field that was wrong: the referee turns
that into a *malformed reply* fault.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from enum import StrEnum
from typing import Any, TypeVar

from google.protobuf.message import DecodeError

from arena.contract.faults import Fault, FaultKind, FaultPolicy
from arena.contract.messages import (
    AnyDecisionRequest,
    AnyHandEnd,
    BiddingDecisionRequest,
    BiddingHandEnd,
    DecisionReply,
    DecisionRequest,
    HandEnd,
    MatchEnd,
    MatchStart,
    Move,
    Termination,
)
from arena.contract.time_control import MoveRelease, TimeControl, TimeControlError
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
from arena.engine.auction import BID, PASS, Bid, Call, Pass
from arena.engine.bidding_hand import BiddingAction, BiddingDecision, Contract
from arena.engine.bidding_observation import BiddingObservation
from arena.engine.bidding_outcome import BiddingMatchScore, BiddingResult
from arena.engine.bidding_rules import AuctionKind, BiddingRules, GamePoints, NoExposure
from arena.engine.cards import CARDS, Card, Suit
from arena.engine.errors import ArenaError, RulesError
from arena.engine.hand import Decision
from arena.engine.match import FormatKind, MatchFormat, MatchScore
from arena.engine.observation import Observation
from arena.engine.outcome import HandOutcome, HandResult, Trick
from arena.engine.ranking import CARD_POINTS_28, RankOrder
from arena.engine.rules import (
    Capture,
    DeckKind,
    Decline,
    Direction,
    HandResultRule,
    HideFrom,
    MakerDiscard,
    Reveal,
    Rules,
    SweepLimits,
    TrumpCard,
    TrumpMethod,
    TwoTwo,
)
from arena.engine.trump import RevealReason, TrumpReveal, TrumpSetting
from protocol import BIDDING_MINOR, PROTOCOL_VERSION, TRUMP_VARIANTS_MINOR
from protocol.gen.dehla.arena.v1 import arena_pb2 as pb
from protocol.gen.dehla.arena.v1 import arena_pb2_grpc as pb_grpc

E = TypeVar("E", bound=StrEnum)
T = TypeVar("T")
PbEnum = Any
"""A protobuf enum number; typed ``Any`` because the stubs type each enum as its own int type."""

NOTIFY_MS = 2000
MAX_REQUEST_ID = 64


class ConversionError(ArenaError):
    """A message that does not decode into engine values; the text names the field."""


# ------------------------------------------------------------------------ scalars and enums
def _enum_to_pb(wrapper: Any, prefix: str, value: StrEnum | None) -> PbEnum:
    if value is None:
        return 0
    return wrapper.Value(f"{prefix}_{value.value.upper()}")


def _enum_from_pb(wrapper: Any, prefix: str, number: int, engine: type[E], where: str) -> E | None:
    if number == 0:
        return None
    try:
        name: str = wrapper.Name(number)
    except ValueError:
        raise ConversionError(f"{where}: {number} is not a known value") from None
    return engine(name.removeprefix(prefix + "_").lower())


def _required(value: T | None, where: str) -> T:
    if value is None:
        raise ConversionError(f"{where}: must be set")
    return value


def card_to_pb(card: int) -> PbEnum:
    return card + 1


def card_from_pb(number: int, where: str) -> Card:
    if not 1 <= number <= 52:
        raise ConversionError(f"{where}: {number} is not a card (expected CARD_2S..CARD_AC)")
    return CARDS[number - 1]


def _cards_from_pb(numbers: Sequence[int], where: str) -> tuple[Card, ...]:
    """Decode a list of cards; the field path is only built when a card is bad."""
    if numbers and (min(numbers) < 1 or max(numbers) > 52):
        for i, n in enumerate(numbers):
            card_from_pb(n, f"{where}[{i}]")
    return tuple(map(_CARD_OF_PB.__getitem__, numbers))


_CARD_OF_PB: tuple[Card, ...] = (CARDS[0], *CARDS)
"""Proto card number -> card (index 0 is never read: it is rejected above)."""


def _optional_card(card: int | None) -> PbEnum:
    return 0 if card is None else card + 1


def _plays_to_pb(seats: Sequence[int], cards: Sequence[int | None], face_down: Sequence[int]) -> list[pb.Play]:
    """Plays of one trick; a face-down card the seat may not see goes as CARD_UNSPECIFIED."""
    plays = [pb.Play(seat=s, card=_optional_card(c)) for s, c in zip(seats, cards, strict=True)]
    for position in face_down:
        plays[position].face_down = True
    return plays


def _plays_from_pb(plays: Sequence[pb.Play], where: str) -> tuple[tuple[Card | None, ...], tuple[int, ...]]:
    """The cards of one trick's plays (``None`` for an unseen face-down card) and the positions
    played face down. Only a face-down play may leave its card unset."""
    numbers = [p.card for p in plays]
    face_down = tuple(i for i, p in enumerate(plays) if p.face_down)
    if not face_down:
        return _cards_from_pb(numbers, where), ()
    cards: list[Card | None] = []
    for i, (n, play) in enumerate(zip(numbers, plays, strict=True)):
        if n == 0 and play.face_down:
            cards.append(None)
        else:
            cards.append(card_from_pb(n, f"{where}[{i}]"))
    return tuple(cards), face_down


def suit_to_pb(suit: int | None) -> PbEnum:
    return 0 if suit is None else suit + 1


def suit_from_pb(number: int, where: str) -> Suit | None:
    if number == 0:
        return None
    if not 1 <= number <= 4:
        raise ConversionError(f"{where}: {number} is not a suit")
    return Suit(number - 1)


def _opt(message: Any, field: str) -> int | None:
    return getattr(message, field) if message.HasField(field) else None


def _pair(values: Sequence[int], where: str) -> tuple[int, int]:
    if len(values) != 2:
        raise ConversionError(f"{where}: expected 2 entries (by team), got {len(values)}")
    return (values[0], values[1])


def _four(values: Sequence[int], where: str) -> tuple[int, int, int, int]:
    if len(values) != 4:
        raise ConversionError(f"{where}: expected 4 entries (by seat), got {len(values)}")
    return (values[0], values[1], values[2], values[3])


# ------------------------------------------------------------------------------ actions
def action_to_pb(action: Move) -> pb.Action:
    """A new message for ``action`` (the caller may change it)."""
    message = pb.Action()
    message.CopyFrom(_action_message(action))
    return message


@functools.cache
def _action_message(action: Move) -> pb.Action:
    """Shared, never changed: the message of an action, built once (an observation lists up to
    13 legal actions each decision; a message field copies what it is given)."""
    if isinstance(action, PlayCard):
        return pb.Action(play_card=pb.PlayCard(card=card_to_pb(action.card), face_down=action.face_down))
    if isinstance(action, CallTrump):
        return pb.Action(call_trump=pb.CallTrump(suit=suit_to_pb(action.suit)))
    if isinstance(action, HideTrump):
        return pb.Action(hide_trump=pb.HideTrump(card=card_to_pb(action.card)))
    if isinstance(action, DeclineTrump):
        return pb.Action(decline_trump=pb.DeclineTrump())
    if isinstance(action, Bid):
        return pb.Action(bid=pb.Bid(amount=action.amount))
    if isinstance(action, Pass):
        return pb.Action(pass_bid=pb.PassBid())
    return pb.Action(reveal_trump=pb.RevealTrump())


def move_from_pb(message: pb.Action, where: str = "action") -> Move:
    """Any action a bot may send: a trick-taking game's, or a bid or a pass (protocol 1.6)."""
    kind = message.WhichOneof("kind")
    if kind == "bid":
        amount = message.bid.amount
        if not 0 < amount < len(BID):
            raise ConversionError(f"{where}.bid.amount: {amount} is not a bid (1..{len(BID) - 1})")
        return BID[amount]
    if kind == "pass_bid":
        return PASS
    return action_from_pb(message, where)


def action_from_pb(message: pb.Action, where: str = "action") -> Action:
    kind = message.WhichOneof("kind")
    if kind == "play_card":
        card = card_from_pb(message.play_card.card, f"{where}.play_card.card")
        return DOWN[card] if message.play_card.face_down else PLAY[card]
    if kind == "hide_trump":
        return HIDE[card_from_pb(message.hide_trump.card, f"{where}.hide_trump.card")]
    if kind == "call_trump":
        suit = suit_from_pb(message.call_trump.suit, f"{where}.call_trump.suit")
        return CALL[_required(suit, f"{where}.call_trump.suit")]
    if kind == "reveal_trump":
        return REVEAL
    if kind == "decline_trump":
        return DECLINE
    if kind in ("bid", "pass_bid"):
        raise ConversionError(f"{where}: {kind} belongs to a bidding game's auction")
    raise ConversionError(f"{where}: no action is set")


# ------------------------------------------------------------------------- match set-up
_RULE_ENUMS: list[tuple[str, str, type[StrEnum]]] = [
    ("direction", "DIRECTION", Direction), ("deck", "DECK_KIND", DeckKind),
    ("trump", "TRUMP_METHOD", TrumpMethod), ("reveal", "REVEAL", Reveal),
    ("hide_from", "HIDE_FROM", HideFrom), ("maker_discard", "MAKER_DISCARD", MakerDiscard),
    ("capture", "CAPTURE", Capture), ("sweep_limits", "SWEEP_LIMITS", SweepLimits),
    ("hand_result", "HAND_RESULT_RULE", HandResultRule), ("two_two", "TWO_TWO", TwoTwo),
    ("trump_card", "TRUMP_CARD", TrumpCard), ("decline", "DECLINE", Decline),
]
_PB_ENUM = {
    "direction": pb.Direction, "deck": pb.DeckKind, "trump": pb.TrumpMethod, "reveal": pb.Reveal,
    "hide_from": pb.HideFrom, "maker_discard": pb.MakerDiscard,
    "capture": pb.Capture, "sweep_limits": pb.SweepLimits, "hand_result": pb.HandResultRule,
    "two_two": pb.TwoTwo, "trump_card": pb.TrumpCard, "decline": pb.Decline,
}


def rules_to_pb(rules: Rules) -> pb.Rules:
    """The rules message, built once per rules object (it is sent with every decision)."""
    message = pb.Rules()
    message.CopyFrom(_rules_message(rules))
    return message


@functools.lru_cache(maxsize=64)
def _rules_message(rules: Rules) -> pb.Rules:
    options = rules.options()
    message = pb.Rules(
        bonus_aces=rules.bonus_aces, mendikot_bonus=rules.mendikot_bonus,
        kot_bonus=rules.kot_bonus, early_end=rules.early_end,
        # Protocol 1.5: sent only where set, so the older rules' bytes stay as they were.
        hidden_blind=rules.hidden_blind, trump_card_index=rules.trump_card_index or 0,
    )
    for name, prefix, _ in _RULE_ENUMS:
        value = getattr(rules, name) if name in options else None
        setattr(message, name, _enum_to_pb(_PB_ENUM[name], prefix, value))
    return message


def rules_from_pb(message: pb.Rules, where: str = "rules") -> Rules:
    """Decode and validate rules; cached by the message's bytes (they repeat every decision)."""
    return _rules_from_bytes(message.SerializeToString(deterministic=True), where)


@functools.lru_cache(maxsize=64)
def _rules_from_bytes(data: bytes, where: str) -> Rules:
    message = pb.Rules.FromString(data)
    values: dict[str, Any] = {
        "bonus_aces": message.bonus_aces, "mendikot_bonus": message.mendikot_bonus,
        "kot_bonus": message.kot_bonus, "early_end": message.early_end,
        "hidden_blind": message.hidden_blind,
    }
    if message.trump_card_index:
        values["trump_card_index"] = message.trump_card_index
    for name, prefix, engine in _RULE_ENUMS:
        value = _enum_from_pb(_PB_ENUM[name], prefix, getattr(message, name), engine, f"{where}.{name}")
        if value is not None:
            values[name] = value
    try:  # typed values already: built directly, so a bot never needs pydantic (engine/rules.py)
        return Rules(**values)
    except RulesError as exc:
        raise ConversionError(f"{where}: {exc}") from None


def match_format_to_pb(match_format: MatchFormat) -> pb.MatchFormat:
    kind = _enum_to_pb(pb.MatchFormatKind, "MATCH_FORMAT_KIND", match_format.kind)
    return pb.MatchFormat(kind=kind, count=match_format.count)


def match_format_from_pb(message: pb.MatchFormat, where: str = "match_format") -> MatchFormat:
    kind = _enum_from_pb(pb.MatchFormatKind, "MATCH_FORMAT_KIND", message.kind, FormatKind, f"{where}.kind")
    return MatchFormat(_required(kind, f"{where}.kind"), message.count)


def _ms(seconds: float) -> int:
    return round(seconds * 1000)


_RELEASE_PB = {MoveRelease.ON_REPLY: pb.MOVE_RELEASE_ON_REPLY, MoveRelease.SLOT_END: pb.MOVE_RELEASE_SLOT_END}
_RELEASE_FROM_PB = {number: release for release, number in _RELEASE_PB.items()}
"""A hyphenated value (``on-reply``) does not map by name; UNSPECIFIED (a 1.2 referee) is on-reply."""


def time_control_to_pb(control: TimeControl) -> pb.TimeControl:
    return pb.TimeControl(per_move_ms=_ms(control.per_move), time_bank_ms=_ms(control.bank),
                          grace_ms=_ms(control.grace), start_up_ms=_ms(control.startup),
                          notify_ms=NOTIFY_MS, release=_RELEASE_PB[control.release])


def time_control_from_pb(message: pb.TimeControl) -> TimeControl:
    if message.release == pb.MOVE_RELEASE_UNSPECIFIED:
        release = MoveRelease.ON_REPLY
    elif message.release in _RELEASE_FROM_PB:
        release = _RELEASE_FROM_PB[message.release]
    else:
        raise ConversionError(f"time_control.release: {message.release} is not a known value")
    try:
        return TimeControl(per_move=message.per_move_ms / 1000, bank=message.time_bank_ms / 1000,
                           grace=message.grace_ms / 1000, startup=message.start_up_ms / 1000, release=release)
    except TimeControlError as exc:
        raise ConversionError(f"time_control: {exc}") from None


def start_to_pb(start: MatchStart) -> pb.StartMatchRequest:
    major, minor = PROTOCOL_VERSION
    message = pb.StartMatchRequest(
        protocol_version=pb.ProtocolVersion(major=major, minor=minor),
        match_id=start.match_id, seat=start.seat, partner=start.partner, preset=start.preset,
        match_format=match_format_to_pb(start.match_format),
        time_control=time_control_to_pb(start.time_control),
        fault_policy=_enum_to_pb(pb.FaultPolicy, "FAULT_POLICY", start.policy),
        seat_seed=start.seat_seed,
    )
    if isinstance(start.rules, BiddingRules):
        message.bidding_rules.CopyFrom(bidding_rules_to_pb(start.rules))
    else:
        message.rules.CopyFrom(rules_to_pb(start.rules))
    return message


def start_from_pb(message: pb.StartMatchRequest) -> MatchStart:
    policy = _enum_from_pb(pb.FaultPolicy, "FAULT_POLICY", message.fault_policy, FaultPolicy,
                           "fault_policy")
    rules = (bidding_rules_from_pb(message.bidding_rules) if message.HasField("bidding_rules")
             else rules_from_pb(message.rules))
    return MatchStart(
        match_id=message.match_id, seat=message.seat, partner=message.partner, preset=message.preset,
        rules=rules, match_format=match_format_from_pb(message.match_format),
        time_control=time_control_from_pb(message.time_control),
        policy=policy or FaultPolicy.FORFEIT, seat_seed=message.seat_seed,
    )


# ------------------------------------------------------------------------------ the view
def observation_to_pb(obs: Observation) -> pb.Observation:
    message = pb.Observation(
        rules=rules_to_pb(obs.rules), seat=obs.seat, dealer=obs.dealer,
        first_player=obs.first_player,
        decision=_enum_to_pb(pb.Decision, "DECISION", obs.decision),
        legal_actions=[_action_message(a) for a in obs.legal_actions],
        hand=[card_to_pb(c) for c in obs.hand], hand_sizes=obs.hand_sizes,
        cards_to_come=obs.cards_to_come, trump=suit_to_pb(obs.trump),
        trump_in_force=suit_to_pb(obs.trump_in_force),
        hidden_trump_card=_optional_card(obs.hidden_trump_card),
        must_play_trump=obs.must_play_trump, trick_number=obs.trick_number,
        current_trick=_plays_to_pb([s for s, _ in obs.current_trick], [c for _, c in obs.current_trick],
                                   obs.current_face_down),
        tricks=[_trick_message(t) for t in obs.tricks], pile=[card_to_pb(c) for c in obs.pile],
        pile_tricks=obs.pile_tricks,
        captured=[pb.Cards(cards=[card_to_pb(c) for c in team]) for team in obs.captured],
        tens=obs.tens, tricks_won=obs.tricks_won, tricks_captured=obs.tricks_captured,
    )
    if obs.pile_face_down or any(obs.captured_face_down):
        message.pile_face_down = obs.pile_face_down
        message.captured_face_down.extend(obs.captured_face_down)
    if obs.to_move is not None:
        message.to_move = obs.to_move
    if obs.hidden_trump_holder is not None:
        message.hidden_trump_holder = obs.hidden_trump_holder
    if obs.streak_holder is not None:
        message.streak_holder = obs.streak_holder
    if obs.trump_setting is not None:
        message.trump_setting.CopyFrom(_setting_to_pb(obs.trump_setting))
    if obs.reveal is not None:
        message.reveal.CopyFrom(_reveal_to_pb(obs.reveal))
    if obs.result is not None:
        message.result.CopyFrom(result_to_pb(obs.result))
    if obs.match is not None:
        message.match.CopyFrom(score_to_pb(obs.match))
    return message


def observation_from_pb(message: pb.Observation, where: str = "observation") -> Observation:
    hidden = message.hidden_trump_card
    current, current_down = _plays_from_pb(message.current_trick, f"{where}.current_trick")
    return Observation(
        rules=rules_from_pb(message.rules, f"{where}.rules"), seat=message.seat,
        dealer=message.dealer, first_player=message.first_player, to_move=_opt(message, "to_move"),
        decision=_enum_from_pb(pb.Decision, "DECISION", message.decision, Decision, f"{where}.decision"),
        legal_actions=tuple(action_from_pb(a, f"{where}.legal_actions[{i}]")
                            for i, a in enumerate(message.legal_actions)),
        hand=_cards_from_pb(message.hand, f"{where}.hand"),
        hand_sizes=_four(message.hand_sizes, f"{where}.hand_sizes"),
        cards_to_come=_four(message.cards_to_come, f"{where}.cards_to_come"),
        trump=suit_from_pb(message.trump, f"{where}.trump"),
        trump_in_force=suit_from_pb(message.trump_in_force, f"{where}.trump_in_force"),
        trump_setting=(_setting_from_pb(message.trump_setting, f"{where}.trump_setting")
                       if message.HasField("trump_setting") else None),
        hidden_trump_holder=_opt(message, "hidden_trump_holder"),
        hidden_trump_card=card_from_pb(hidden, f"{where}.hidden_trump_card") if hidden else None,
        reveal=_reveal_from_pb(message.reveal, f"{where}.reveal") if message.HasField("reveal") else None,
        must_play_trump=message.must_play_trump, trick_number=message.trick_number,
        current_trick=tuple(zip((p.seat for p in message.current_trick), current, strict=True)),
        tricks=tuple(_trick_from_pb(t, f"{where}.tricks[{i}]") for i, t in enumerate(message.tricks)),
        pile=_cards_from_pb(message.pile, f"{where}.pile"), pile_tricks=message.pile_tricks,
        streak_holder=_opt(message, "streak_holder"),
        captured=_captured_from_pb(message.captured, f"{where}.captured"),
        tens=_pair(message.tens, f"{where}.tens"),
        tricks_won=_pair(message.tricks_won, f"{where}.tricks_won"),
        tricks_captured=_pair(message.tricks_captured, f"{where}.tricks_captured"),
        result=result_from_pb(message.result, f"{where}.result") if message.HasField("result") else None,
        match=score_from_pb(message.match) if message.HasField("match") else None,
        current_face_down=current_down,
        pile_face_down=message.pile_face_down,
        captured_face_down=(_pair(message.captured_face_down, f"{where}.captured_face_down")
                            if message.captured_face_down else (0, 0)),
    )


def _captured_from_pb(teams: Sequence[pb.Cards], where: str) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    if len(teams) != 2:
        raise ConversionError(f"{where}: expected 2 entries (by team), got {len(teams)}")
    return (_cards_from_pb(teams[0].cards, f"{where}[0]"), _cards_from_pb(teams[1].cards, f"{where}[1]"))


@functools.lru_cache(maxsize=4096)
def _trick_message(trick: Trick) -> pb.Trick:
    """A finished trick never changes: its message is built once and reused."""
    return _trick_to_pb(trick)


def _trick_to_pb(trick: Trick) -> pb.Trick:
    message = pb.Trick(
        number=trick.number, leader=trick.leader, winner=trick.winner,
        plays=_plays_to_pb(trick.seats, trick.cards, trick.face_down),
        tricks_taken=trick.tricks_taken,
    )
    if trick.taken_by is not None:
        message.taken_by = trick.taken_by
    return message


def _trick_from_pb(message: pb.Trick, where: str) -> Trick:
    """Decode a finished trick; the same tricks come with every request, so decoded ones are
    kept by their bytes (a bounded cache)."""
    key = message.SerializeToString(deterministic=True)
    trick = _DECODED_TRICKS.get(key)
    if trick is None:
        trick = _decode_trick(message, where)
        if len(_DECODED_TRICKS) >= 4096:
            _DECODED_TRICKS.clear()
        _DECODED_TRICKS[key] = trick
    return trick


_DECODED_TRICKS: dict[bytes, Trick] = {}


def _decode_trick(message: pb.Trick, where: str) -> Trick:
    plays = message.plays
    cards, face_down = _plays_from_pb(plays, f"{where}.plays")
    return Trick(message.number, message.leader, tuple(p.seat for p in plays), cards,
                 message.winner, _opt(message, "taken_by"), message.tricks_taken, face_down)


def _setting_to_pb(setting: TrumpSetting) -> pb.TrumpSetting:
    message = pb.TrumpSetting(
        suit=suit_to_pb(setting.suit), method=_enum_to_pb(pb.TrumpMethod, "TRUMP_METHOD", setting.method),
        trick=setting.trick, card=_optional_card(setting.card),
    )
    if setting.seat is not None:
        message.seat = setting.seat
    return message


def _setting_from_pb(message: pb.TrumpSetting, where: str) -> TrumpSetting:
    method = _enum_from_pb(pb.TrumpMethod, "TRUMP_METHOD", message.method, TrumpMethod, f"{where}.method")
    return TrumpSetting(
        suit=_required(suit_from_pb(message.suit, f"{where}.suit"), f"{where}.suit"),
        method=_required(method, f"{where}.method"), trick=message.trick,
        card=card_from_pb(message.card, f"{where}.card") if message.card else None,
        seat=_opt(message, "seat"),
    )


def _reveal_to_pb(reveal: TrumpReveal) -> pb.TrumpReveal:
    return pb.TrumpReveal(trick=reveal.trick, position=reveal.position, seat=reveal.seat,
                          card=card_to_pb(reveal.card),
                          reason=_enum_to_pb(pb.RevealReason, "REVEAL_REASON", reveal.reason))


def _reveal_from_pb(message: pb.TrumpReveal, where: str) -> TrumpReveal:
    reason = _enum_from_pb(pb.RevealReason, "REVEAL_REASON", message.reason, RevealReason, f"{where}.reason")
    return TrumpReveal(message.trick, message.position, message.seat,
                       card_from_pb(message.card, f"{where}.card"), _required(reason, f"{where}.reason"))


# ------------------------------------------------------------------------------- results
def result_to_pb(result: HandResult) -> pb.HandResult:
    message = pb.HandResult(
        outcome=_enum_to_pb(pb.HandOutcome, "HAND_OUTCOME", result.outcome), tens=result.tens,
        tricks_won=result.tricks_won, tricks_captured=result.tricks_captured,
        tricks_played=result.tricks_played, kot=result.kot, mendikot=result.mendikot,
        all_aces=result.all_aces, points=result.points,
    )
    if result.winner is not None:
        message.winner = result.winner
    return message


def result_from_pb(message: pb.HandResult, where: str = "result") -> HandResult:
    outcome = _enum_from_pb(pb.HandOutcome, "HAND_OUTCOME", message.outcome, HandOutcome, f"{where}.outcome")
    return HandResult(
        winner=_opt(message, "winner"), outcome=_required(outcome, f"{where}.outcome"),
        tens=_pair(message.tens, f"{where}.tens"),
        tricks_won=_pair(message.tricks_won, f"{where}.tricks_won"),
        tricks_captured=_pair(message.tricks_captured, f"{where}.tricks_captured"),
        tricks_played=message.tricks_played, kot=message.kot, mendikot=message.mendikot,
        all_aces=message.all_aces, points=message.points,
    )


def score_to_pb(score: MatchScore) -> pb.MatchScore:
    # ``tens`` (protocol 1.4) only in a tens match: the other formats' messages stay as before.
    tens = score.tens if score.tens != (0, 0) else ()
    return pb.MatchScore(dealer=score.dealer, hands_played=score.hands_played, kots=score.kots,
                         points=score.points, hands_won=score.hands_won, runs=score.runs, tens=tens)


def score_from_pb(message: pb.MatchScore, where: str = "match") -> MatchScore:
    return MatchScore(
        dealer=message.dealer, hands_played=message.hands_played,
        kots=_pair(message.kots, f"{where}.kots"), points=_pair(message.points, f"{where}.points"),
        hands_won=_pair(message.hands_won, f"{where}.hands_won"), runs=_pair(message.runs, f"{where}.runs"),
        tens=_pair(message.tens, f"{where}.tens") if message.tens else (0, 0),
    )


def fault_to_pb(fault: Fault) -> pb.Fault:
    return pb.Fault(seat=fault.seat, kind=_enum_to_pb(pb.FaultKind, "FAULT_KIND", fault.kind),
                    detail=fault.detail, hand_number=0 if fault.hand is None else fault.hand + 1,
                    request_id=fault.request_id)


def fault_from_pb(message: pb.Fault, where: str = "fault") -> Fault:
    kind = _enum_from_pb(pb.FaultKind, "FAULT_KIND", message.kind, FaultKind, f"{where}.kind")
    return Fault(message.seat, "", _required(kind, f"{where}.kind"), message.detail,
                 message.hand_number - 1 if message.hand_number else None, None, message.request_id)


# ------------------------------------------------------------------------------ the calls
def decision_to_pb(request: AnyDecisionRequest, match_id: str) -> pb.DecideRequest:
    message = pb.DecideRequest(
        request_id=request.request_id, match_id=match_id, hand_number=request.hand_index + 1,
        per_move_ms=_ms(request.per_move), time_bank_ms=_ms(request.bank_left),
    )
    if isinstance(request, BiddingDecisionRequest):
        message.bidding_observation.CopyFrom(bidding_observation_to_pb(request.observation))
    else:
        message.observation.CopyFrom(observation_to_pb(request.observation))
    return message


def decision_from_pb(message: pb.DecideRequest) -> AnyDecisionRequest:
    if message.HasField("bidding_observation"):
        return BiddingDecisionRequest(
            request_id=message.request_id, hand_index=message.hand_number - 1,
            observation=bidding_observation_from_pb(message.bidding_observation),
            per_move=message.per_move_ms / 1000, bank_left=message.time_bank_ms / 1000,
        )
    return DecisionRequest(
        request_id=message.request_id, hand_index=message.hand_number - 1,
        observation=observation_from_pb(message.observation), per_move=message.per_move_ms / 1000,
        bank_left=message.time_bank_ms / 1000,
    )


def reply_to_pb(reply: DecisionReply) -> pb.DecideResponse:
    return pb.DecideResponse(request_id=reply.request_id, action=_action_message(reply.action))


DECIDE_METHOD = "/dehla.arena.v1.BotService/Decide"
"""The full method name of Decide, for a call whose reply the referee reads as bytes."""


def serialize(message: Any) -> bytes:
    return bytes(message.SerializeToString())


def reply_from_bytes(data: bytes) -> DecisionReply:
    """Decode a bot's reply from its bytes; anything off is a ``ConversionError``."""
    try:
        message = pb.DecideResponse.FromString(data)
    except DecodeError:
        raise ConversionError("reply is not a DecideResponse") from None
    return reply_from_pb(message)


def reply_from_pb(message: pb.DecideResponse) -> DecisionReply:
    """Decode a bot's reply; anything off is a ``ConversionError`` (a malformed reply)."""
    if len(message.request_id) > MAX_REQUEST_ID:
        raise ConversionError(f"request_id: longer than {MAX_REQUEST_ID} characters")
    if not message.HasField("action"):
        raise ConversionError("action: no action in the reply")
    return DecisionReply(message.request_id, move_from_pb(message.action))


def hand_end_to_pb(end: AnyHandEnd, match_id: str) -> pb.EndHandRequest:
    if isinstance(end, BiddingHandEnd):
        return pb.EndHandRequest(
            match_id=match_id, hand_number=end.hand_index + 1,
            deal=[pb.Cards(cards=[card_to_pb(c) for c in hand]) for hand in end.hands],
            bidding_result=bidding_result_to_pb(end.result),
            bidding_observation=bidding_observation_to_pb(end.observation),
            bidding_match=bidding_score_to_pb(end.score),
        )
    message = pb.EndHandRequest(
        match_id=match_id, hand_number=end.hand_index + 1, result=result_to_pb(end.result),
        deal=[pb.Cards(cards=[card_to_pb(c) for c in hand]) for hand in end.hands],
        observation=observation_to_pb(end.observation),
    )
    if end.score is not None:
        message.match.CopyFrom(score_to_pb(end.score))
    return message


def hand_end_from_pb(message: pb.EndHandRequest) -> AnyHandEnd:
    hands = tuple(_cards_from_pb(h.cards, f"deal[{i}]") for i, h in enumerate(message.deal))
    if message.HasField("bidding_result"):
        return BiddingHandEnd(
            hand_index=message.hand_number - 1, result=bidding_result_from_pb(message.bidding_result),
            hands=hands, observation=bidding_observation_from_pb(message.bidding_observation),
            score=bidding_score_from_pb(message.bidding_match, "bidding_match"),
        )
    return HandEnd(
        hand_index=message.hand_number - 1, result=result_from_pb(message.result),
        hands=tuple(_cards_from_pb(h.cards, f"deal[{i}]") for i, h in enumerate(message.deal)),
        observation=observation_from_pb(message.observation),
        score=score_from_pb(message.match) if message.HasField("match") else None,
    )


def match_end_to_pb(end: MatchEnd, match_id: str) -> pb.EndMatchRequest:
    result = pb.MatchResult(
        termination=_enum_to_pb(pb.Termination, "TERMINATION", end.termination),
        faults=[fault_to_pb(f) for f in end.faults],
    )
    if isinstance(end.score, BiddingMatchScore):
        result.bidding_score.CopyFrom(bidding_score_to_pb(end.score))
    else:
        result.score.CopyFrom(score_to_pb(end.score))
    if end.winner_team is not None:
        result.winner = end.winner_team
    return pb.EndMatchRequest(match_id=match_id, result=result)


def match_end_from_pb(message: pb.EndMatchRequest) -> MatchEnd:
    result = message.result
    termination = _enum_from_pb(pb.Termination, "TERMINATION", result.termination, Termination,
                                "result.termination")
    return MatchEnd(
        termination=_required(termination, "result.termination"), winner_team=_opt(result, "winner"),
        score=(bidding_score_from_pb(result.bidding_score, "result.bidding_score")
               if result.HasField("bidding_score") else score_from_pb(result.score, "result.score")),
        faults=tuple(fault_from_pb(f, f"result.faults[{i}]") for i, f in enumerate(result.faults)),
    )


# ------------------------------------------------------------------- service bindings
# Re-exported so that no other module imports the generated code.
BotServiceStub: Any = pb_grpc.BotServiceStub
BotServiceServicer = pb_grpc.BotServiceServicer
add_bot_service: Any = pb_grpc.add_BotServiceServicer_to_server


def protocol_major(request: pb.StartMatchRequest) -> int:
    return request.protocol_version.major


def start_response(bot_name: str, bot_version: str) -> pb.StartMatchResponse:
    major, minor = PROTOCOL_VERSION
    return pb.StartMatchResponse(protocol_version=pb.ProtocolVersion(major=major, minor=minor),
                                 bot_name=bot_name, bot_version=bot_version)


def end_hand_response() -> pb.EndHandResponse:
    return pb.EndHandResponse()


def end_match_response() -> pb.EndMatchResponse:
    return pb.EndMatchResponse()


def start_response_from_pb(message: pb.StartMatchResponse) -> tuple[tuple[int, int], str, str]:
    """((protocol major, minor), bot name, bot version) from a bot's StartMatch answer."""
    version = message.protocol_version
    return (version.major, version.minor), message.bot_name, message.bot_version


def minor_needed(rules: Rules | BiddingRules, preset: str = "") -> tuple[int, str] | None:
    """The protocol minor version a bot must speak to play ``rules``, with the options that need
    it, or ``None`` when any 1.x bot can: a bot older than the options would not see them on the
    wire (unknown fields are skipped) and so would play other rules than the referee's. A
    bidding game needs 1.6 (an older bot would see no rules and no decision it can read)."""
    if isinstance(rules, BiddingRules):
        return BIDDING_MINOR, f"the bidding game {preset}" if preset else "a bidding game"
    used = [
        f"{name}={str(value).lower() if isinstance(value, bool) else value}"
        for name, value in rules.options().items() if name in _TRUMP_VARIANT_OPTIONS
    ]
    return (TRUMP_VARIANTS_MINOR, ", ".join(used)) if used else None


_TRUMP_VARIANT_OPTIONS = frozenset({"hidden_blind", "trump_card", "trump_card_index", "decline"})
"""Seed 003's trump variants (protocol 1.5); ``Rules.options`` lists them only where set."""


# ------------------------------------------------------------------ bidding games (1.6)
_BIDDING_ENUMS: list[tuple[str, str, type[StrEnum], Any]] = [
    ("direction", "DIRECTION", Direction, pb.Direction),
    ("rank_order", "RANK_ORDER", RankOrder, pb.RankOrder),
    ("auction", "AUCTION_KIND", AuctionKind, pb.AuctionKind),
    ("no_exposure", "NO_EXPOSURE", NoExposure, pb.NoExposure),
    ("game_points", "GAME_POINTS", GamePoints, pb.GamePoints),
]
_BIDDING_INTS = ("last_trick_points", "min_bid", "max_bid", "overbid_partner_min", "target")


@functools.lru_cache(maxsize=16)
def _bidding_rules_message(rules: BiddingRules) -> pb.BiddingRules:
    message = pb.BiddingRules(card_points=CARD_POINTS_28)
    for name in _BIDDING_INTS:
        setattr(message, name, getattr(rules, name))
    for name, prefix, _, wrapper in _BIDDING_ENUMS:
        setattr(message, name, _enum_to_pb(wrapper, prefix, getattr(rules, name)))
    return message


def bidding_rules_to_pb(rules: BiddingRules) -> pb.BiddingRules:
    message = pb.BiddingRules()
    message.CopyFrom(_bidding_rules_message(rules))
    return message


def bidding_rules_from_pb(message: pb.BiddingRules, where: str = "bidding_rules") -> BiddingRules:
    """Decode and validate a bidding game's rules (``card_points`` is informational)."""
    return _bidding_rules_from_bytes(message.SerializeToString(deterministic=True), where)


@functools.lru_cache(maxsize=16)
def _bidding_rules_from_bytes(data: bytes, where: str) -> BiddingRules:
    message = pb.BiddingRules.FromString(data)
    values: dict[str, Any] = {name: getattr(message, name) for name in _BIDDING_INTS}
    for name, prefix, engine, wrapper in _BIDDING_ENUMS:
        values[name] = _required(_enum_from_pb(wrapper, prefix, getattr(message, name), engine, f"{where}.{name}"),
                                 f"{where}.{name}")
    try:
        return BiddingRules(**values)
    except RulesError as exc:
        raise ConversionError(f"{where}: {exc}") from None


def _calls_to_pb(calls: Sequence[tuple[int, Call]]) -> list[pb.SeatCall]:
    return [pb.SeatCall(seat=seat, bid=call.amount) if isinstance(call, Bid) else pb.SeatCall(seat=seat)
            for seat, call in calls]


def _calls_from_pb(calls: Sequence[pb.SeatCall], where: str) -> tuple[tuple[int, Call], ...]:
    out: list[tuple[int, Call]] = []
    for i, call in enumerate(calls):
        if not call.HasField("bid"):
            out.append((call.seat, PASS))
        elif 0 < call.bid < len(BID):
            out.append((call.seat, BID[call.bid]))
        else:
            raise ConversionError(f"{where}[{i}].bid: {call.bid} is not a bid")
    return tuple(out)


def bidding_observation_to_pb(obs: BiddingObservation) -> pb.BiddingObservation:
    message = pb.BiddingObservation(
        rules=_bidding_rules_message(obs.rules), seat=obs.seat, dealer=obs.dealer,
        first_player=obs.first_player,
        decision=_enum_to_pb(pb.Decision, "DECISION", obs.decision),
        legal_actions=[_action_message(a) for a in obs.legal_actions],
        hand=[card_to_pb(c) for c in obs.hand], hand_sizes=obs.hand_sizes,
        cards_to_come=obs.cards_to_come, calls=_calls_to_pb(obs.calls), trump=suit_to_pb(obs.trump),
        hidden_trump_card=_optional_card(obs.hidden_trump_card), trump_led=obs.trump_led,
        must_play_trump=obs.must_play_trump, trick_number=obs.trick_number,
        current_trick=_plays_to_pb([s for s, _ in obs.current_trick], [c for _, c in obs.current_trick], ()),
        tricks=[_trick_message(t) for t in obs.tricks], points=obs.points,
    )
    if obs.to_move is not None:
        message.to_move = obs.to_move
    if obs.hidden_trump_holder is not None:
        message.hidden_trump_holder = obs.hidden_trump_holder
    if obs.contract is not None:
        message.contract.CopyFrom(pb.Contract(bidder=obs.contract.bidder, bid=obs.contract.bid))
    if obs.reveal is not None:
        message.reveal.CopyFrom(_reveal_to_pb(obs.reveal))
    if obs.result is not None:
        message.result.CopyFrom(bidding_result_to_pb(obs.result))
    if obs.match is not None:
        message.match.CopyFrom(bidding_score_to_pb(obs.match))
    return message


def _bidding_action(move: Move, where: str) -> BiddingAction:
    if isinstance(move, CallTrump | DeclineTrump):
        raise ConversionError(f"{where}: not an action of a bidding game")
    return move


def bidding_observation_from_pb(message: pb.BiddingObservation,
                                where: str = "bidding_observation") -> BiddingObservation:
    hidden = message.hidden_trump_card
    current, _ = _plays_from_pb(message.current_trick, f"{where}.current_trick")
    decision = _enum_from_pb(pb.Decision, "DECISION", message.decision, BiddingDecision, f"{where}.decision")
    contract = (Contract(message.contract.bidder, message.contract.bid)
                if message.HasField("contract") else None)
    return BiddingObservation(
        rules=bidding_rules_from_pb(message.rules, f"{where}.rules"), seat=message.seat,
        dealer=message.dealer, first_player=message.first_player, to_move=_opt(message, "to_move"),
        decision=decision,
        legal_actions=tuple(_bidding_action(move_from_pb(a, f"{where}.legal_actions[{i}]"),
                                            f"{where}.legal_actions[{i}]")
                            for i, a in enumerate(message.legal_actions)),
        hand=_cards_from_pb(message.hand, f"{where}.hand"),
        hand_sizes=_four(message.hand_sizes, f"{where}.hand_sizes"),
        cards_to_come=_four(message.cards_to_come, f"{where}.cards_to_come"),
        calls=_calls_from_pb(message.calls, f"{where}.calls"), contract=contract,
        trump=suit_from_pb(message.trump, f"{where}.trump"),
        hidden_trump_holder=_opt(message, "hidden_trump_holder"),
        hidden_trump_card=card_from_pb(hidden, f"{where}.hidden_trump_card") if hidden else None,
        reveal=_reveal_from_pb(message.reveal, f"{where}.reveal") if message.HasField("reveal") else None,
        trump_led=message.trump_led, must_play_trump=message.must_play_trump,
        trick_number=message.trick_number,
        current_trick=tuple(zip((p.seat for p in message.current_trick),
                                (_required(c, f"{where}.current_trick") for c in current), strict=True)),
        tricks=tuple(_trick_from_pb(t, f"{where}.tricks[{i}]") for i, t in enumerate(message.tricks)),
        points=_pair(message.points, f"{where}.points"),
        result=(bidding_result_from_pb(message.result, f"{where}.result")
                if message.HasField("result") else None),
        match=bidding_score_from_pb(message.match, f"{where}.match") if message.HasField("match") else None,
    )


def bidding_result_to_pb(result: BiddingResult) -> pb.BiddingResult:
    return pb.BiddingResult(bidder=result.bidder, bid=result.bid, points=result.points, void=result.void,
                            made=result.made, game_points=result.game_points,
                            tricks_played=result.tricks_played)


def bidding_result_from_pb(message: pb.BiddingResult, where: str = "bidding_result") -> BiddingResult:
    return BiddingResult(message.bidder, message.bid, _pair(message.points, f"{where}.points"), message.void,
                         message.made, message.game_points, message.tricks_played)


def bidding_score_to_pb(score: BiddingMatchScore) -> pb.BiddingMatchScore:
    return pb.BiddingMatchScore(dealer=score.dealer, hands_played=score.hands_played, points=score.points)


def bidding_score_from_pb(message: pb.BiddingMatchScore, where: str = "bidding_match") -> BiddingMatchScore:
    return BiddingMatchScore(message.dealer, message.hands_played, _pair(message.points, f"{where}.points"))
