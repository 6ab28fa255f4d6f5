"""Hangs: blocks forever at its ``--at``-th play (the referee's deadline must end the call).

With ``--child PIDFILE`` it first starts a long-sleeping child process and writes its pid to
PIDFILE, to show that the referee cleans up a bot's whole process group.
"""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path

from arena.engine.actions import RevealTrump
from arena.engine.cards import Card
from sdk.bot import BotView
from sdk.server import run
from tests.bots.common import ScriptedBot, arguments


class HangingBot(ScriptedBot):
    name = "hang"

    def misbehave(self, view: BotView) -> Card | RevealTrump:
        threading.Event().wait()  # forever
        raise AssertionError("unreachable")


if __name__ == "__main__":
    args = arguments(__doc__ or "", extra=[("--child", {"type": Path, "default": None})])
    if args.child is not None:
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"])
        args.child.write_text(str(child.pid))
    run(HangingBot(args.at, args.repeat))
