"""What the hostile bots share: reporting what an attack achieved, and a bot that attacks once
(at start-up or at its first decision) and otherwise plays its first legal card.

Every bot reports on stderr, one line per finding::

    HOSTILE {"attack": "read", "target": "/root", "outcome": "contained", ...}

``outcome`` is ``escaped`` when the attack did what it wanted, ``contained`` when it did not.
The tests read these lines from the bot's captured log (a channel the sandbox leaves open on
purpose), and also check side channels of their own (marker files, listening sockets).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from typing import Any

from arena.engine.actions import REVEAL, Action, RevealTrump
from arena.engine.cards import Card
from sdk.bot import Bot, BotView
from sdk.server import run

MARK = "HOSTILE "

Attack = Callable[[BotView | None], None]


def report(attack: str, outcome: str, **detail: Any) -> None:
    line = json.dumps({"attack": attack, "outcome": outcome, **detail}, default=str)
    print(MARK + line, file=sys.stderr, flush=True)


def escaped(attack: str, **detail: Any) -> None:
    report(attack, "escaped", **detail)


def contained(attack: str, **detail: Any) -> None:
    report(attack, "contained", **detail)


class HostileBot(Bot):
    """Runs ``attack`` once, at its first decision, then plays its first legal card."""

    name = "hostile"

    def __init__(self, attack: Attack | None = None, every: Attack | None = None) -> None:
        self.attack = attack
        self.every = every
        self.attacked = False

    def decide(self, view: BotView) -> Action:
        if not self.attacked and self.attack is not None:
            self.attacked = True
            self.attack(view)
        if self.every is not None:
            self.every(view)
        return super().decide(view)

    def play(self, view: BotView) -> Card | RevealTrump:
        return view.legal_cards[0] if view.legal_cards else REVEAL


def arguments(argv: Sequence[str] | None = None,
              extra: Sequence[tuple[str, dict[str, Any]]] = ()) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    parser.add_argument("--at", choices=["start", "decide"], default="decide",
                        help="attack at start-up (before serving) or at the first decision")
    for name, options in extra:
        parser.add_argument(name, **options)
    known, _ = parser.parse_known_args(argv)
    return known


def serve(attack: Attack, at: str, every: Attack | None = None) -> None:
    """Attack now (``start``) or at the first decision (``decide``), and play."""
    if at == "start":
        attack(None)
        run(HostileBot(None, every))
    else:
        run(HostileBot(attack, every))
