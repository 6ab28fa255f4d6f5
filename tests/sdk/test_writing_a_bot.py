"""The example bot of docs/writing-a-bot.md, taken from the doc itself, clearly beats random."""

from __future__ import annotations

import re
import types
from pathlib import Path

from arena.referee.in_process import play_in_process
from arena.referee.stats import mean_interval
from sample_bots.random.bot import RandomBot
from sdk.bot import Bot

DOC = Path(__file__).resolve().parents[2] / "docs" / "writing-a-bot.md"


def doc_bot_class() -> type[Bot]:
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(), flags=re.S)
    source = next(b for b in blocks if "class TenCatcherBot" in b)
    module = types.ModuleType("ten_catcher")
    exec(compile(source, str(DOC), "exec"), module.__dict__)  # the doc's own example, run as written
    bot_class = module.TenCatcherBot
    assert issubclass(bot_class, Bot)
    return bot_class


def test_the_documented_bot_beats_random() -> None:
    bot = doc_bot_class()
    outcome = play_in_process([bot(), RandomBot(1), bot(), RandomBot(3)], deals=80, seed=2)
    assert outcome.faults == []
    interval = mean_interval(outcome.deal_scores)
    assert interval.low > 0, interval


def test_the_documented_bot_plays_other_presets_without_faults() -> None:
    bot = doc_bot_class()
    for preset in ("dehla-pakad-hidden", "mendikot", "court-piece-double-sir"):
        outcome = play_in_process([bot(), RandomBot(1), bot(), RandomBot(3)], deals=5, seed=2, preset=preset)
        assert outcome.status == "done" and outcome.faults == []
