"""A person's table as ``dehla serve`` opens it by default (``--runner sandbox``): its sample bots
start in bubblewrap, as the ladder starts every bot, and play the hand with the person."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from arena.sandbox.bwrap import SandboxRunner
from arena.sandbox.runner import RunnerKind
from ladder.cli.serve_command import seat_settings
from ladder.store.paths import ArenaData
from ladder.submission.intake import IntakeSettings
from ladder.web.app import create_app
from ladder.web.seats.tables import PersonTable
from tests.web.seat_helpers import open_table, play_through, table_of

pytestmark = pytest.mark.usefixtures("sandbox_available")


def test_a_local_services_table_starts_its_sample_bots_in_the_sandbox(tmp_path: Path) -> None:
    app = create_app(ArenaData.locate(tmp_path / "data"), IntakeSettings(concurrency=0),
                     seats=seat_settings("127.0.0.1", RunnerKind.SANDBOX))
    with TestClient(app) as client:
        answer = open_table(client, bots=("random", "heuristic", "random"))
        assert answer.status_code == 303, answer.text[:500]
        table: PersonTable = table_of(client, answer.headers["location"].rsplit("/", 1)[1])
        assert all(isinstance(runner, SandboxRunner) for runner in table.runners)
        play_through(client, table.table_id)
        assert table.outcome is not None and table.outcome.status.value == "done" and not table.outcome.faults, \
            table.failure
