"""The bot author's SDK: subclass ``Bot``, implement ``play``, call ``run``.

Example::

    from sdk import Bot, run

    class MyBot(Bot):
        def play(self, view):
            return view.legal_cards[0]

    if __name__ == "__main__":
        run(MyBot())
"""

from sdk.bot import Bot, BotView

__all__ = ["Bot", "BotView"]
