"""The rules object: every option of ``docs/rules.md`` in one validated value, plus presets.

An option that only makes sense under another (``reveal`` under ``trump=hidden``) is
*dependent*: setting it where it does not apply is rejected, and overriding its parent on top
of a preset drops the preset's value for it unless it is given again.

``Rules`` is a frozen dataclass that checks its dependents itself, and pydantic validates
untyped input into it (``make_rules``: presets, the command line, records), imported only
then: a bot builds its rules from typed protocol values and never loads pydantic, which was
about 40% of its start-up CPU (``bench/bot_startup.py``).
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping
from enum import StrEnum
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    from pydantic import TypeAdapter, ValidationError

from arena.engine.cards import FULL_DECK, SHORT_DECK, CardMask
from arena.engine.errors import RulesError


class Direction(StrEnum):
    CLOCKWISE = "clockwise"
    ANTICLOCKWISE = "anticlockwise"


class DeckKind(StrEnum):
    FULL52 = "full52"
    SHORT32 = "short32"


class TrumpMethod(StrEnum):
    CALLED = "called"
    CUT = "cut"
    FIRST_DISCARD = "first_discard"
    HIDDEN = "hidden"
    OPEN_RANDOM = "open_random"
    NONE = "none"


class Reveal(StrEnum):
    ON_VOID = "on_void"
    ON_REQUEST = "on_request"
    ON_PLAY = "on_play"
    """Seed 001's closed method: in force from the first trick while secret, turned up only
    when its holder plays it; nobody may ask."""


class HideFrom(StrEnum):
    """Which cards the hidden trump is chosen from."""

    FIRST_PACKET = "first_packet"
    FULL_HAND = "full_hand"
    """Seed 001: the whole 13-card hand, after the full deal."""


class MakerDiscard(StrEnum):
    """What the caller of an on-request hidden trump plays when it cannot follow and does not
    reveal (seed 003, Double Sir): an open card, or a card face down that cannot win."""

    OPEN = "open"
    FACE_DOWN = "face_down"


class TrumpCard(StrEnum):
    """What a called-trump caller who will not choose on its first five may do instead (seed 003)."""

    FIRST_PACKET = "first_packet"
    """It must choose from its first five cards."""
    LATER = "later"
    """It may name a later card of its own hand (``trump_card_index``), turned up when dealt."""


class Decline(StrEnum):
    """What a caller's decline to choose from its first five cards means (seed 003)."""

    NONE = "none"
    """No decline: the caller chooses."""
    SECOND_PACKET = "second_packet"
    """A card drawn at random (from the hand's chance seed) from its second packet, turned up."""


class Capture(StrEnum):
    SWEEP = "sweep"
    DIRECT = "direct"


class SweepLimits(StrEnum):
    NONE = "none"
    COURT_PIECE = "court_piece"


class HandResultRule(StrEnum):
    TENS = "tens"
    MENDIKOT = "mendikot"
    SEVEN_TRICKS = "seven_tricks"


class TwoTwo(StrEnum):
    NON_DEALER = "non_dealer"
    TRICKS_WON_AT_TABLE = "tricks_won_at_table"
    TRICKS_CAPTURED = "tricks_captured"
    DRAW = "draw"


# option -> (parent option, parent values under which it applies, its neutral value)
_DEPENDENT: dict[str, tuple[str, frozenset[str], Any]] = {
    "reveal": ("trump", frozenset({"hidden"}), None),
    "hide_from": ("trump", frozenset({"hidden"}), HideFrom.FIRST_PACKET),
    "maker_discard": ("reveal", frozenset({"on_request"}), MakerDiscard.OPEN),
    "hidden_blind": ("trump", frozenset({"hidden"}), False),
    "trump_card": ("trump", frozenset({"called"}), TrumpCard.FIRST_PACKET),
    "trump_card_index": ("trump_card", frozenset({"later"}), None),
    "decline": ("trump", frozenset({"called"}), Decline.NONE),
    "sweep_limits": ("capture", frozenset({"sweep"}), SweepLimits.NONE),
    "two_two": ("hand_result", frozenset({"tens"}), None),
    "bonus_aces": ("hand_result", frozenset({"mendikot"}), False),
    "mendikot_bonus": ("hand_result", frozenset({"mendikot"}), 0),
    "kot_bonus": ("hand_result", frozenset({"mendikot", "seven_tricks"}), 0),
    "early_end": ("hand_result", frozenset({"seven_tricks"}), False),
}


_NOT_QUIET = object()
_QUIET_DEFAULTS: dict[str, Any] = {
    "hide_from": HideFrom.FIRST_PACKET.value,
    "hidden_blind": False,
    "trump_card": TrumpCard.FIRST_PACKET.value,
    "decline": Decline.NONE.value,
}
"""Options added after records were first written: listed only when not at their default, so
the options of every earlier record, transcript and ``dehla rules`` line read as they did."""


@dataclasses.dataclass(frozen=True)
class Rules:
    """One complete, validated set of rules for a hand and a match."""

    __pydantic_config__: ClassVar[dict[str, str]] = {"extra": "forbid"}
    """For ``make_rules``: an option that is not a field is an error."""

    direction: Direction = Direction.CLOCKWISE
    deck: DeckKind = DeckKind.FULL52
    trump: TrumpMethod = TrumpMethod.CALLED
    reveal: Reveal | None = None
    hide_from: HideFrom = HideFrom.FIRST_PACKET
    maker_discard: MakerDiscard = MakerDiscard.OPEN
    hidden_blind: bool = False
    """Seed 003: the face-down card is taken at random from the caller's first five unseen, so
    nobody, the caller included, knows the trump until it is revealed."""
    trump_card: TrumpCard = TrumpCard.FIRST_PACKET
    trump_card_index: int | None = None
    """Under ``trump_card: later``: which card of the caller's hand, in deal order from 1
    (default 7; after the first packet)."""
    decline: Decline = Decline.NONE
    capture: Capture = Capture.SWEEP
    sweep_limits: SweepLimits = SweepLimits.NONE
    hand_result: HandResultRule = HandResultRule.TENS
    two_two: TwoTwo | None = None
    bonus_aces: bool = False
    mendikot_bonus: int = 0
    kot_bonus: int = 0
    early_end: bool = False

    def __post_init__(self) -> None:
        """Defaults that depend on another option, and dependents set where they do not apply
        (a ``RulesError``, which pydantic reports as this value's error)."""
        if self.trump is TrumpMethod.HIDDEN and self.reveal is None:
            object.__setattr__(self, "reveal", Reveal.ON_VOID)
        if self.trump_card is TrumpCard.LATER and self.trump_card_index is None:
            object.__setattr__(self, "trump_card_index", DEFAULT_TRUMP_CARD_INDEX)
        for option, (parent, applies_under, neutral) in _DEPENDENT.items():
            value = getattr(self, option)
            parent_value = str(getattr(self, parent))
            if parent_value not in applies_under and value != neutral:
                under = " or ".join(f"{parent}={v}" for v in sorted(applies_under))
                raise RulesError(
                    f"option {option}={_text(value)} applies only under {under}, "
                    f"not {parent}={parent_value}"
                )
        if self.hand_result is HandResultRule.TENS and self.two_two is None:
            object.__setattr__(self, "two_two", TwoTwo.NON_DEALER)
        if self.mendikot_bonus < 0 or self.kot_bonus < 0:
            raise RulesError("bonus points cannot be negative")
        self._check_trump_variants()

    def _check_trump_variants(self) -> None:
        """Seed 003's trump variants: combinations that cannot both hold are refused."""
        if self.trump_card_index is not None:
            first, size = self.packets[0], self.hand_size
            if not first < self.trump_card_index <= size:
                raise RulesError(
                    f"option trump_card_index={self.trump_card_index} must name a later card: "
                    f"{first + 1} to {size} (the first {first} are the first packet)"
                )
        if self.trump_card is TrumpCard.LATER and self.decline is not Decline.NONE:
            raise RulesError(
                "options trump_card=later and decline=second_packet both say what a caller who "
                "will not choose on five cards gets; set one"
            )
        if self.hidden_blind and self.reveal is Reveal.ON_PLAY:
            raise RulesError(
                "option hidden_blind=true does not go with reveal=on_play "
                "(its holder plays the face-down card, so it must know it)"
            )
        if self.hidden_blind and self.hide_from is not HideFrom.FIRST_PACKET:
            raise RulesError(
                "option hidden_blind=true takes the card from the first five: "
                "it needs hide_from=first_packet"
            )

    # Derived facts the engine and the UIs share.
    @property
    def deck_mask(self) -> CardMask:
        return SHORT_DECK if self.deck is DeckKind.SHORT32 else FULL_DECK

    @property
    def hand_size(self) -> int:
        return 8 if self.deck is DeckKind.SHORT32 else 13

    @property
    def packets(self) -> tuple[int, ...]:
        return (5, 3) if self.deck is DeckKind.SHORT32 else (5, 4, 4)

    @property
    def scores_kots(self) -> bool:
        """Dehla Pakad matches count kots; Mendikot and Court Piece count match points."""
        return self.hand_result is HandResultRule.TENS

    def options(self) -> dict[str, Any]:
        """Every option that applies to these rules, as plain JSON values."""
        out: dict[str, Any] = {}
        for name in OPTION_NAMES:
            value = _json(getattr(self, name))
            dep = _DEPENDENT.get(name)
            if dep and str(getattr(self, dep[0])) not in dep[1]:
                continue
            if _QUIET_DEFAULTS.get(name, _NOT_QUIET) == value:
                continue
            out[name] = value
        return out

    def describe(self) -> str:
        return ", ".join(f"{k}={_text(v)}" for k, v in self.options().items())


OPTION_NAMES: tuple[str, ...] = tuple(field.name for field in dataclasses.fields(Rules))
"""Every option, in the order ``dehla rules`` and the records list them."""


def _json(value: Any) -> Any:
    return value.value if isinstance(value, StrEnum) else value


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value.value if isinstance(value, StrEnum) else value)


DEFAULT_TRUMP_CARD_INDEX = 7
"""Seed 003: "some later card such as the 7th or the 10th"."""

