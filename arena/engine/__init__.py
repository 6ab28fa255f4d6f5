"""The rules of Dehla Pakad and its family, pure: no I/O, no clocks, no global randomness.

Everything a bot, a test or a tool needs is importable from here (``from arena.engine import
HandState, Card, rules_for``); the modules behind it may move. Deals come from explicit seeds
(``chance``), so the same seed gives the same cards on every machine.

The record functions (``hand_record``, ``parse_json``, ``replay_record``, ``read_hand_record``,
``readable_version``, ``validation_message``) load on first use: they validate with pydantic,
which a bot never needs (``arena/engine/rules.py``).
"""

from typing import TYPE_CHECKING, Any

from arena.engine.action_ids import (
    BID_BASE,
    CALL_BASE,
    DECLINE_ID,
    DOWN_BASE,
    HIDE_BASE,
    NO_ACTION,
    NUM_ACTIONS,
    NUM_BIDDING_ACTIONS,
    PASS_ID,
    PLAY_BASE,
    REVEAL_ID,
    action_id,
    action_of,
    bidding_action_id,
    bidding_action_of,
    describe_action_id,
)
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
    parse_action,
)
from arena.engine.auction import BID, MAX_AMOUNT, PASS, Auction, Bid, Call, Pass, parse_call
from arena.engine.bidding_hand import (
    LAST_CALL_TRICK,
    BiddingAction,
    BiddingDecision,
    BiddingHand,
    Contract,
    new_hand,
)
from arena.engine.bidding_observation import BiddingObservation, observe_bidding
from arena.engine.bidding_outcome import BiddingMatchScore, BiddingResult, game_point_value
from arena.engine.bidding_rules import (
    BIDDING_PRESET_SUMMARIES,
    BIDDING_PRESETS,
    AuctionKind,
    BiddingRules,
    GamePoints,
    NoExposure,
    bidding_rules_for,
    game_rules_for,
)
from arena.engine.bidding_selfplay import BiddingSelfPlaySummary, selfplay_bidding_hands
from arena.engine.cards import (
    ACES,
    CARDS,
    FULL_DECK,
    SHORT_DECK,
    SUIT_MASKS,
    TENS,
    Card,
    CardMask,
    Rank,
    Suit,
    cards_of,
    format_cards,
    mask_of,
    parse_cards,
)
from arena.engine.chance import choose_index, derive_seed, random_number, shuffled
from arena.engine.deal import Deal
from arena.engine.errors import (
    ArenaError,
    DealError,
    IllegalActionError,
    InvalidActionError,
    InvalidCardError,
    MatchFormatError,
    RecordError,
    RulesError,
)
from arena.engine.hand import Decision, HandState, PublicHand
from arena.engine.match import KOT_RUN, FormatKind, MatchFormat, MatchScore, next_dealer
from arena.engine.observation import Observation, observe
from arena.engine.outcome import HandOutcome, HandResult, Trick, decide_hand, hand_value, majority
from arena.engine.ranking import CARD_POINTS_28, RankOrder, card_points, ranks_high_to_low, strength
from arena.engine.rules import (
    PRESET_SUMMARIES,
    PRESETS,
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
    make_rules,
    parse_option,
    rules_for,
)
from arena.engine.seats import SEATS, Seat, Team, next_seats, partner_of, play_order, play_orders, team_of
from arena.engine.selfplay import SelfPlaySummary, play_randomly, selfplay_hands
from arena.engine.trick import (
    NO_SUIT,
    TRUMP_BONUS,
    TrickBest,
    claims_pile,
    play_key,
    trick_best,
    trump_counts_from,
    won_after_reveal,
    won_with_trumps,
)
from arena.engine.trump import RevealReason, TrumpReveal, TrumpSetting

if TYPE_CHECKING:
    from arena.engine.bidding_records import (
        bidding_hand_record,
        is_bidding_record,
        parse_bidding_action,
        replay_bidding_record,
    )
    from arena.engine.hand_records import (
        hand_record,
        parse_json,
        read_hand_record,
        readable_version,
        replay_record,
        validation_message,
    )

_RECORD_FUNCTIONS = frozenset({"hand_record", "parse_json", "read_hand_record", "readable_version", "replay_record",
                               "validation_message"})


