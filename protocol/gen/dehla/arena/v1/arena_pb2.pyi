from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class MoveRelease(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    MOVE_RELEASE_UNSPECIFIED: _ClassVar[MoveRelease]
    MOVE_RELEASE_ON_REPLY: _ClassVar[MoveRelease]
    MOVE_RELEASE_SLOT_END: _ClassVar[MoveRelease]

class MatchFormatKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    MATCH_FORMAT_KIND_UNSPECIFIED: _ClassVar[MatchFormatKind]
    MATCH_FORMAT_KIND_HANDS: _ClassVar[MatchFormatKind]
    MATCH_FORMAT_KIND_KOTS: _ClassVar[MatchFormatKind]
    MATCH_FORMAT_KIND_DUPLICATE: _ClassVar[MatchFormatKind]
    MATCH_FORMAT_KIND_TENS: _ClassVar[MatchFormatKind]

class Direction(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    DIRECTION_UNSPECIFIED: _ClassVar[Direction]
    DIRECTION_CLOCKWISE: _ClassVar[Direction]
    DIRECTION_ANTICLOCKWISE: _ClassVar[Direction]

class DeckKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    DECK_KIND_UNSPECIFIED: _ClassVar[DeckKind]
    DECK_KIND_FULL52: _ClassVar[DeckKind]
    DECK_KIND_SHORT32: _ClassVar[DeckKind]

class TrumpMethod(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TRUMP_METHOD_UNSPECIFIED: _ClassVar[TrumpMethod]
    TRUMP_METHOD_CALLED: _ClassVar[TrumpMethod]
    TRUMP_METHOD_CUT: _ClassVar[TrumpMethod]
    TRUMP_METHOD_FIRST_DISCARD: _ClassVar[TrumpMethod]
    TRUMP_METHOD_HIDDEN: _ClassVar[TrumpMethod]
    TRUMP_METHOD_OPEN_RANDOM: _ClassVar[TrumpMethod]
    TRUMP_METHOD_NONE: _ClassVar[TrumpMethod]

class Reveal(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    REVEAL_UNSPECIFIED: _ClassVar[Reveal]
    REVEAL_ON_VOID: _ClassVar[Reveal]
    REVEAL_ON_REQUEST: _ClassVar[Reveal]
    REVEAL_ON_PLAY: _ClassVar[Reveal]

class HideFrom(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    HIDE_FROM_UNSPECIFIED: _ClassVar[HideFrom]
    HIDE_FROM_FIRST_PACKET: _ClassVar[HideFrom]
    HIDE_FROM_FULL_HAND: _ClassVar[HideFrom]

class TrumpCard(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TRUMP_CARD_UNSPECIFIED: _ClassVar[TrumpCard]
    TRUMP_CARD_FIRST_PACKET: _ClassVar[TrumpCard]
    TRUMP_CARD_LATER: _ClassVar[TrumpCard]

class Decline(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    DECLINE_UNSPECIFIED: _ClassVar[Decline]
    DECLINE_NONE: _ClassVar[Decline]
    DECLINE_SECOND_PACKET: _ClassVar[Decline]

class MakerDiscard(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    MAKER_DISCARD_UNSPECIFIED: _ClassVar[MakerDiscard]
    MAKER_DISCARD_OPEN: _ClassVar[MakerDiscard]
    MAKER_DISCARD_FACE_DOWN: _ClassVar[MakerDiscard]

class Capture(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    CAPTURE_UNSPECIFIED: _ClassVar[Capture]
    CAPTURE_SWEEP: _ClassVar[Capture]
    CAPTURE_DIRECT: _ClassVar[Capture]

class SweepLimits(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SWEEP_LIMITS_UNSPECIFIED: _ClassVar[SweepLimits]
    SWEEP_LIMITS_NONE: _ClassVar[SweepLimits]
    SWEEP_LIMITS_COURT_PIECE: _ClassVar[SweepLimits]

class HandResultRule(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    HAND_RESULT_RULE_UNSPECIFIED: _ClassVar[HandResultRule]
    HAND_RESULT_RULE_TENS: _ClassVar[HandResultRule]
    HAND_RESULT_RULE_MENDIKOT: _ClassVar[HandResultRule]
    HAND_RESULT_RULE_SEVEN_TRICKS: _ClassVar[HandResultRule]

class TwoTwo(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TWO_TWO_UNSPECIFIED: _ClassVar[TwoTwo]
    TWO_TWO_NON_DEALER: _ClassVar[TwoTwo]
    TWO_TWO_TRICKS_WON_AT_TABLE: _ClassVar[TwoTwo]
    TWO_TWO_TRICKS_CAPTURED: _ClassVar[TwoTwo]
    TWO_TWO_DRAW: _ClassVar[TwoTwo]

class Card(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    CARD_UNSPECIFIED: _ClassVar[Card]
    CARD_2S: _ClassVar[Card]
    CARD_3S: _ClassVar[Card]
    CARD_4S: _ClassVar[Card]
    CARD_5S: _ClassVar[Card]
    CARD_6S: _ClassVar[Card]
    CARD_7S: _ClassVar[Card]
    CARD_8S: _ClassVar[Card]
    CARD_9S: _ClassVar[Card]
    CARD_10S: _ClassVar[Card]
    CARD_JS: _ClassVar[Card]
    CARD_QS: _ClassVar[Card]
    CARD_KS: _ClassVar[Card]
    CARD_AS: _ClassVar[Card]
    CARD_2H: _ClassVar[Card]
    CARD_3H: _ClassVar[Card]
    CARD_4H: _ClassVar[Card]
    CARD_5H: _ClassVar[Card]
    CARD_6H: _ClassVar[Card]
    CARD_7H: _ClassVar[Card]
    CARD_8H: _ClassVar[Card]
    CARD_9H: _ClassVar[Card]
    CARD_10H: _ClassVar[Card]
    CARD_JH: _ClassVar[Card]
    CARD_QH: _ClassVar[Card]
    CARD_KH: _ClassVar[Card]
    CARD_AH: _ClassVar[Card]
    CARD_2D: _ClassVar[Card]
    CARD_3D: _ClassVar[Card]
    CARD_4D: _ClassVar[Card]
    CARD_5D: _ClassVar[Card]
    CARD_6D: _ClassVar[Card]
    CARD_7D: _ClassVar[Card]
    CARD_8D: _ClassVar[Card]
    CARD_9D: _ClassVar[Card]
    CARD_10D: _ClassVar[Card]
    CARD_JD: _ClassVar[Card]
    CARD_QD: _ClassVar[Card]
    CARD_KD: _ClassVar[Card]
    CARD_AD: _ClassVar[Card]
    CARD_2C: _ClassVar[Card]
    CARD_3C: _ClassVar[Card]
    CARD_4C: _ClassVar[Card]
    CARD_5C: _ClassVar[Card]
    CARD_6C: _ClassVar[Card]
    CARD_7C: _ClassVar[Card]
    CARD_8C: _ClassVar[Card]
    CARD_9C: _ClassVar[Card]
    CARD_10C: _ClassVar[Card]
    CARD_JC: _ClassVar[Card]
    CARD_QC: _ClassVar[Card]
    CARD_KC: _ClassVar[Card]
    CARD_AC: _ClassVar[Card]

class Suit(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SUIT_UNSPECIFIED: _ClassVar[Suit]
    SUIT_SPADES: _ClassVar[Suit]
    SUIT_HEARTS: _ClassVar[Suit]
    SUIT_DIAMONDS: _ClassVar[Suit]
    SUIT_CLUBS: _ClassVar[Suit]

class Decision(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    DECISION_UNSPECIFIED: _ClassVar[Decision]
    DECISION_CALL_TRUMP: _ClassVar[Decision]
    DECISION_HIDE_TRUMP: _ClassVar[Decision]
    DECISION_PLAY: _ClassVar[Decision]
    DECISION_BID: _ClassVar[Decision]

class RevealReason(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    REVEAL_REASON_UNSPECIFIED: _ClassVar[RevealReason]
    REVEAL_REASON_VOID: _ClassVar[RevealReason]
    REVEAL_REASON_REQUEST: _ClassVar[RevealReason]
    REVEAL_REASON_LAST_CARD: _ClassVar[RevealReason]
    REVEAL_REASON_PLAYED: _ClassVar[RevealReason]

class HandOutcome(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    HAND_OUTCOME_UNSPECIFIED: _ClassVar[HandOutcome]
    HAND_OUTCOME_FOUR_TENS: _ClassVar[HandOutcome]
    HAND_OUTCOME_THREE_TENS: _ClassVar[HandOutcome]
    HAND_OUTCOME_TWO_TWO_NON_DEALER: _ClassVar[HandOutcome]
    HAND_OUTCOME_TWO_TWO_TRICKS_WON_AT_TABLE: _ClassVar[HandOutcome]
    HAND_OUTCOME_TWO_TWO_TRICKS_CAPTURED: _ClassVar[HandOutcome]
    HAND_OUTCOME_TWO_TWO_DRAW: _ClassVar[HandOutcome]
    HAND_OUTCOME_MAJORITY_OF_TRICKS: _ClassVar[HandOutcome]
    HAND_OUTCOME_TRICKS_TIED: _ClassVar[HandOutcome]

class Termination(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TERMINATION_UNSPECIFIED: _ClassVar[Termination]
    TERMINATION_COMPLETED: _ClassVar[Termination]
    TERMINATION_FAULT: _ClassVar[Termination]
    TERMINATION_ABORTED: _ClassVar[Termination]

class FaultKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    FAULT_KIND_UNSPECIFIED: _ClassVar[FaultKind]
    FAULT_KIND_TIMEOUT: _ClassVar[FaultKind]
    FAULT_KIND_ILLEGAL_ACTION: _ClassVar[FaultKind]
    FAULT_KIND_MALFORMED_REPLY: _ClassVar[FaultKind]
    FAULT_KIND_CRASH: _ClassVar[FaultKind]
    FAULT_KIND_FAILED_START: _ClassVar[FaultKind]

class FaultPolicy(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    FAULT_POLICY_UNSPECIFIED: _ClassVar[FaultPolicy]
    FAULT_POLICY_FORFEIT: _ClassVar[FaultPolicy]
    FAULT_POLICY_SUBSTITUTE: _ClassVar[FaultPolicy]

class RankOrder(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    RANK_ORDER_UNSPECIFIED: _ClassVar[RankOrder]
    RANK_ORDER_ACE_HIGH: _ClassVar[RankOrder]
    RANK_ORDER_JACK_NINE: _ClassVar[RankOrder]

class AuctionKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    AUCTION_KIND_UNSPECIFIED: _ClassVar[AuctionKind]
    AUCTION_KIND_UNTIL_THREE_PASSES: _ClassVar[AuctionKind]
    AUCTION_KIND_SINGLE_ROUND: _ClassVar[AuctionKind]

class NoExposure(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    NO_EXPOSURE_UNSPECIFIED: _ClassVar[NoExposure]
    NO_EXPOSURE_VOID: _ClassVar[NoExposure]
    NO_EXPOSURE_LAST_TRICK: _ClassVar[NoExposure]

class GamePoints(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    GAME_POINTS_UNSPECIFIED: _ClassVar[GamePoints]
    GAME_POINTS_ONE: _ClassVar[GamePoints]
    GAME_POINTS_BY_BID: _ClassVar[GamePoints]
MOVE_RELEASE_UNSPECIFIED: MoveRelease
MOVE_RELEASE_ON_REPLY: MoveRelease
MOVE_RELEASE_SLOT_END: MoveRelease
MATCH_FORMAT_KIND_UNSPECIFIED: MatchFormatKind
MATCH_FORMAT_KIND_HANDS: MatchFormatKind
MATCH_FORMAT_KIND_KOTS: MatchFormatKind
MATCH_FORMAT_KIND_DUPLICATE: MatchFormatKind
MATCH_FORMAT_KIND_TENS: MatchFormatKind
DIRECTION_UNSPECIFIED: Direction
DIRECTION_CLOCKWISE: Direction
DIRECTION_ANTICLOCKWISE: Direction
DECK_KIND_UNSPECIFIED: DeckKind
DECK_KIND_FULL52: DeckKind
DECK_KIND_SHORT32: DeckKind
TRUMP_METHOD_UNSPECIFIED: TrumpMethod
TRUMP_METHOD_CALLED: TrumpMethod
TRUMP_METHOD_CUT: TrumpMethod
TRUMP_METHOD_FIRST_DISCARD: TrumpMethod
TRUMP_METHOD_HIDDEN: TrumpMethod
TRUMP_METHOD_OPEN_RANDOM: TrumpMethod
TRUMP_METHOD_NONE: TrumpMethod
REVEAL_UNSPECIFIED: Reveal
REVEAL_ON_VOID: Reveal
REVEAL_ON_REQUEST: Reveal
REVEAL_ON_PLAY: Reveal
HIDE_FROM_UNSPECIFIED: HideFrom
HIDE_FROM_FIRST_PACKET: HideFrom
HIDE_FROM_FULL_HAND: HideFrom
TRUMP_CARD_UNSPECIFIED: TrumpCard
TRUMP_CARD_FIRST_PACKET: TrumpCard
TRUMP_CARD_LATER: TrumpCard
DECLINE_UNSPECIFIED: Decline
DECLINE_NONE: Decline
DECLINE_SECOND_PACKET: Decline
MAKER_DISCARD_UNSPECIFIED: MakerDiscard
MAKER_DISCARD_OPEN: MakerDiscard
MAKER_DISCARD_FACE_DOWN: MakerDiscard
CAPTURE_UNSPECIFIED: Capture
CAPTURE_SWEEP: Capture
CAPTURE_DIRECT: Capture
SWEEP_LIMITS_UNSPECIFIED: SweepLimits
SWEEP_LIMITS_NONE: SweepLimits
SWEEP_LIMITS_COURT_PIECE: SweepLimits
HAND_RESULT_RULE_UNSPECIFIED: HandResultRule
HAND_RESULT_RULE_TENS: HandResultRule
HAND_RESULT_RULE_MENDIKOT: HandResultRule
HAND_RESULT_RULE_SEVEN_TRICKS: HandResultRule
TWO_TWO_UNSPECIFIED: TwoTwo
TWO_TWO_NON_DEALER: TwoTwo
TWO_TWO_TRICKS_WON_AT_TABLE: TwoTwo
TWO_TWO_TRICKS_CAPTURED: TwoTwo
TWO_TWO_DRAW: TwoTwo
CARD_UNSPECIFIED: Card
CARD_2S: Card
CARD_3S: Card
CARD_4S: Card
CARD_5S: Card
CARD_6S: Card
CARD_7S: Card
CARD_8S: Card
CARD_9S: Card
CARD_10S: Card
CARD_JS: Card
CARD_QS: Card
CARD_KS: Card
CARD_AS: Card
CARD_2H: Card
CARD_3H: Card
CARD_4H: Card
CARD_5H: Card
CARD_6H: Card
CARD_7H: Card
CARD_8H: Card
CARD_9H: Card
CARD_10H: Card
CARD_JH: Card
CARD_QH: Card
CARD_KH: Card
CARD_AH: Card
CARD_2D: Card
CARD_3D: Card
CARD_4D: Card
CARD_5D: Card
CARD_6D: Card
CARD_7D: Card
CARD_8D: Card
CARD_9D: Card
CARD_10D: Card
CARD_JD: Card
CARD_QD: Card
CARD_KD: Card
CARD_AD: Card
CARD_2C: Card
CARD_3C: Card
CARD_4C: Card
CARD_5C: Card
CARD_6C: Card
CARD_7C: Card
CARD_8C: Card
CARD_9C: Card
CARD_10C: Card
CARD_JC: Card
CARD_QC: Card
CARD_KC: Card
CARD_AC: Card
SUIT_UNSPECIFIED: Suit
SUIT_SPADES: Suit
SUIT_HEARTS: Suit
SUIT_DIAMONDS: Suit
SUIT_CLUBS: Suit
DECISION_UNSPECIFIED: Decision
DECISION_CALL_TRUMP: Decision
DECISION_HIDE_TRUMP: Decision
DECISION_PLAY: Decision
DECISION_BID: Decision
REVEAL_REASON_UNSPECIFIED: RevealReason
REVEAL_REASON_VOID: RevealReason
REVEAL_REASON_REQUEST: RevealReason
REVEAL_REASON_LAST_CARD: RevealReason
REVEAL_REASON_PLAYED: RevealReason
HAND_OUTCOME_UNSPECIFIED: HandOutcome
HAND_OUTCOME_FOUR_TENS: HandOutcome
HAND_OUTCOME_THREE_TENS: HandOutcome
HAND_OUTCOME_TWO_TWO_NON_DEALER: HandOutcome
HAND_OUTCOME_TWO_TWO_TRICKS_WON_AT_TABLE: HandOutcome
HAND_OUTCOME_TWO_TWO_TRICKS_CAPTURED: HandOutcome
HAND_OUTCOME_TWO_TWO_DRAW: HandOutcome
HAND_OUTCOME_MAJORITY_OF_TRICKS: HandOutcome
HAND_OUTCOME_TRICKS_TIED: HandOutcome
TERMINATION_UNSPECIFIED: Termination
TERMINATION_COMPLETED: Termination
TERMINATION_FAULT: Termination
TERMINATION_ABORTED: Termination
FAULT_KIND_UNSPECIFIED: FaultKind
FAULT_KIND_TIMEOUT: FaultKind
FAULT_KIND_ILLEGAL_ACTION: FaultKind
FAULT_KIND_MALFORMED_REPLY: FaultKind
FAULT_KIND_CRASH: FaultKind
FAULT_KIND_FAILED_START: FaultKind
FAULT_POLICY_UNSPECIFIED: FaultPolicy
FAULT_POLICY_FORFEIT: FaultPolicy
FAULT_POLICY_SUBSTITUTE: FaultPolicy
RANK_ORDER_UNSPECIFIED: RankOrder
RANK_ORDER_ACE_HIGH: RankOrder
RANK_ORDER_JACK_NINE: RankOrder
AUCTION_KIND_UNSPECIFIED: AuctionKind
AUCTION_KIND_UNTIL_THREE_PASSES: AuctionKind
AUCTION_KIND_SINGLE_ROUND: AuctionKind
NO_EXPOSURE_UNSPECIFIED: NoExposure
NO_EXPOSURE_VOID: NoExposure
NO_EXPOSURE_LAST_TRICK: NoExposure
GAME_POINTS_UNSPECIFIED: GamePoints
GAME_POINTS_ONE: GamePoints
GAME_POINTS_BY_BID: GamePoints

class StartMatchRequest(_message.Message):
    __slots__ = ("protocol_version", "match_id", "seat", "partner", "preset", "rules", "match_format", "time_control", "fault_policy", "seat_seed", "bidding_rules")
    PROTOCOL_VERSION_FIELD_NUMBER: _ClassVar[int]
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PARTNER_FIELD_NUMBER: _ClassVar[int]
    PRESET_FIELD_NUMBER: _ClassVar[int]
    RULES_FIELD_NUMBER: _ClassVar[int]
    MATCH_FORMAT_FIELD_NUMBER: _ClassVar[int]
    TIME_CONTROL_FIELD_NUMBER: _ClassVar[int]
    FAULT_POLICY_FIELD_NUMBER: _ClassVar[int]
    SEAT_SEED_FIELD_NUMBER: _ClassVar[int]
    BIDDING_RULES_FIELD_NUMBER: _ClassVar[int]
    protocol_version: ProtocolVersion
    match_id: str
    seat: int
    partner: int
    preset: str
    rules: Rules
    match_format: MatchFormat
    time_control: TimeControl
    fault_policy: FaultPolicy
    seat_seed: int
    bidding_rules: BiddingRules
    def __init__(self, protocol_version: _Optional[_Union[ProtocolVersion, _Mapping]] = ..., match_id: _Optional[str] = ..., seat: _Optional[int] = ..., partner: _Optional[int] = ..., preset: _Optional[str] = ..., rules: _Optional[_Union[Rules, _Mapping]] = ..., match_format: _Optional[_Union[MatchFormat, _Mapping]] = ..., time_control: _Optional[_Union[TimeControl, _Mapping]] = ..., fault_policy: _Optional[_Union[FaultPolicy, str]] = ..., seat_seed: _Optional[int] = ..., bidding_rules: _Optional[_Union[BiddingRules, _Mapping]] = ...) -> None: ...

class StartMatchResponse(_message.Message):
    __slots__ = ("protocol_version", "bot_name", "bot_version")
    PROTOCOL_VERSION_FIELD_NUMBER: _ClassVar[int]
    BOT_NAME_FIELD_NUMBER: _ClassVar[int]
    BOT_VERSION_FIELD_NUMBER: _ClassVar[int]
    protocol_version: ProtocolVersion
    bot_name: str
    bot_version: str
    def __init__(self, protocol_version: _Optional[_Union[ProtocolVersion, _Mapping]] = ..., bot_name: _Optional[str] = ..., bot_version: _Optional[str] = ...) -> None: ...

class DecideRequest(_message.Message):
    __slots__ = ("request_id", "match_id", "hand_number", "observation", "per_move_ms", "time_bank_ms", "bidding_observation")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    HAND_NUMBER_FIELD_NUMBER: _ClassVar[int]
    OBSERVATION_FIELD_NUMBER: _ClassVar[int]
    PER_MOVE_MS_FIELD_NUMBER: _ClassVar[int]
    TIME_BANK_MS_FIELD_NUMBER: _ClassVar[int]
    BIDDING_OBSERVATION_FIELD_NUMBER: _ClassVar[int]
    request_id: str
    match_id: str
    hand_number: int
    observation: Observation
    per_move_ms: int
    time_bank_ms: int
    bidding_observation: BiddingObservation
    def __init__(self, request_id: _Optional[str] = ..., match_id: _Optional[str] = ..., hand_number: _Optional[int] = ..., observation: _Optional[_Union[Observation, _Mapping]] = ..., per_move_ms: _Optional[int] = ..., time_bank_ms: _Optional[int] = ..., bidding_observation: _Optional[_Union[BiddingObservation, _Mapping]] = ...) -> None: ...

class DecideResponse(_message.Message):
    __slots__ = ("request_id", "action")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    request_id: str
    action: Action
    def __init__(self, request_id: _Optional[str] = ..., action: _Optional[_Union[Action, _Mapping]] = ...) -> None: ...

class EndHandRequest(_message.Message):
    __slots__ = ("match_id", "hand_number", "result", "deal", "observation", "match", "bidding_result", "bidding_observation", "bidding_match")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    HAND_NUMBER_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    DEAL_FIELD_NUMBER: _ClassVar[int]
    OBSERVATION_FIELD_NUMBER: _ClassVar[int]
    MATCH_FIELD_NUMBER: _ClassVar[int]
    BIDDING_RESULT_FIELD_NUMBER: _ClassVar[int]
    BIDDING_OBSERVATION_FIELD_NUMBER: _ClassVar[int]
    BIDDING_MATCH_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    hand_number: int
    result: HandResult
    deal: _containers.RepeatedCompositeFieldContainer[Cards]
    observation: Observation
    match: MatchScore
    bidding_result: BiddingResult
    bidding_observation: BiddingObservation
    bidding_match: BiddingMatchScore
    def __init__(self, match_id: _Optional[str] = ..., hand_number: _Optional[int] = ..., result: _Optional[_Union[HandResult, _Mapping]] = ..., deal: _Optional[_Iterable[_Union[Cards, _Mapping]]] = ..., observation: _Optional[_Union[Observation, _Mapping]] = ..., match: _Optional[_Union[MatchScore, _Mapping]] = ..., bidding_result: _Optional[_Union[BiddingResult, _Mapping]] = ..., bidding_observation: _Optional[_Union[BiddingObservation, _Mapping]] = ..., bidding_match: _Optional[_Union[BiddingMatchScore, _Mapping]] = ...) -> None: ...

class EndHandResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class EndMatchRequest(_message.Message):
    __slots__ = ("match_id", "result")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    result: MatchResult
    def __init__(self, match_id: _Optional[str] = ..., result: _Optional[_Union[MatchResult, _Mapping]] = ...) -> None: ...

class EndMatchResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ProtocolVersion(_message.Message):
    __slots__ = ("major", "minor")
    MAJOR_FIELD_NUMBER: _ClassVar[int]
    MINOR_FIELD_NUMBER: _ClassVar[int]
    major: int
    minor: int
    def __init__(self, major: _Optional[int] = ..., minor: _Optional[int] = ...) -> None: ...

class TimeControl(_message.Message):
    __slots__ = ("per_move_ms", "time_bank_ms", "grace_ms", "start_up_ms", "notify_ms", "release")
    PER_MOVE_MS_FIELD_NUMBER: _ClassVar[int]
    TIME_BANK_MS_FIELD_NUMBER: _ClassVar[int]
    GRACE_MS_FIELD_NUMBER: _ClassVar[int]
    START_UP_MS_FIELD_NUMBER: _ClassVar[int]
    NOTIFY_MS_FIELD_NUMBER: _ClassVar[int]
    RELEASE_FIELD_NUMBER: _ClassVar[int]
    per_move_ms: int
    time_bank_ms: int
    grace_ms: int
    start_up_ms: int
    notify_ms: int
    release: MoveRelease
    def __init__(self, per_move_ms: _Optional[int] = ..., time_bank_ms: _Optional[int] = ..., grace_ms: _Optional[int] = ..., start_up_ms: _Optional[int] = ..., notify_ms: _Optional[int] = ..., release: _Optional[_Union[MoveRelease, str]] = ...) -> None: ...

class MatchFormat(_message.Message):
    __slots__ = ("kind", "count")
    KIND_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    kind: MatchFormatKind
    count: int
    def __init__(self, kind: _Optional[_Union[MatchFormatKind, str]] = ..., count: _Optional[int] = ...) -> None: ...

class Rules(_message.Message):
    __slots__ = ("direction", "deck", "trump", "reveal", "capture", "sweep_limits", "hand_result", "two_two", "bonus_aces", "mendikot_bonus", "kot_bonus", "early_end", "maker_discard", "hide_from", "hidden_blind", "trump_card", "trump_card_index", "decline")
    DIRECTION_FIELD_NUMBER: _ClassVar[int]
    DECK_FIELD_NUMBER: _ClassVar[int]
    TRUMP_FIELD_NUMBER: _ClassVar[int]
    REVEAL_FIELD_NUMBER: _ClassVar[int]
    CAPTURE_FIELD_NUMBER: _ClassVar[int]
    SWEEP_LIMITS_FIELD_NUMBER: _ClassVar[int]
    HAND_RESULT_FIELD_NUMBER: _ClassVar[int]
    TWO_TWO_FIELD_NUMBER: _ClassVar[int]
    BONUS_ACES_FIELD_NUMBER: _ClassVar[int]
    MENDIKOT_BONUS_FIELD_NUMBER: _ClassVar[int]
    KOT_BONUS_FIELD_NUMBER: _ClassVar[int]
    EARLY_END_FIELD_NUMBER: _ClassVar[int]
    MAKER_DISCARD_FIELD_NUMBER: _ClassVar[int]
    HIDE_FROM_FIELD_NUMBER: _ClassVar[int]
    HIDDEN_BLIND_FIELD_NUMBER: _ClassVar[int]
    TRUMP_CARD_FIELD_NUMBER: _ClassVar[int]
    TRUMP_CARD_INDEX_FIELD_NUMBER: _ClassVar[int]
    DECLINE_FIELD_NUMBER: _ClassVar[int]
    direction: Direction
    deck: DeckKind
    trump: TrumpMethod
    reveal: Reveal
    capture: Capture
    sweep_limits: SweepLimits
    hand_result: HandResultRule
    two_two: TwoTwo
    bonus_aces: bool
    mendikot_bonus: int
    kot_bonus: int
    early_end: bool
    maker_discard: MakerDiscard
    hide_from: HideFrom
    hidden_blind: bool
    trump_card: TrumpCard
    trump_card_index: int
    decline: Decline
    def __init__(self, direction: _Optional[_Union[Direction, str]] = ..., deck: _Optional[_Union[DeckKind, str]] = ..., trump: _Optional[_Union[TrumpMethod, str]] = ..., reveal: _Optional[_Union[Reveal, str]] = ..., capture: _Optional[_Union[Capture, str]] = ..., sweep_limits: _Optional[_Union[SweepLimits, str]] = ..., hand_result: _Optional[_Union[HandResultRule, str]] = ..., two_two: _Optional[_Union[TwoTwo, str]] = ..., bonus_aces: _Optional[bool] = ..., mendikot_bonus: _Optional[int] = ..., kot_bonus: _Optional[int] = ..., early_end: _Optional[bool] = ..., maker_discard: _Optional[_Union[MakerDiscard, str]] = ..., hide_from: _Optional[_Union[HideFrom, str]] = ..., hidden_blind: _Optional[bool] = ..., trump_card: _Optional[_Union[TrumpCard, str]] = ..., trump_card_index: _Optional[int] = ..., decline: _Optional[_Union[Decline, str]] = ...) -> None: ...

class Cards(_message.Message):
    __slots__ = ("cards",)
    CARDS_FIELD_NUMBER: _ClassVar[int]
    cards: _containers.RepeatedScalarFieldContainer[Card]
    def __init__(self, cards: _Optional[_Iterable[_Union[Card, str]]] = ...) -> None: ...

class Play(_message.Message):
    __slots__ = ("seat", "card", "face_down")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    FACE_DOWN_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: Card
    face_down: bool
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[_Union[Card, str]] = ..., face_down: _Optional[bool] = ...) -> None: ...

class Action(_message.Message):
    __slots__ = ("play_card", "call_trump", "hide_trump", "reveal_trump", "decline_trump", "bid", "pass_bid")
    PLAY_CARD_FIELD_NUMBER: _ClassVar[int]
    CALL_TRUMP_FIELD_NUMBER: _ClassVar[int]
    HIDE_TRUMP_FIELD_NUMBER: _ClassVar[int]
    REVEAL_TRUMP_FIELD_NUMBER: _ClassVar[int]
    DECLINE_TRUMP_FIELD_NUMBER: _ClassVar[int]
    BID_FIELD_NUMBER: _ClassVar[int]
    PASS_BID_FIELD_NUMBER: _ClassVar[int]
    play_card: PlayCard
    call_trump: CallTrump
    hide_trump: HideTrump
    reveal_trump: RevealTrump
    decline_trump: DeclineTrump
    bid: Bid
    pass_bid: PassBid
    def __init__(self, play_card: _Optional[_Union[PlayCard, _Mapping]] = ..., call_trump: _Optional[_Union[CallTrump, _Mapping]] = ..., hide_trump: _Optional[_Union[HideTrump, _Mapping]] = ..., reveal_trump: _Optional[_Union[RevealTrump, _Mapping]] = ..., decline_trump: _Optional[_Union[DeclineTrump, _Mapping]] = ..., bid: _Optional[_Union[Bid, _Mapping]] = ..., pass_bid: _Optional[_Union[PassBid, _Mapping]] = ...) -> None: ...

class Bid(_message.Message):
    __slots__ = ("amount",)
    AMOUNT_FIELD_NUMBER: _ClassVar[int]
    amount: int
    def __init__(self, amount: _Optional[int] = ...) -> None: ...

class PassBid(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class PlayCard(_message.Message):
    __slots__ = ("card", "face_down")
    CARD_FIELD_NUMBER: _ClassVar[int]
    FACE_DOWN_FIELD_NUMBER: _ClassVar[int]
    card: Card
    face_down: bool
    def __init__(self, card: _Optional[_Union[Card, str]] = ..., face_down: _Optional[bool] = ...) -> None: ...

class CallTrump(_message.Message):
    __slots__ = ("suit",)
    SUIT_FIELD_NUMBER: _ClassVar[int]
    suit: Suit
    def __init__(self, suit: _Optional[_Union[Suit, str]] = ...) -> None: ...

class HideTrump(_message.Message):
    __slots__ = ("card",)
    CARD_FIELD_NUMBER: _ClassVar[int]
    card: Card
    def __init__(self, card: _Optional[_Union[Card, str]] = ...) -> None: ...

class RevealTrump(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class DeclineTrump(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class Observation(_message.Message):
    __slots__ = ("rules", "seat", "dealer", "first_player", "to_move", "decision", "legal_actions", "hand", "hand_sizes", "cards_to_come", "trump", "trump_in_force", "trump_setting", "hidden_trump_holder", "hidden_trump_card", "reveal", "must_play_trump", "trick_number", "current_trick", "tricks", "pile", "pile_tricks", "streak_holder", "captured", "tens", "tricks_won", "tricks_captured", "result", "match", "pile_face_down", "captured_face_down")
    RULES_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    DEALER_FIELD_NUMBER: _ClassVar[int]
    FIRST_PLAYER_FIELD_NUMBER: _ClassVar[int]
    TO_MOVE_FIELD_NUMBER: _ClassVar[int]
    DECISION_FIELD_NUMBER: _ClassVar[int]
    LEGAL_ACTIONS_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    HAND_SIZES_FIELD_NUMBER: _ClassVar[int]
    CARDS_TO_COME_FIELD_NUMBER: _ClassVar[int]
    TRUMP_FIELD_NUMBER: _ClassVar[int]
    TRUMP_IN_FORCE_FIELD_NUMBER: _ClassVar[int]
    TRUMP_SETTING_FIELD_NUMBER: _ClassVar[int]
    HIDDEN_TRUMP_HOLDER_FIELD_NUMBER: _ClassVar[int]
    HIDDEN_TRUMP_CARD_FIELD_NUMBER: _ClassVar[int]
    REVEAL_FIELD_NUMBER: _ClassVar[int]
    MUST_PLAY_TRUMP_FIELD_NUMBER: _ClassVar[int]
    TRICK_NUMBER_FIELD_NUMBER: _ClassVar[int]
    CURRENT_TRICK_FIELD_NUMBER: _ClassVar[int]
    TRICKS_FIELD_NUMBER: _ClassVar[int]
    PILE_FIELD_NUMBER: _ClassVar[int]
    PILE_TRICKS_FIELD_NUMBER: _ClassVar[int]
    STREAK_HOLDER_FIELD_NUMBER: _ClassVar[int]
    CAPTURED_FIELD_NUMBER: _ClassVar[int]
    TENS_FIELD_NUMBER: _ClassVar[int]
    TRICKS_WON_FIELD_NUMBER: _ClassVar[int]
    TRICKS_CAPTURED_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    MATCH_FIELD_NUMBER: _ClassVar[int]
    PILE_FACE_DOWN_FIELD_NUMBER: _ClassVar[int]
    CAPTURED_FACE_DOWN_FIELD_NUMBER: _ClassVar[int]
    rules: Rules
    seat: int
    dealer: int
    first_player: int
    to_move: int
    decision: Decision
    legal_actions: _containers.RepeatedCompositeFieldContainer[Action]
    hand: _containers.RepeatedScalarFieldContainer[Card]
    hand_sizes: _containers.RepeatedScalarFieldContainer[int]
    cards_to_come: _containers.RepeatedScalarFieldContainer[int]
    trump: Suit
    trump_in_force: Suit
    trump_setting: TrumpSetting
    hidden_trump_holder: int
    hidden_trump_card: Card
    reveal: TrumpReveal
    must_play_trump: bool
    trick_number: int
    current_trick: _containers.RepeatedCompositeFieldContainer[Play]
    tricks: _containers.RepeatedCompositeFieldContainer[Trick]
    pile: _containers.RepeatedScalarFieldContainer[Card]
    pile_tricks: int
    streak_holder: int
    captured: _containers.RepeatedCompositeFieldContainer[Cards]
    tens: _containers.RepeatedScalarFieldContainer[int]
    tricks_won: _containers.RepeatedScalarFieldContainer[int]
    tricks_captured: _containers.RepeatedScalarFieldContainer[int]
    result: HandResult
    match: MatchScore
    pile_face_down: int
    captured_face_down: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, rules: _Optional[_Union[Rules, _Mapping]] = ..., seat: _Optional[int] = ..., dealer: _Optional[int] = ..., first_player: _Optional[int] = ..., to_move: _Optional[int] = ..., decision: _Optional[_Union[Decision, str]] = ..., legal_actions: _Optional[_Iterable[_Union[Action, _Mapping]]] = ..., hand: _Optional[_Iterable[_Union[Card, str]]] = ..., hand_sizes: _Optional[_Iterable[int]] = ..., cards_to_come: _Optional[_Iterable[int]] = ..., trump: _Optional[_Union[Suit, str]] = ..., trump_in_force: _Optional[_Union[Suit, str]] = ..., trump_setting: _Optional[_Union[TrumpSetting, _Mapping]] = ..., hidden_trump_holder: _Optional[int] = ..., hidden_trump_card: _Optional[_Union[Card, str]] = ..., reveal: _Optional[_Union[TrumpReveal, _Mapping]] = ..., must_play_trump: _Optional[bool] = ..., trick_number: _Optional[int] = ..., current_trick: _Optional[_Iterable[_Union[Play, _Mapping]]] = ..., tricks: _Optional[_Iterable[_Union[Trick, _Mapping]]] = ..., pile: _Optional[_Iterable[_Union[Card, str]]] = ..., pile_tricks: _Optional[int] = ..., streak_holder: _Optional[int] = ..., captured: _Optional[_Iterable[_Union[Cards, _Mapping]]] = ..., tens: _Optional[_Iterable[int]] = ..., tricks_won: _Optional[_Iterable[int]] = ..., tricks_captured: _Optional[_Iterable[int]] = ..., result: _Optional[_Union[HandResult, _Mapping]] = ..., match: _Optional[_Union[MatchScore, _Mapping]] = ..., pile_face_down: _Optional[int] = ..., captured_face_down: _Optional[_Iterable[int]] = ...) -> None: ...

class Trick(_message.Message):
    __slots__ = ("number", "leader", "plays", "winner", "taken_by", "tricks_taken")
    NUMBER_FIELD_NUMBER: _ClassVar[int]
    LEADER_FIELD_NUMBER: _ClassVar[int]
    PLAYS_FIELD_NUMBER: _ClassVar[int]
    WINNER_FIELD_NUMBER: _ClassVar[int]
    TAKEN_BY_FIELD_NUMBER: _ClassVar[int]
    TRICKS_TAKEN_FIELD_NUMBER: _ClassVar[int]
    number: int
    leader: int
    plays: _containers.RepeatedCompositeFieldContainer[Play]
    winner: int
    taken_by: int
    tricks_taken: int
    def __init__(self, number: _Optional[int] = ..., leader: _Optional[int] = ..., plays: _Optional[_Iterable[_Union[Play, _Mapping]]] = ..., winner: _Optional[int] = ..., taken_by: _Optional[int] = ..., tricks_taken: _Optional[int] = ...) -> None: ...

class TrumpSetting(_message.Message):
    __slots__ = ("suit", "method", "trick", "card", "seat")
    SUIT_FIELD_NUMBER: _ClassVar[int]
    METHOD_FIELD_NUMBER: _ClassVar[int]
    TRICK_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    suit: Suit
    method: TrumpMethod
    trick: int
    card: Card
    seat: int
    def __init__(self, suit: _Optional[_Union[Suit, str]] = ..., method: _Optional[_Union[TrumpMethod, str]] = ..., trick: _Optional[int] = ..., card: _Optional[_Union[Card, str]] = ..., seat: _Optional[int] = ...) -> None: ...

class TrumpReveal(_message.Message):
    __slots__ = ("trick", "position", "seat", "card", "reason")
    TRICK_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    trick: int
    position: int
    seat: int
    card: Card
    reason: RevealReason
    def __init__(self, trick: _Optional[int] = ..., position: _Optional[int] = ..., seat: _Optional[int] = ..., card: _Optional[_Union[Card, str]] = ..., reason: _Optional[_Union[RevealReason, str]] = ...) -> None: ...

class HandResult(_message.Message):
    __slots__ = ("winner", "outcome", "tens", "tricks_won", "tricks_captured", "tricks_played", "kot", "mendikot", "all_aces", "points")
    WINNER_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    TENS_FIELD_NUMBER: _ClassVar[int]
    TRICKS_WON_FIELD_NUMBER: _ClassVar[int]
    TRICKS_CAPTURED_FIELD_NUMBER: _ClassVar[int]
    TRICKS_PLAYED_FIELD_NUMBER: _ClassVar[int]
    KOT_FIELD_NUMBER: _ClassVar[int]
    MENDIKOT_FIELD_NUMBER: _ClassVar[int]
    ALL_ACES_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    winner: int
    outcome: HandOutcome
    tens: _containers.RepeatedScalarFieldContainer[int]
    tricks_won: _containers.RepeatedScalarFieldContainer[int]
    tricks_captured: _containers.RepeatedScalarFieldContainer[int]
    tricks_played: int
    kot: bool
    mendikot: bool
    all_aces: bool
    points: int
    def __init__(self, winner: _Optional[int] = ..., outcome: _Optional[_Union[HandOutcome, str]] = ..., tens: _Optional[_Iterable[int]] = ..., tricks_won: _Optional[_Iterable[int]] = ..., tricks_captured: _Optional[_Iterable[int]] = ..., tricks_played: _Optional[int] = ..., kot: _Optional[bool] = ..., mendikot: _Optional[bool] = ..., all_aces: _Optional[bool] = ..., points: _Optional[int] = ...) -> None: ...

class MatchScore(_message.Message):
    __slots__ = ("dealer", "hands_played", "kots", "points", "hands_won", "runs", "tens")
    DEALER_FIELD_NUMBER: _ClassVar[int]
    HANDS_PLAYED_FIELD_NUMBER: _ClassVar[int]
    KOTS_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    HANDS_WON_FIELD_NUMBER: _ClassVar[int]
    RUNS_FIELD_NUMBER: _ClassVar[int]
    TENS_FIELD_NUMBER: _ClassVar[int]
    dealer: int
    hands_played: int
    kots: _containers.RepeatedScalarFieldContainer[int]
    points: _containers.RepeatedScalarFieldContainer[int]
    hands_won: _containers.RepeatedScalarFieldContainer[int]
    runs: _containers.RepeatedScalarFieldContainer[int]
    tens: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, dealer: _Optional[int] = ..., hands_played: _Optional[int] = ..., kots: _Optional[_Iterable[int]] = ..., points: _Optional[_Iterable[int]] = ..., hands_won: _Optional[_Iterable[int]] = ..., runs: _Optional[_Iterable[int]] = ..., tens: _Optional[_Iterable[int]] = ...) -> None: ...

class MatchResult(_message.Message):
    __slots__ = ("termination", "winner", "score", "faults", "bidding_score")
    TERMINATION_FIELD_NUMBER: _ClassVar[int]
    WINNER_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    FAULTS_FIELD_NUMBER: _ClassVar[int]
    BIDDING_SCORE_FIELD_NUMBER: _ClassVar[int]
    termination: Termination
    winner: int
    score: MatchScore
    faults: _containers.RepeatedCompositeFieldContainer[Fault]
    bidding_score: BiddingMatchScore
    def __init__(self, termination: _Optional[_Union[Termination, str]] = ..., winner: _Optional[int] = ..., score: _Optional[_Union[MatchScore, _Mapping]] = ..., faults: _Optional[_Iterable[_Union[Fault, _Mapping]]] = ..., bidding_score: _Optional[_Union[BiddingMatchScore, _Mapping]] = ...) -> None: ...

class Fault(_message.Message):
    __slots__ = ("seat", "kind", "detail", "hand_number", "request_id")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    DETAIL_FIELD_NUMBER: _ClassVar[int]
    HAND_NUMBER_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    seat: int
    kind: FaultKind
    detail: str
    hand_number: int
    request_id: str
    def __init__(self, seat: _Optional[int] = ..., kind: _Optional[_Union[FaultKind, str]] = ..., detail: _Optional[str] = ..., hand_number: _Optional[int] = ..., request_id: _Optional[str] = ...) -> None: ...

class BiddingRules(_message.Message):
    __slots__ = ("direction", "rank_order", "last_trick_points", "min_bid", "max_bid", "auction", "overbid_partner_min", "no_exposure", "game_points", "target", "card_points")
    DIRECTION_FIELD_NUMBER: _ClassVar[int]
    RANK_ORDER_FIELD_NUMBER: _ClassVar[int]
    LAST_TRICK_POINTS_FIELD_NUMBER: _ClassVar[int]
    MIN_BID_FIELD_NUMBER: _ClassVar[int]
    MAX_BID_FIELD_NUMBER: _ClassVar[int]
    AUCTION_FIELD_NUMBER: _ClassVar[int]
    OVERBID_PARTNER_MIN_FIELD_NUMBER: _ClassVar[int]
    NO_EXPOSURE_FIELD_NUMBER: _ClassVar[int]
    GAME_POINTS_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    CARD_POINTS_FIELD_NUMBER: _ClassVar[int]
    direction: Direction
    rank_order: RankOrder
    last_trick_points: int
    min_bid: int
    max_bid: int
    auction: AuctionKind
    overbid_partner_min: int
    no_exposure: NoExposure
    game_points: GamePoints
    target: int
    card_points: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, direction: _Optional[_Union[Direction, str]] = ..., rank_order: _Optional[_Union[RankOrder, str]] = ..., last_trick_points: _Optional[int] = ..., min_bid: _Optional[int] = ..., max_bid: _Optional[int] = ..., auction: _Optional[_Union[AuctionKind, str]] = ..., overbid_partner_min: _Optional[int] = ..., no_exposure: _Optional[_Union[NoExposure, str]] = ..., game_points: _Optional[_Union[GamePoints, str]] = ..., target: _Optional[int] = ..., card_points: _Optional[_Iterable[int]] = ...) -> None: ...

class SeatCall(_message.Message):
    __slots__ = ("seat", "bid")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    BID_FIELD_NUMBER: _ClassVar[int]
    seat: int
    bid: int
    def __init__(self, seat: _Optional[int] = ..., bid: _Optional[int] = ...) -> None: ...

class Contract(_message.Message):
    __slots__ = ("bidder", "bid")
    BIDDER_FIELD_NUMBER: _ClassVar[int]
    BID_FIELD_NUMBER: _ClassVar[int]
    bidder: int
    bid: int
    def __init__(self, bidder: _Optional[int] = ..., bid: _Optional[int] = ...) -> None: ...

class BiddingObservation(_message.Message):
    __slots__ = ("rules", "seat", "dealer", "first_player", "to_move", "decision", "legal_actions", "hand", "hand_sizes", "cards_to_come", "calls", "contract", "trump", "hidden_trump_holder", "hidden_trump_card", "reveal", "trump_led", "must_play_trump", "trick_number", "current_trick", "tricks", "points", "result", "match")
    RULES_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    DEALER_FIELD_NUMBER: _ClassVar[int]
    FIRST_PLAYER_FIELD_NUMBER: _ClassVar[int]
    TO_MOVE_FIELD_NUMBER: _ClassVar[int]
    DECISION_FIELD_NUMBER: _ClassVar[int]
    LEGAL_ACTIONS_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    HAND_SIZES_FIELD_NUMBER: _ClassVar[int]
    CARDS_TO_COME_FIELD_NUMBER: _ClassVar[int]
    CALLS_FIELD_NUMBER: _ClassVar[int]
    CONTRACT_FIELD_NUMBER: _ClassVar[int]
    TRUMP_FIELD_NUMBER: _ClassVar[int]
    HIDDEN_TRUMP_HOLDER_FIELD_NUMBER: _ClassVar[int]
    HIDDEN_TRUMP_CARD_FIELD_NUMBER: _ClassVar[int]
    REVEAL_FIELD_NUMBER: _ClassVar[int]
    TRUMP_LED_FIELD_NUMBER: _ClassVar[int]
    MUST_PLAY_TRUMP_FIELD_NUMBER: _ClassVar[int]
    TRICK_NUMBER_FIELD_NUMBER: _ClassVar[int]
    CURRENT_TRICK_FIELD_NUMBER: _ClassVar[int]
    TRICKS_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    MATCH_FIELD_NUMBER: _ClassVar[int]
    rules: BiddingRules
    seat: int
    dealer: int
    first_player: int
    to_move: int
    decision: Decision
    legal_actions: _containers.RepeatedCompositeFieldContainer[Action]
    hand: _containers.RepeatedScalarFieldContainer[Card]
    hand_sizes: _containers.RepeatedScalarFieldContainer[int]
    cards_to_come: _containers.RepeatedScalarFieldContainer[int]
    calls: _containers.RepeatedCompositeFieldContainer[SeatCall]
    contract: Contract
    trump: Suit
    hidden_trump_holder: int
    hidden_trump_card: Card
    reveal: TrumpReveal
    trump_led: bool
    must_play_trump: bool
    trick_number: int
    current_trick: _containers.RepeatedCompositeFieldContainer[Play]
    tricks: _containers.RepeatedCompositeFieldContainer[Trick]
    points: _containers.RepeatedScalarFieldContainer[int]
    result: BiddingResult
    match: BiddingMatchScore
    def __init__(self, rules: _Optional[_Union[BiddingRules, _Mapping]] = ..., seat: _Optional[int] = ..., dealer: _Optional[int] = ..., first_player: _Optional[int] = ..., to_move: _Optional[int] = ..., decision: _Optional[_Union[Decision, str]] = ..., legal_actions: _Optional[_Iterable[_Union[Action, _Mapping]]] = ..., hand: _Optional[_Iterable[_Union[Card, str]]] = ..., hand_sizes: _Optional[_Iterable[int]] = ..., cards_to_come: _Optional[_Iterable[int]] = ..., calls: _Optional[_Iterable[_Union[SeatCall, _Mapping]]] = ..., contract: _Optional[_Union[Contract, _Mapping]] = ..., trump: _Optional[_Union[Suit, str]] = ..., hidden_trump_holder: _Optional[int] = ..., hidden_trump_card: _Optional[_Union[Card, str]] = ..., reveal: _Optional[_Union[TrumpReveal, _Mapping]] = ..., trump_led: _Optional[bool] = ..., must_play_trump: _Optional[bool] = ..., trick_number: _Optional[int] = ..., current_trick: _Optional[_Iterable[_Union[Play, _Mapping]]] = ..., tricks: _Optional[_Iterable[_Union[Trick, _Mapping]]] = ..., points: _Optional[_Iterable[int]] = ..., result: _Optional[_Union[BiddingResult, _Mapping]] = ..., match: _Optional[_Union[BiddingMatchScore, _Mapping]] = ...) -> None: ...

class BiddingResult(_message.Message):
    __slots__ = ("bidder", "bid", "points", "void", "made", "game_points", "tricks_played")
    BIDDER_FIELD_NUMBER: _ClassVar[int]
    BID_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    VOID_FIELD_NUMBER: _ClassVar[int]
    MADE_FIELD_NUMBER: _ClassVar[int]
    GAME_POINTS_FIELD_NUMBER: _ClassVar[int]
    TRICKS_PLAYED_FIELD_NUMBER: _ClassVar[int]
    bidder: int
    bid: int
    points: _containers.RepeatedScalarFieldContainer[int]
    void: bool
    made: bool
    game_points: int
    tricks_played: int
    def __init__(self, bidder: _Optional[int] = ..., bid: _Optional[int] = ..., points: _Optional[_Iterable[int]] = ..., void: _Optional[bool] = ..., made: _Optional[bool] = ..., game_points: _Optional[int] = ..., tricks_played: _Optional[int] = ...) -> None: ...

class BiddingMatchScore(_message.Message):
    __slots__ = ("dealer", "hands_played", "points")
    DEALER_FIELD_NUMBER: _ClassVar[int]
    HANDS_PLAYED_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    dealer: int
    hands_played: int
    points: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, dealer: _Optional[int] = ..., hands_played: _Optional[int] = ..., points: _Optional[_Iterable[int]] = ...) -> None: ...
