"""A bot started by the local runner dies with the process that started it, even a SIGKILLed one."""

from __future__ import annotations

import contextlib
import os
import select
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

STARTER = """
import asyncio, sys
from pathlib import Path
import grpc
from arena.referee.launcher import BotProcess, resolve_bot

async def main() -> None:
    folder = Path(sys.argv[1])
    bot = BotProcess(resolve_bot("random"), f"unix:{folder}/bot.sock", folder / "bot.log")
    await bot.start()
    # serving means setpriv has armed the parent-death signal and exec'd the bot
    channel = grpc.aio.insecure_channel(bot.address)
    await asyncio.wait_for(channel.channel_ready(), 60)
    print(bot.process.pid, flush=True)
    await asyncio.Event().wait()  # a worker in the middle of a match, until it is killed

asyncio.run(main())
"""


def wait_for_exit(pid: int, timeout: float) -> bool:
    """Whether process ``pid`` (not our child) exits within ``timeout`` seconds."""
    try:
        handle = os.pidfd_open(pid)
    except ProcessLookupError:
        return True
    try:
        ready, _, _ = select.select([handle], [], [], timeout)
        return bool(ready)
    finally:
        os.close(handle)


@pytest.mark.skipif(shutil.which("setpriv") is None, reason="util-linux setpriv is not installed")
def test_a_local_bot_dies_when_its_starter_is_killed(tmp_path: Path) -> None:
    starter = subprocess.Popen([sys.executable, "-c", STARTER, str(tmp_path)], stdout=subprocess.PIPE, text=True)
    bot_pid = 0
    try:
        assert starter.stdout is not None
        bot_pid = int(starter.stdout.readline())
        assert not wait_for_exit(bot_pid, 0)  # the bot runs
        starter.kill()  # SIGKILL: no clean-up code of the starter runs
        starter.wait(timeout=30)
        assert wait_for_exit(bot_pid, 30), "the bot outlived the process that started it"
    finally:
        if starter.poll() is None:
            starter.kill()
            starter.wait()
        if bot_pid:
            with contextlib.suppress(ProcessLookupError):
                os.kill(bot_pid, signal.SIGKILL)
