"""The service in a real browser: Debian's Chromium, driven by Playwright, against a real
``dehla serve`` process over a store filled by a real short ladder (fixtures in conftest.py).
Each test saves a screenshot of the page it checks into ``test-artifacts/``."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page

from ladder.paths import ArenaData


def test_the_leaderboard_lists_the_ladders_bots(page: Page, served: str, played: ArenaData, artifacts: Path) -> None:
    page.goto(served)
    page.screenshot(path=artifacts / "leaderboard.png", full_page=True)
    names = page.locator("table.leaderboard tbody tr td:nth-child(2)").all_text_contents()
    assert sorted(name.strip() for name in names) == ["heuristic", "random"]
