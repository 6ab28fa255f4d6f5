"""``dehla bot new NAME``: a bot folder that works as generated.

It holds the bot (``bot.py``), its manifest, a Dockerfile on the arena's base image and a test
that plays it in-process against the random bot.
"""

from __future__ import annotations

import re
from pathlib import Path

from arena.bots.manifest import MANIFEST, ManifestError

BASE_IMAGE = "dehla-arena/bot-base:1"


def class_name(name: str) -> str:
    return "".join(part.capitalize() for part in re.split(r"[-_]", name)) + "Bot"


def scaffold_bot(name: str, parent: Path, author: str = "you") -> Path:
    """Write a new bot folder ``parent/name``; refuses to overwrite anything."""
    if not re.fullmatch(r"[a-z][a-z0-9_-]{1,31}", name):
        raise ManifestError(
            f"bot name {name!r}: use 2-32 lowercase letters, digits, '-' or '_', starting with a letter"
        )
    folder = parent / name
    if folder.exists():
        raise ManifestError(f"{folder}: already exists (choose another name or folder)")
    folder.mkdir(parents=True)
    files = {
        MANIFEST: _MANIFEST.format(name=name, author=author),
        "bot.py": _BOT.format(cls=class_name(name), name=name),
        "test_bot.py": _TEST.format(cls=class_name(name)),
        "Dockerfile": _DOCKERFILE.format(base=BASE_IMAGE),
        "README.md": _README.format(name=name),
    }
    for filename, text in files.items():
        (folder / filename).write_text(text, encoding="utf-8")
    return folder


_MANIFEST = '''name = "{name}"
version = "0.1.0"
author = "{author}"
description = "A Dehla Pakad bot."
command = ["python", "bot.py"]

[resources]
memory_mb = 512
cpus = 1.0
processes = 32
'''

_BOT = '''"""{name}: a Dehla Pakad bot. Run it with `dehla match ./{name} random`."""

from __future__ import annotations

from arena.engine.actions import RevealTrump
from arena.engine.cards import Card
from sdk import BiddingView, Bot, BotView, run


class {cls}(Bot):
    name = "{name}"

    def play(self, view: BotView) -> Card | RevealTrump:
        """Play the lowest legal card. Start here: see docs/writing-a-bot.md."""
        return min(view.legal_cards, key=lambda card: card.rank)

    # Twenty-eight and Twenty-nine (--preset twenty-eight): the auction, the face-down trump and
    # the play; each has a default in sdk.Bot, so delete what you do not change.
    def bid(self, view: BiddingView) -> int | None:
        """Bid an amount of view.legal_bids, or None to pass (the opener must bid)."""
        return None if view.may_pass else view.legal_bids[0]

    def set_trump(self, view: BiddingView) -> Card:
        """As the highest bidder: the card of your four to put face down (its suit is trumps)."""
        return max(view.hand, key=view.strength)

    def play_bidding(self, view: BiddingView) -> Card | RevealTrump:
        """Play a legal card (or REVEAL, when view.may_call_for_trump, to have the trump exposed)."""
        return min(view.legal_cards, key=view.strength)


if __name__ == "__main__":
    run({cls}())
'''

_TEST = '''"""Plays the bot against the random sample bot in-process, with the views the referee sends."""

from bot import {cls}

from sample_bots.random.bot import RandomBot
from arena.referee.in_process import play_in_process


def test_plays_full_matches_without_faults() -> None:
    for preset in ("dehla-pakad", "mendikot", "court-piece", "twenty-eight"):
        outcome = play_in_process([{cls}(), RandomBot(1), {cls}(), RandomBot(3)], deals=5, seed=1, preset=preset)
        assert outcome.status == "done"
        assert outcome.faults == []
        assert len(outcome.hands) == 10
'''

_DOCKERFILE = '''# The arena's bot base image has Python and the Dehla Arena SDK installed.
FROM {base}
COPY --chown=bot:bot . /bot
WORKDIR /bot
USER bot
# The referee passes the address to serve on in DEHLA_BOT_ADDRESS.
CMD ["python", "bot.py"]
'''

_README = '''# {name}

- `pytest test_bot.py`: plays the bot in-process against the random bot.
- `dehla match ./{name} random --deals 50`: a real refereed match over gRPC.
- `bot.toml`: name, version, author, the start command and resource requests.

`dehla` and `pytest` are the arena's own: `.venv/bin/dehla` and `.venv/bin/pytest` in its checkout
unless its `.venv/bin` is on your PATH (`.venv/bin/pip install pytest` if pytest is missing).
'''
