"""Fixtures of the web tests."""

from __future__ import annotations

import pytest

from ladder.paths import ArenaData
from tests.web_helpers import played_ladder


@pytest.fixture(scope="session")
def played(tmp_path_factory: pytest.TempPathFactory) -> ArenaData:
    """One real ladder for the whole session (about 20 s); tests read it and never write."""
    return played_ladder(tmp_path_factory.mktemp("played"))
