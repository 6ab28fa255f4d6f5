"""A bot process plays a whole match without loading pydantic (or any other referee-side
library): its rules, time control and observations are built from typed protocol values, and
pydantic alone was about 40% of a bot's start-up CPU (``bench/bot_startup.py``)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tests.referee_helpers import among_in_process_bots, misbehaving_bot, run_seats, table_config


@pytest.mark.parametrize("preset", ["dehla-pakad", "mendikot", "court-piece-double-sir"])
def test_a_bot_plays_a_match_without_loading_pydantic(tmp_path: Path, preset: str) -> None:
    seats = among_in_process_bots(misbehaving_bot("module_census"), 2, tmp_path)
    played = asyncio.run(run_seats(table_config(f"census-{preset}", preset=preset), seats, tmp_path))
    assert played.outcome.faults == [] and played.outcome.hands
    assert "loaded: []" in played.log(2), played.log(2)


def test_the_census_sees_pydantic_when_a_bot_loads_it(tmp_path: Path) -> None:
    """The control: the same bot, told to import pydantic first, reports it."""
    seats = among_in_process_bots(misbehaving_bot("module_census", "--load", "pydantic"), 2, tmp_path)
    played = asyncio.run(run_seats(table_config("census-control"), seats, tmp_path))
    assert "loaded: ['pydantic', 'pydantic_core']" in played.log(2), played.log(2)
