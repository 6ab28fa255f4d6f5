"""What a test needs from the machine (root, bubblewrap, podman, Chromium, nginx), said once.

CI installs everything the tests need (``scripts/setup.sh dev``), so there a missing requirement
is a failure, never a quiet skip that would let a whole suite stop running unnoticed; on a
developer's machine it is a skip with the reason."""

from __future__ import annotations

import os
from typing import NoReturn

import pytest


def unavailable(message: str) -> NoReturn:
    """Skip with ``message``, or fail with it in CI (``CI`` set, as ``.ci/run`` runs)."""
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)
