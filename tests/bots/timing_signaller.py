"""A bot that signals its hand to its partner through its move times (issue 23's attack).

It plays as another bot (the heuristic sample bot unless told), then holds its reply for ``base + unit * c`` ms, where c
is the deck index (0..51) of one card of its unplayed hand: the next one, in deck order, of a
walk through its hand that moves on at each decision, so over a hand its partner could learn
every card. The sleep *is* the attack (nothing waits on it). ``tests/ladder/test_timing_leak*``
and ``bench/timing_detector.py`` feed its records to the detector (``arena/referee/timing_leak.py``).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from arena.engine.actions import Action
from sample_bots.heuristic.bot import HeuristicBot
from sdk.bot import Bot, BotView, DelegatingBot


class TimingSignaller(DelegatingBot):
    """``inner``'s moves, each one's reply time carrying one of its cards."""

    name = "timing-signaller"

    def __init__(self, base_ms: float = 30.0, unit_ms: float = 15.0, inner: Bot | None = None, *,
                 clock: Callable[[], float] = time.perf_counter, sleep: Callable[[float], None] = time.sleep) -> None:
        self.base = base_ms / 1000
        self.unit = unit_ms / 1000
        self.step = 0
        super().__init__(inner or HeuristicBot())
        self.clock = clock
        self.sleep = sleep
        """A test's virtual clock passes its own pair (``tests/timing_helpers.VirtualClock``)."""

    def decide(self, view: BotView) -> Action:
        start = self.clock()
        action = self.inner.decide(view)
        hand = sorted(int(card) for card in view.hand)
        if hand:
            card = hand[self.step % len(hand)]
            self.step += 1
            left = start + self.base + self.unit * card - self.clock()
            if left > 0:
                self.sleep(left)
        return action


if __name__ == "__main__":
    import argparse

    from sdk.server import run

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--base-ms", type=float, default=30.0)
    parser.add_argument("--unit-ms", type=float, default=15.0)
    parsed = parser.parse_args()
    run(TimingSignaller(parsed.base_ms, parsed.unit_ms))
