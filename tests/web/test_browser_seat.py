"""A person plays a seat in Debian's Chromium (Playwright) against three random bots, on a real
``dehla serve`` over a fresh data folder: the form, the table with the mouse and the keyboard,
illegal cards not clickable, the clock shown, to the end of the match; every DOM the seat saw is
scanned for another seat's cards (the engine's own view of the record), and the finished table
leads to its record's page. No sleeps: Playwright waits for the board's attributes."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.web.identity_fixtures import CSRF_INPUT
from tests.web.seat_helpers import Seen, leaks, moment_of, start_random_table
from tests.web_helpers import serving

TURN_WAIT_MS = 60_000
"""The board polls every second; the random bots answer in milliseconds."""


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("seat-data")


@pytest.fixture(scope="module")
def served(root: Path) -> Iterator[str]:
    with serving(root) as url:
        yield url


def test_a_person_plays_a_whole_hand_with_mouse_and_keyboard(page: Page, served: str, root: Path,
                                                             artifacts: Path) -> None:
    page.goto(served)
    page.locator("#nav-play").click()
    start_random_table(page)

    board = page.locator("#board")
    seen: list[Seen] = []
    moves = 0
    picked_by_keys = 0
    played: str | None = None
    while True:
        expect(board).to_have_attribute("data-phase", re.compile("^(your-turn|finished)$"), timeout=TURN_WAIT_MS)
        html = page.content()
        seen.append(moment_of(page.url, html))
        if board.get_attribute("data-phase") == "finished":
            break
        turn = board.get_attribute("data-turn")
        expect(page.locator("#clock")).to_have_text(re.compile(r"^\d+ s$"))
        for card in page.locator("#hand button.card[data-legal=false]").all():
            expect(card).to_be_disabled()
        if moves == 0:
            page.screenshot(path=artifacts / "seat-table.png", full_page=True)
            (page.locator("#hand button.legal").first.or_(page.locator("#choices button").first)).first.click()
        else:  # the keyboard: the second move that may be made (by → or by 2, in turn) where there are two
            offered = page.locator("#hand button.legal, #choices button")
            pick = 1 if offered.count() >= 2 else 0
            page.keyboard.press(("ArrowRight" if moves % 2 else "2") if pick else "1")
            played = offered.nth(pick).get_attribute("data-card")
            page.keyboard.press("Enter")
            picked_by_keys += pick
        moves += 1
        expect(page.locator(f"#board[data-phase=your-turn][data-turn='{turn}']")).to_have_count(0)
        if moves > 1 and played is not None:  # the card the keys chose left the hand, not another
            expect(page.locator(f"#hand button.card[data-card='{played}']")).to_have_count(0)
    # the table ends after its last decision (its record written, its bots stopped): as long as a turn
    expect(page.locator("#outcome")).to_contain_text("Match over", timeout=TURN_WAIT_MS)
    page.screenshot(path=artifacts / "seat-finished.png", full_page=True)

    token = CSRF_INPUT.search(page.content())
    assert token is not None
    [record] = (root / "local-matches").glob("person-*.jsonl")
    assert moves >= 8 and picked_by_keys >= 2 and leaks(seen, record, token.group(1)) == []

    page.locator("#record-page").click()
    expect(page.locator("#match")).to_have_attribute("data-match-id", record.stem)
    expect(page.locator("ol#hands a[data-hand]")).to_have_count(1)

