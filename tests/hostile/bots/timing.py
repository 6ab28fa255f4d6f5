"""Timing: two partners pass cards through when their replies reach the table (issue 23).

- ``--role send``: at each decision, picks one of its unplayed cards (the ``k``-th of its hand,
  ``k`` its decision count) and sleeps ``--base + --step * g`` ms before answering, ``g`` the
  Gray code of the card's six-bit number (0-51); reports each symbol (``timing-send``).
- ``--role receive``: notes when each of its own requests comes. Between two requests of one
  hand, the other three seats played once each (its view says which plies those were); with
  fast opponents the time from its own reply to its next request is the sender's delay plus
  transport, so ``floor((gap - base) / step)`` is the card number's Gray code. Reports each decoded symbol
  (``timing-receive``) with the plies it spans, so a reader can pair it with what was sent.

Both play their first legal card. Under the referee's ``slot-end`` release the gap is three
per-move slots whatever the sender does: what the receiver decodes is then noise.
Used in process (``TimingSender``/``TimingReceiver``, ``tests/hostile/timing_pair.py``) and as
real bot processes (``bench/timing_channel.py``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from _hostile import HostileBot, arguments, report

from arena.contract.messages import HandEnd
from arena.engine.observation import Observation
from sdk.bot import BotView
from sdk.server import run

BITS = 6
TOP = (1 << BITS) - 1


def gray(number: int) -> int:
    """The reflected Gray code: a delay read one step off costs one bit, not up to six."""
    return number ^ (number >> 1)


def ungray(code: int) -> int:
    number = 0
    while code:
        number ^= code
        code >>= 1
    return number


def ply(observation: Observation) -> int:
    """Cards played so far in this hand: the position of a decision in the hand's play."""
    return 4 * len(observation.tricks) + len(observation.current_trick)


class TimingSender(HostileBot):
    """Delays each reply by ``base + step * c`` ms, ``c`` the number of one of its cards."""

    name = "timing-send"

    def __init__(self, base_ms: float = 30.0, step_ms: float = 15.0, *,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        super().__init__()
        self.base_ms = base_ms
        self.step_ms = step_ms
        self.sleep = sleep
        """A test's virtual clock passes its own (``tests/timing_helpers.VirtualClock.advance``)."""
        self.sent: list[dict[str, Any]] = []
        self.hand_index = 0

    def decide(self, view: BotView) -> Any:
        hand = view.hand
        card = hand[len(self.sent) % len(hand)]
        symbol = int(card) & TOP
        self.sleep((self.base_ms + self.step_ms * gray(symbol)) / 1000)  # the attack: the reply's timing
        entry = {"hand": self.hand_index, "ply": ply(view.observation), "symbol": symbol}
        self.sent.append(entry)
        report("timing-send", "info", **entry)
        return super().decide(view)

    def on_hand_end(self, end: HandEnd) -> None:
        self.hand_index += 1


class TimingReceiver(HostileBot):
    """Decodes the gap from its own reply to its next request into a six-bit symbol."""

    name = "timing-receive"

    def __init__(self, base_ms: float = 30.0, step_ms: float = 15.0, *,
                 clock: Callable[[], float] = time.perf_counter) -> None:
        super().__init__()
        self.base_ms = base_ms
        self.step_ms = step_ms
        self.clock = clock
        """A test's virtual clock passes its own (``tests/timing_helpers.VirtualClock.now``)."""
        self.received: list[dict[str, Any]] = []
        self.hand_index = 0
        self.last: tuple[int, int, float] | None = None  # (hand, ply, when it answered) of its last decision

    def decide(self, view: BotView) -> Any:
        now = self.clock()
        here = ply(view.observation)
        if self.last is not None and self.last[0] == self.hand_index:
            gap_ms = (now - self.last[2]) * 1000
            # (a hair over the floor: a gap of exactly base + step * g on a test's virtual clock may
            # come out a rounding error short of it)
            symbol = ungray(min(TOP, max(0, int((gap_ms - self.base_ms) / self.step_ms + 1e-6))))
            entry = {"hand": self.hand_index, "from_ply": self.last[1], "to_ply": here,
                     "gap_ms": round(gap_ms, 3), "symbol": symbol}
            self.received.append(entry)
            report("timing-receive", "info", **entry)
        action = super().decide(view)
        self.last = (self.hand_index, here, self.clock())
        return action

    def on_hand_end(self, end: HandEnd) -> None:
        self.hand_index += 1


if __name__ == "__main__":
    args = arguments(extra=[("--role", {"choices": ["send", "receive"], "required": True}),
                            ("--base", {"type": float, "default": 30.0}),
                            ("--step", {"type": float, "default": 15.0})])
    bot = TimingSender if args.role == "send" else TimingReceiver
    run(bot(base_ms=args.base, step_ms=args.step))
