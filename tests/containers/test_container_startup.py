"""The expert sample bot starts in a podman container on the arena's base image and answers
StartMatch within the ladder's start-up clock (issue 26): one start, through the referee's own
path. ``bench/startup_clock.py`` measures every sample bot, runner and crowd of seats."""

from __future__ import annotations

from arena.sandbox.containers import ContainerRunner
from tests.startup_helpers import start_alone, within_clock


def test_the_expert_answers_start_match_within_the_start_up_clock_in_a_container(podman: ContainerRunner) -> None:
    timing = start_alone("expert", podman)
    assert not within_clock(timing), within_clock(timing)
