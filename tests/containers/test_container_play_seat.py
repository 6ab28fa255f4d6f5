"""A ladder bot at a person's table starts as the ladder starts it: under ``--runner container``
each version in its own image (``VersionImages``), not the base image with its code mounted."""

from __future__ import annotations

from pathlib import Path

from arena.referee.launcher import BotCommand
from arena.sandbox.containers import ContainerRunner
from arena.sandbox.runner import RunnerKind
from ladder.execution.runners import make_runner
from ladder.versions.images import VersionImages
from ladder.web.seats.tables import BotChoice, MatchLength, SeatPick, SeatSettings, TableChoice, TableRegistry


def test_a_ladder_bot_at_a_persons_table_runs_in_its_versions_image(base_image: str, tmp_path: Path) -> None:
    registry = TableRegistry(tmp_path, SeatSettings(ladder_runner=RunnerKind.CONTAINER))
    ladder_bot = SeatPick("lb#1", BotCommand("lb#1", ("python", "bot.py")), from_ladder=True)
    sample = SeatPick.sample(BotChoice.RANDOM)
    left, partner, right = registry.runners_for(TableChoice("dehla-pakad", MatchLength.ONE_HAND, ladder_bot,
                                                            sample, sample))
    assert isinstance(partner, ContainerRunner) and isinstance(partner.image_of, VersionImages)
    assert partner is make_runner(RunnerKind.CONTAINER)  # the ladder's own runner
    assert not isinstance(left, ContainerRunner) and not isinstance(right, ContainerRunner)  # the service's local