PRESETS: dict[str, dict[str, Any]] = {
    "dehla-pakad": {},
    "dehla-pakad-cut": {"trump": "cut"},
    "dehla-pakad-hidden": {"trump": "hidden", "reveal": "on_void"},
    "mendikot": {
        "direction": "anticlockwise", "trump": "hidden", "reveal": "on_request",
        "capture": "direct", "hand_result": "mendikot", "mendikot_bonus": 1, "kot_bonus": 1,
    },
    "mendikot-closed": {
        "direction": "anticlockwise", "trump": "hidden", "reveal": "on_play", "hide_from": "full_hand",
        "capture": "direct", "hand_result": "mendikot", "mendikot_bonus": 1, "kot_bonus": 1,
    },
    "court-piece": {
        "direction": "anticlockwise", "trump": "called", "capture": "direct",
        "hand_result": "seven_tricks", "kot_bonus": 1,
    },
    "court-piece-double-sir": {
        "direction": "anticlockwise", "trump": "hidden", "reveal": "on_request",
        "maker_discard": "face_down", "capture": "sweep", "sweep_limits": "court_piece",
        "hand_result": "seven_tricks", "kot_bonus": 1,
    },
}
DEFAULT_PRESET = "dehla-pakad"

NOT_YET_PLAYABLE: frozenset[str] = frozenset({"twenty-eight", "twenty-nine"})
"""The bidding game's presets (``bidding_rules.BIDDING_PRESETS``): built with ``bidding_rules_for``
(``game_rules_for`` builds any preset's); ``rules_for`` refuses them, as what asks it for rules
plays only the trick-taking games (the batched engine, for one)."""

PRESET_SUMMARIES: dict[str, str] = {
    "dehla-pakad": "Dehla Pakad: called trump, two tricks in a row sweep the pile, tens win",
    "dehla-pakad-cut": "Dehla Pakad, cut trump (katte): first player out of a suit sets trumps",
    "dehla-pakad-hidden": "Dehla Pakad, hidden trump (bandh hukum) turned up at the first void",
    "mendikot": "Mendikot (Mindi): closed trump on request, tricks go to their winner",
    "mendikot-closed": "Mendikot, closed trump as seed 001 writes it: secret from the whole hand, "
    "in force at once, turned up when played",
    "court-piece": "Court Piece (Rang): called trump, 7 tricks win, first seven is a court",
    "court-piece-double-sir": (
        "Court Piece Double Sir: hidden rung, the maker may discard face down, sweeps with Court "
        "Piece limits"
    ),
}


def rules_for(preset: str = DEFAULT_PRESET, overrides: Mapping[str, Any] | None = None) -> Rules:
    """Build rules from a preset name plus option overrides, with one clear error if invalid."""
    if preset in NOT_YET_PLAYABLE:
        raise RulesError(f"{preset}: a bidding game, which this command does not play")
    if preset not in PRESETS:
        raise RulesError(f"unknown preset {preset!r} (known: {', '.join(PRESETS)})")
    values = dict(PRESETS[preset])
    overrides = dict(overrides or {})
    unknown = sorted(set(overrides) - set(OPTION_NAMES))
    if unknown:
        raise RulesError(
            f"unknown option {', '.join(unknown)} (known: {', '.join(OPTION_NAMES)})"
        )
    dropped: set[str] = set()
    for option, (parent, _, _) in _DEPENDENT.items():  # parents come before their dependents
        if (parent in overrides or parent in dropped) and option not in overrides:
            values.pop(option, None)
            dropped.add(option)
    values.update(overrides)
    return make_rules(values, context=f"preset {preset}")


def make_rules(values: Mapping[str, Any], context: str = "rules") -> Rules:
    """Validate a full options mapping of plain values (a preset, the command line, a record)
    into ``Rules``."""
    from pydantic import ValidationError  # noqa: PLC0415 - only untyped input needs pydantic (module doc)

    try:
        return _validator().validate_python(dict(values))
    except ValidationError as exc:
        raise RulesError(f"{context}: {_first_problem(exc)}") from None


@functools.cache
def _validator() -> TypeAdapter[Rules]:
    from pydantic import TypeAdapter  # noqa: PLC0415 - see make_rules

    return TypeAdapter(Rules)


def parse_option(text: str) -> tuple[str, Any]:
    """Parse ``name=value`` from the command line; booleans and ints become typed."""
    name, sep, raw = text.partition("=")
    if not sep or not name.strip():
        raise RulesError(f"option {text!r} is not of the form name=value")
    value: Any = raw.strip()
    if value.lower() in ("true", "false"):
        value = value.lower() == "true"
    elif value.lstrip("-").isdigit():
        value = int(value)
    return name.strip().replace("-", "_"), value


def _first_problem(exc: ValidationError) -> str:
    err = exc.errors()[0]
    where = ".".join(str(p) for p in err["loc"])
    message = str(err["msg"]).removeprefix("Value error, ")
    if err["type"] in ("extra_forbidden", "unexpected_keyword_argument"):
        return f"unknown option {where}"
    if where:
        return f"option {where}: {message} (got {err.get('input')!r})"
    return message
