"""The sandbox tests run bubblewrap for real, as root. Without it (or root) they are skipped with
the reason, except in CI, where that is a failure (``tests/environment_helpers.py``)."""

from __future__ import annotations

import pytest

from tests.environment_helpers import unavailable
from tests.hostile.harness import sandbox_problem


@pytest.fixture(scope="session")
def sandbox_available() -> None:
    """The bubblewrap sandbox runner can start bots here (session-scoped: checked before any
    module fixture starts a sandboxed bot)."""
    problem = sandbox_problem()
    if problem:
        unavailable(problem)
