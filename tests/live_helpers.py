"""The live view's leak check, shared by the live and delayed-live tests: the cards nobody may see
yet at a moment of a hand, and a search of what a live file held for any of them."""

from __future__ import annotations

import re

from pydantic import BaseModel

from arena.engine.bidding_hand import BiddingHand
from arena.engine.cards import CARDS, CardMask
from arena.engine.hand import HandState

CARD = re.compile(r"(?<![0-9A-Za-z])(?:10|[2-9AKQJ])[SHDC](?![0-9A-Za-z])")


class Written(BaseModel):
    """One state as the file held it, and the cards nobody may see yet at that moment."""

    text: str
    secret: list[str]


def secret_cards(state: HandState | BiddingHand) -> list[str]:
    """Every card in a hand or still to be dealt, face down or the face-down trump (a bidding
    game's too: its second packet is the undealt one, its trump card face down until exposed)."""
    mask: CardMask = 0
    for seat in range(4):
        mask |= state.hand(seat) | state.undealt(seat)
    if isinstance(state, HandState) and not state.is_over:
        mask |= state.face_down_cards
    hidden = [str(state.hidden_card)] if state.hidden_card is not None else []
    return [str(card) for card in CARDS if mask >> card & 1] + hidden


def leaks(written: list[Written]) -> list[str]:
    return [f"state {n}: {sorted(set(CARD.findall(w.text)) & set(w.secret))}"
            for n, w in enumerate(written) if set(CARD.findall(w.text)) & set(w.secret)]
