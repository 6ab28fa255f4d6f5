"""How the trump suit became public: the value types ``HandState`` reports and the trick
rules (``trick.py``) read. Apart from ``hand.py`` so that the trick rules need not import the
hand that plays by them."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from arena.engine.cards import Card, Suit
from arena.engine.rules import TrumpMethod
from arena.engine.seats import Seat


class RevealReason(StrEnum):
    VOID = "void"
    REQUEST = "request"
    LAST_CARD = "last_card"
    PLAYED = "played"
    """On_play: its holder played it (the last card is ``LAST_CARD``)."""


@dataclass(frozen=True, slots=True)
class TrumpReveal:
    """The face-down trump turned up: in which trick, after how many cards, for whom, why."""

    trick: int
    position: int
    seat: Seat
    card: Card
    reason: RevealReason


@dataclass(frozen=True, slots=True)
class TrumpSetting:
    """How the trump suit became public (``card`` and ``seat`` where a card set it)."""

    suit: Suit
    method: TrumpMethod
    trick: int
    card: Card | None
    seat: Seat | None
