"""What the misbehaving bots share: a first-legal bot that misbehaves at its Nth play."""

from __future__ import annotations

import abc
import argparse
from collections.abc import Sequence

from arena.engine.actions import REVEAL, RevealTrump
from arena.engine.cards import Card
from sdk.bot import Bot, BotView


def first_legal(view: BotView) -> Card | RevealTrump:
    return view.legal_cards[0] if view.legal_cards else REVEAL


class ScriptedBot(Bot):
    """Plays its first legal card, except at play number ``at`` (1-based, counting card plays
    only) where it calls ``misbehave``; with ``repeat``, at every play from then on.
    ``can_misbehave`` may postpone the misbehaviour to the first play where it is possible."""

    name = "scripted"

    def __init__(self, at: int = 1, repeat: bool = False) -> None:
        self.at = at
        self.repeat = repeat
        self.plays = 0
        self.misbehaved = 0

    def play(self, view: BotView) -> Card | RevealTrump:
        self.plays += 1
        due = self.plays >= self.at and (self.repeat or not self.misbehaved)
        if due and self.can_misbehave(view):
            self.misbehaved += 1
            return self.misbehave(view)
        return first_legal(view)

    def can_misbehave(self, view: BotView) -> bool:
        return True

    @abc.abstractmethod
    def misbehave(self, view: BotView) -> Card | RevealTrump:
        """The misbehaviour: each test bot has its own."""


def arguments(description: str, argv: Sequence[str] | None = None,
              extra: Sequence[tuple[str, dict[str, object]]] = ()) -> argparse.Namespace:
    """``--at N`` and ``--repeat`` for every bot, plus its own options. ``--address`` is read
    by ``sdk.server``; it is declared here only so that its value is not taken for another."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--address", help="where to serve (default: $DEHLA_BOT_ADDRESS)")
    parser.add_argument("--at", type=int, default=1, help="misbehave at this play (1-based)")
    parser.add_argument("--repeat", action="store_true", help="and at every play after it")
    for name, options in extra:
        parser.add_argument(name, **options)  # type: ignore[arg-type]
    known, _ = parser.parse_known_args(argv)
    return known


