"""A bot's last words reach its fault's evidence even when its exit is seen first.

The referee learns of an exit from the child watcher and reads the bot's output through a pump
task; the two race, and a fault raised on the exit once carried an empty log tail (CI, session
9: ``failed-start-with-log``). Here the bot's last line comes from a process it leaves behind,
after it has exited, so the plain tail is empty at the exit every time and only the settled tail
holds the line.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from arena.referee.launcher import BotCommand, BotProcess

LAST_WORDS = "LAST-WORDS-41c7"


async def exited_bot(folder: Path) -> BotProcess:
    """A bot that exits at once, leaving a child to write its last line a moment later."""
    command = BotCommand("exits", ("sh", "-c", f"(sleep 0.3; echo {LAST_WORDS}) & exit 3"))
    bot = BotProcess(command, f"unix:{folder}/bot.sock", folder / "bot.log")
    await bot.start()
    await seen_exited(bot)
    return bot


async def seen_exited(bot: BotProcess, timeout: float = 30.0) -> None:
    """Polls ``exited`` as the referee's start-up loop does: ``Process.wait`` would also wait
    for the log pipe to close, which is the very moment this test must not wait for."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not bot.exited:
        assert loop.time() < deadline, "the bot did not exit"
        await asyncio.sleep(0.005)


def test_the_settled_tail_holds_the_last_line_the_plain_tail_misses(tmp_path: Path) -> None:
    async def scenario() -> tuple[str, str]:
        bot = await exited_bot(tmp_path)
        try:
            at_exit = bot.log_tail()
            return at_exit, await bot.settled_log_tail()
        finally:
            await bot.stop(grace=0)

    at_exit, settled = asyncio.run(scenario())
    assert LAST_WORDS not in at_exit, "the race this guards against: the line is not read yet"
    assert LAST_WORDS in settled