_BIDDING_RECORD_FUNCTIONS = frozenset({"bidding_hand_record", "is_bidding_record", "parse_bidding_action",
                                       "replay_bidding_record"})


def __getattr__(name: str) -> Any:
    if name in _BIDDING_RECORD_FUNCTIONS:
        from arena.engine import bidding_records  # noqa: PLC0415 - on first use (module doc)

        return getattr(bidding_records, name)
    if name in _RECORD_FUNCTIONS:
        from arena.engine import hand_records  # noqa: PLC0415 - on first use (module doc)

        return getattr(hand_records, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "ACES",
    "BID",
    "BIDDING_PRESETS",
    "BIDDING_PRESET_SUMMARIES",
    "BID_BASE",
    "CALL",
    "CALL_BASE",
    "CARDS",
    "CARD_POINTS_28",
    "DECLINE",
    "DECLINE_ID",
    "DOWN",
    "DOWN_BASE",
    "FULL_DECK",
    "HIDE",
    "HIDE_BASE",
    "KOT_RUN",
    "LAST_CALL_TRICK",
    "MAX_AMOUNT",
    "NO_ACTION",
    "NO_SUIT",
    "NUM_ACTIONS",
    "NUM_BIDDING_ACTIONS",
    "PASS",
    "PASS_ID",
    "PLAY",
    "PLAY_BASE",
    "PRESETS",
    "PRESET_SUMMARIES",
    "REVEAL",
    "REVEAL_ID",
    "SEATS",
    "SHORT_DECK",
    "SUIT_MASKS",
    "TENS",
    "TRUMP_BONUS",
    "Action",
    "ArenaError",
    "Auction",
    "AuctionKind",
    "Bid",
    "BiddingAction",
    "BiddingDecision",
    "BiddingHand",
    "BiddingMatchScore",
    "BiddingObservation",
    "BiddingResult",
    "BiddingRules",
    "BiddingSelfPlaySummary",
    "Call",
    "CallTrump",
    "Capture",
    "Card",
    "CardMask",
    "Contract",
    "Deal",
    "DealError",
    "Decision",
    "DeckKind",
    "Decline",
    "DeclineTrump",
    "Direction",
    "FormatKind",
    "GamePoints",
    "HandOutcome",
    "HandResult",
    "HandResultRule",
    "HandState",
    "HideFrom",
    "HideTrump",
    "IllegalActionError",
    "InvalidActionError",
    "InvalidCardError",
    "MakerDiscard",
    "MatchFormat",
    "MatchFormatError",
    "MatchScore",
    "NoExposure",
    "Observation",
    "Pass",
    "PlayCard",
    "PublicHand",
    "Rank",
    "RankOrder",
    "RecordError",
    "Reveal",
    "RevealReason",
    "RevealTrump",
    "Rules",
    "RulesError",
    "Seat",
    "SelfPlaySummary",
    "Suit",
    "SweepLimits",
    "Team",
    "Trick",
    "TrickBest",
    "TrumpCard",
    "TrumpMethod",
    "TrumpReveal",
    "TrumpSetting",
    "TwoTwo",
    "action_id",
    "action_of",
    "bidding_action_id",
    "bidding_action_of",
    "bidding_hand_record",
    "bidding_rules_for",
    "card_points",
    "cards_of",
    "choose_index",
    "claims_pile",
    "decide_hand",
    "derive_seed",
    "describe_action_id",
    "format_cards",
    "game_point_value",
    "game_rules_for",
    "hand_record",
    "hand_value",
    "is_bidding_record",
    "majority",
    "make_rules",
    "mask_of",
    "new_hand",
    "next_dealer",
    "next_seats",
    "observe",
    "observe_bidding",
    "parse_action",
    "parse_bidding_action",
    "parse_call",
    "parse_cards",
    "parse_json",
    "parse_option",
    "partner_of",
    "play_key",
    "play_order",
    "play_orders",
    "play_randomly",
    "random_number",
    "ranks_high_to_low",
    "read_hand_record",
    "readable_version",
    "replay_bidding_record",
    "replay_record",
    "rules_for",
    "selfplay_bidding_hands",
    "selfplay_hands",
    "shuffled",
    "strength",
    "team_of",
    "trick_best",
    "trump_counts_from",
    "validation_message",
    "won_after_reveal",
    "won_with_trumps",
]
