"""The rules of Twenty-eight and Twenty-nine (seed 003's bidding game): options and presets.

A game of its own beside ``Rules``: an auction instead of a trump call, a rank order of its own
(``ranking.RankOrder.JACK_NINE``), card points against a bid. Its presets are constructible
here (``bidding_rules_for``) but not through ``rules_for``, which refuses their names with a
one-line reason until the protocol carries a bid decision (issue 29, a later increment).
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping
from enum import StrEnum
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    from pydantic import TypeAdapter

from arena.engine.cards import SHORT_DECK, CardMask
from arena.engine.errors import RulesError
from arena.engine.ranking import RankOrder
from arena.engine.rules import DeckKind, Direction, Rules, rules_for

PACK_POINTS = 28
"""Card points in the 32-card pack (J 3, 9 2, A 1, 10 1 in four suits)."""


class AuctionKind(StrEnum):
    UNTIL_THREE_PASSES = "until_three_passes"
    """Seed 003: "the auction continues for as many rounds as necessary until three players
    pass in succession"."""
    SINGLE_ROUND = "single_round"
    """Seed 003's first wording: each player speaks once."""


class NoExposure(StrEnum):
    """What happens when nobody has called for the trump by the end of the seventh trick."""

    VOID = "void"
    """Seed 003: "the game stands invalid"; the same dealer deals again."""
    LAST_TRICK = "last_trick"
    """The bidder must expose the card and play it in the last trick."""


class GamePoints(StrEnum):
    """What a hand is worth to the bidding team."""

    ONE = "one"
    """+1 if it made its bid, -1 if not."""
    BY_BID = "by_bid"
    """By bid size: 14-19: 1, 20-23: 2, 24-27: 3, 28 and up: 4 (won or lost)."""


@dataclasses.dataclass(frozen=True)
class BiddingRules:
    """One complete, validated set of rules of a Twenty-eight or Twenty-nine hand and match."""

    __pydantic_config__: ClassVar[dict[str, str]] = {"extra": "forbid"}

    direction: Direction = Direction.ANTICLOCKWISE
    rank_order: RankOrder = RankOrder.JACK_NINE
    last_trick_points: int = 0
    """Points for winning the last trick: Twenty-nine's 1."""
    min_bid: int = 14
    max_bid: int = 28
    auction: AuctionKind = AuctionKind.UNTIL_THREE_PASSES
    overbid_partner_min: int = 0
    """Option: the least bid that may overbid a partner when the previous speaker (the
    left-hand opponent in anticlockwise play) passed; 0 is off, the usual value 20."""
    no_exposure: NoExposure = NoExposure.VOID
    game_points: GamePoints = GamePoints.ONE
    target: int = 6
    """The game points that win the match."""

    def __post_init__(self) -> None:
        """Options that contradict each other or the pack (a ``RulesError``)."""
        total = self.total_points
        if self.last_trick_points < 0:
            raise RulesError("last_trick_points cannot be negative")
        if not 0 < self.min_bid <= self.max_bid <= total:
            raise RulesError(
                f"bids must satisfy 0 < min_bid <= max_bid <= {total} (the points in play), "
                f"not min_bid={self.min_bid}, max_bid={self.max_bid}"
            )
        if self.overbid_partner_min and not self.min_bid <= self.overbid_partner_min <= self.max_bid:
            raise RulesError(
                f"overbid_partner_min={self.overbid_partner_min} must be 0 (off) or a bid "
                f"from {self.min_bid} to {self.max_bid}"
            )
        if self.target < 1:
            raise RulesError(f"target must be at least 1 game point, not {self.target}")

    @property
    def total_points(self) -> int:
        """Card points plus the last trick's: 28 in Twenty-eight, 29 in Twenty-nine."""
        return PACK_POINTS + self.last_trick_points

    @property
    def deck_mask(self) -> CardMask:
        return SHORT_DECK

    @property
    def hand_size(self) -> int:
        return 8

    @property
    def packets(self) -> tuple[int, ...]:
        """Four cards, the auction, four more."""
        return (4, 4)

    @property
    def deal_rules(self) -> Rules:
        """The ``Rules`` a ``Deal`` of this game is made and checked by (the 32-card pack); one
        value per direction (each hand asks for it twice, and ``Rules`` validates on creation)."""
        return _deal_rules(self.direction)

    def options(self) -> dict[str, Any]:
        """Every option as plain JSON values, in field order."""
        return {
            field.name: _json(getattr(self, field.name)) for field in dataclasses.fields(self)
        }


@functools.cache
def _deal_rules(direction: Direction) -> Rules:
    return Rules(direction=direction, deck=DeckKind.SHORT32)


def _json(value: Any) -> Any:
    return value.value if isinstance(value, StrEnum) else value


BIDDING_OPTION_NAMES: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(BiddingRules))

BIDDING_PRESETS: dict[str, dict[str, Any]] = {
    "twenty-eight": {},
    "twenty-nine": {"last_trick_points": 1, "min_bid": 17, "max_bid": 29},
}
BIDDING_PRESET_SUMMARIES: dict[str, str] = {
    "twenty-eight": "Twenty-eight: an auction on four cards, a face-down trump exposed on call, "
    "card points against the bid",
    "twenty-nine": "Twenty-nine: Twenty-eight with the last trick worth a point, bids from 17",
}


def bidding_rules_for(preset: str, overrides: Mapping[str, Any] | None = None) -> BiddingRules:
    """Rules from a bidding preset plus option overrides, with one clear error if invalid."""
    if preset not in BIDDING_PRESETS:
        raise RulesError(f"unknown bidding preset {preset!r} (known: {', '.join(BIDDING_PRESETS)})")
    overrides = dict(overrides or {})
    unknown = sorted(set(overrides) - set(BIDDING_OPTION_NAMES))
    if unknown:
        raise RulesError(
            f"unknown option {', '.join(unknown)} (known: {', '.join(BIDDING_OPTION_NAMES)})"
        )
    return make_bidding_rules({**BIDDING_PRESETS[preset], **overrides}, context=f"preset {preset}")


def game_rules_for(preset: str, overrides: Mapping[str, Any] | None = None) -> Rules | BiddingRules:
    """Any preset's rules: a bidding game's (``bidding_rules_for``) or a trick-taking game's
    (``rules_for``), for the commands that play both."""
    if preset in BIDDING_PRESETS:
        return bidding_rules_for(preset, overrides)
    return rules_for(preset, overrides)


def make_bidding_rules(values: Mapping[str, Any], context: str = "rules") -> BiddingRules:
    """Validate a full options mapping of plain values into ``BiddingRules``."""
    from pydantic import ValidationError  # noqa: PLC0415 - only untyped input needs pydantic (rules.py)

    try:
        return _validator().validate_python(dict(values))
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err["loc"])
        message = str(err["msg"]).removeprefix("Value error, ")
        if err["type"] in ("extra_forbidden", "unexpected_keyword_argument"):
            raise RulesError(f"{context}: unknown option {where}") from None
        detail = f"option {where}: {message} (got {err.get('input')!r})" if where else message
        raise RulesError(f"{context}: {detail}") from None


@functools.cache
def _validator() -> TypeAdapter[BiddingRules]:
    from pydantic import TypeAdapter  # noqa: PLC0415 - see make_bidding_rules

    return TypeAdapter(BiddingRules)
