"""Fixtures of the web tests."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, sync_playwright

from ladder.store.paths import ArenaData
from tests.environment_helpers import unavailable
from tests.web_helpers import run_ladder, serving

CHROMIUM = "/usr/bin/chromium"


@pytest.fixture(scope="session")
def played(tmp_path_factory: pytest.TempPathFactory) -> ArenaData:
    """One real ladder for the whole session (about 20 s; under xdist built once per run and
    copied: ``run_ladder``); tests read it and never write."""
    return run_ladder(tmp_path_factory.mktemp("played") / "ladder")


@pytest.fixture(scope="session")
def served(played: ArenaData) -> Iterator[str]:
    """A real ``dehla serve`` process on a free loopback port over the played ladder: its URL."""
    with serving(played.root) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Debian's Chromium driven by Playwright (its own browser download cannot work here).
    Missing Chromium skips the browser tests, except in CI, where it is a failure.

    One per module, not per session: Playwright's sync API leaves its event loop marked running
    on the main thread while it is open, and under xdist the same worker goes on to test files
    that call ``asyncio.run`` (``cannot be called from a running event loop``)."""
    if not Path(CHROMIUM).exists():
        message = f"{CHROMIUM} is missing (apt-get install chromium; scripts/setup.sh dev does it as root)"
        unavailable(message)
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield launched
        launched.close()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    opened = context.new_page()
    yield opened
    context.close()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    """Screenshots of each page: test artifacts, not committed (``test-artifacts/`` is ignored)."""
    folder = Path(os.environ.get("DEHLA_TEST_ARTIFACTS", Path(__file__).resolve().parents[2] / "test-artifacts"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder
