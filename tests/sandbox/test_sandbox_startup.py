"""The expert sample bot starts in the bubblewrap sandbox and answers StartMatch within the
ladder's start-up clock (issue 26): one start, through the referee's own path.
``bench/startup_clock.py`` measures every sample bot, runner and crowd of seats."""

from __future__ import annotations

import pytest

from tests.hostile.harness import sandbox_runner
from tests.startup_helpers import start_alone, within_clock

pytestmark = pytest.mark.usefixtures("sandbox_available")


def test_the_expert_answers_start_match_within_the_start_up_clock_in_the_sandbox() -> None:
    timing = start_alone("expert", sandbox_runner())
    assert not within_clock(timing), within_clock(timing)
