"""``dehla bot new NAME``: a bot folder that works as generated.

It holds the bot (``bot.py``), its manifest, a Dockerfile on the arena's base image and a test
that plays it in-process against the random bot. ``Template.POLICY`` makes a bot that plays a
trained policy (``sdk.policy_bot``): its ``bot.py`` loads ``policy.npz``, written here with
untrained weights (``PolicyNetwork.initial``, seed 0) until ``examples/train_policy.py`` (or
``python -m sdk.learn.train``) writes trained ones over them (``docs/learning.md``).
"""

from __future__ import annotations

import re
from enum import StrEnum
from pathlib import Path

from arena.bots.manifest import MANIFEST, ManifestError

BASE_IMAGE = "dehla-arena/bot-base:1"


def class_name(name: str) -> str:
    return "".join(part.capitalize() for part in re.split(r"[-_]", name)) + "Bot"


class Template(StrEnum):
    """What ``dehla bot new --template`` starts from: a bot to write by hand, or a trained policy."""

    PLAIN = "plain"
    POLICY = "policy"


def scaffold_bot(name: str, parent: Path, author: str = "you", template: Template = Template.PLAIN) -> Path:
    """Write a new bot folder ``parent/name``; refuses to overwrite anything."""
    if not re.fullmatch(r"[a-z][a-z0-9_-]{1,31}", name):
        raise ManifestError(
            f"bot name {name!r}: use 2-32 lowercase letters, digits, '-' or '_', starting with a letter"
        )
    folder = parent / name
    if folder.exists():
        raise ManifestError(f"{folder}: already exists (choose another name or folder)")
    folder.mkdir(parents=True)
    policy = template is Template.POLICY
    files = {
        MANIFEST: (_POLICY_MANIFEST if policy else _MANIFEST).format(name=name, author=author),
        "bot.py": (_POLICY_BOT if policy else _BOT).format(cls=class_name(name), name=name),
        "test_bot.py": _TEST.format(cls=class_name(name), path_import="from pathlib import Path\n\n" if policy else "",
                                    make=".from_folder(Path(__file__).parent)" if policy else "()"),
        "Dockerfile": _DOCKERFILE.format(base=BASE_IMAGE),
        "README.md": (_POLICY_README if policy else _README).format(name=name),
    }
    for filename, text in files.items():
        (folder / filename).write_text(text, encoding="utf-8")
    if policy:
        from sdk.policy_bot import WEIGHTS_FILE  # noqa: PLC0415 - numpy loads only for this template (tests/cli/test_cli_lazy.py)
        from sdk.policy_network import PolicyNetwork  # noqa: PLC0415

        PolicyNetwork.initial().save(folder / WEIGHTS_FILE)
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

{path_import}from bot import {cls}

from sample_bots.random.bot import RandomBot
from arena.referee.in_process import play_in_process


def test_plays_full_matches_without_faults() -> None:
    for preset in ("dehla-pakad", "mendikot", "court-piece", "twenty-eight"):
        bots = [{cls}{make}, RandomBot(1), {cls}{make}, RandomBot(3)]
        outcome = play_in_process(bots, deals=5, seed=1, preset=preset)
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

_POLICY_MANIFEST = '''name = "{name}"
version = "0.1.0"
author = "{author}"
description = "A Dehla Pakad bot that plays a trained policy (policy.npz)."
command = ["python", "bot.py"]

[resources]
memory_mb = 512
cpus = 1.0
processes = 32
'''

_POLICY_BOT = '''"""{name}: plays the policy in policy.npz. Run it with `dehla match ./{name} random`.

The weights are untrained until you train them: `python examples/train_policy.py ./{name}` in
the arena's checkout (see docs/learning.md). The bot encodes each view as the learning
environments do (sdk.encoding) and plays the network's highest-scoring legal action (a trained
file holds two networks, and their scores are added: sdk.policy_ensemble); numpy is all it needs
at play time.
"""

from __future__ import annotations

from pathlib import Path

from sdk import run
from sdk.policy_bot import PolicyBot


class {cls}(PolicyBot):
    name = "{name}"


if __name__ == "__main__":
    run({cls}.from_folder(Path(__file__).parent))
'''

_POLICY_README = '''# {name}

A bot that plays a trained policy: `bot.py` loads `policy.npz` (plain float32 arrays, read with
numpy and `allow_pickle=False`). As generated the weights are untrained (seed 0).

- `python examples/train_policy.py ./{name}` (in the arena's checkout, the `learn` extra): clones
  the heuristic sample bot's choices, then trains with PPO on the vector environment, two networks
  at once (one a core), in under 10 minutes on two cores, and writes their ensemble to `policy.npz`
  (and `training.json`, how it was made) here.
- `pytest test_bot.py`: plays the bot in-process against the random bot.
- `dehla match ./{name} random --deals 300`: a real refereed match over gRPC.
- `dehla submit ./{name}`: the ladder's validation matches, then it is rated.

`dehla`, `python` and `pytest` are the arena's own: `.venv/bin/...` in its checkout unless its
`.venv/bin` is on your PATH.
'''
