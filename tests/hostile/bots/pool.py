"""Pool: one process that plays every seat the referee connects it to, with every such seat's
hand in view. Alone it is an honest bot (one seat); served at a socket the referee should never
reach (a socket on the host, or a partner's sandbox that a second seat's ``bot.sock`` points
at), it shows the referee playing a seat through it: each seat it starts is reported (``seat``),
and two seats' hands seen by one process are reported ``pooled`` (an escape).
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Callable
from typing import Any

from _hostile import HostileBot, escaped, report

from arena.contract.messages import MatchEnd, MatchStart
from sdk.bot import BotView
from sdk.server import BotServicer, parse_address, serve


class Pooler(HostileBot):
    name = "pool"

    def __init__(self) -> None:
        super().__init__()
        self.seats: list[int] = []
        self.hands: dict[int, list[str]] = {}
        self.ended = 0
        self.pooled = False

    def on_match_start(self, start: MatchStart) -> None:
        self.seats.append(start.seat)
        report("seat", "info", seat=start.seat, pid=os.getpid())

    def decide(self, view: BotView) -> Any:
        self.hands.setdefault(view.seat, [str(card) for card in view.hand])
        if len(self.hands) > 1 and not self.pooled:
            self.pooled = True
            escaped("pooled", hands={str(seat): cards for seat, cards in sorted(self.hands.items())})
        return super().decide(view)

    def on_match_end(self, end: MatchEnd) -> None:
        self.ended += 1


def serve_pool(address: str) -> None:
    """Serve a ``Pooler`` on ``address`` until every seat it started has ended (or SIGTERM)."""
    bot = Pooler()

    def servicer(on_end: Callable[[], None]) -> BotServicer:
        return BotServicer(bot, lambda: on_end() if bot.ended >= len(bot.seats) else None)

    server, done = serve(None, address, servicer=servicer)
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: done.set())
    print(f"pool serving on {address}", file=sys.stderr, flush=True)
    done.wait()
    server.stop(grace=0.5).wait()


if __name__ == "__main__":
    serve_pool(parse_address())
