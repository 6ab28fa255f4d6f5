"""Remembers every hand it has seen and says when it is dealt one again: the cheat that a
duplicate match's second play invites when the same bot process plays both plays of a deal.

At each hand's end (``HandEnd`` shows all four hands) it keeps the four hands. At each decision
it checks whether the cards it holds (ten or more, so that chance cannot match them: about 2e-8
per remembered hand) all come from one hand it saw before. After each hand it writes a line to
its log (stderr, which the referee keeps in the seat's log file)::

    hand 7 recognised            (it knew this deal from an earlier play)
    hand 7 fresh

It plays its lowest legal card, so its play does not depend on what it remembers.
"""

from __future__ import annotations

import sys

from arena.engine.actions import REVEAL, RevealTrump
from arena.engine.cards import Card
from sdk import HandEnd
from sdk.bot import Bot, BotView
from sdk.server import run

RECOGNISED = "recognised"
FRESH = "fresh"
ENOUGH_CARDS = 10
"""Cards held that must all come from one remembered hand to count as recognising it."""


class RememberingBot(Bot):
    name = "remember"

    def __init__(self) -> None:
        self.seen: list[frozenset[Card]] = []
        self.recognised = False

    def _check(self, view: BotView) -> None:
        held = frozenset(view.observation.hand)
        if len(held) >= ENOUGH_CARDS and any(held <= hand for hand in self.seen):
            self.recognised = True

    def play(self, view: BotView) -> Card | RevealTrump:
        self._check(view)
        if not view.legal_cards:
            return REVEAL
        return min(view.legal_cards, key=lambda card: (int(card.rank), int(card.suit)))

    def on_hand_end(self, end: HandEnd) -> None:
        print(f"hand {end.hand_index} {RECOGNISED if self.recognised else FRESH}", file=sys.stderr, flush=True)
        self.recognised = False
        self.seen.extend(frozenset(hand) for hand in end.hands)


if __name__ == "__main__":
    run(RememberingBot())
