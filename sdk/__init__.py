"""The bot author's SDK: subclass ``Bot``, implement ``play``, call ``run``.

Example::

    from sdk import Bot, run

    class MyBot(Bot):
        def play(self, view):
            return view.legal_cards[0]

    if __name__ == "__main__":
        run(MyBot())
"""

from arena.contract.messages import BiddingHandEnd, HandEnd, MatchEnd, MatchStart
from arena.contract.time_control import MoveRelease
from sdk.bot import BiddingView, Bot, BotView, seeded_rng

__all__ = ["BiddingHandEnd", "BiddingView", "Bot", "BotView", "HandEnd", "MatchEnd", "MatchStart", "MoveRelease",
           "run", "seeded_rng"]
"""``MatchStart``, ``HandEnd`` and ``MatchEnd`` are what the referee tells a bot (the contract);
``MoveRelease`` is ``MatchStart.time_control.release`` (under ``slot-end`` the bank is all or
nothing: ``docs/protocol.md``)."""


def run(bot: Bot) -> None:
    """Serve ``bot`` on the address the referee passes (see ``sdk.server.run``)."""
    from sdk.server import run as serve  # noqa: PLC0415 - keeps ``import sdk`` free of gRPC

    serve(bot)
