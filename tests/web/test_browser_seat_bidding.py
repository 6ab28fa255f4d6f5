"""A person plays a hand of Twenty-eight in Debian's Chromium (Playwright) against three random
bots, on the service's application served in process (the process boundary is the plain seat
test's subject, ``test_browser_seat.py``), its deals seeded so that the person is asked in the
auction: the auction's calls as buttons, the trump set face down, the play with the keyboard to
the hand's end; every DOM scanned for a card seat 0 may not see (the engine's ``observe_bidding``
over the record), and a spectator's page showing the auction and the contract a trick late.
Screenshots go to ``test-artifacts/``. No sleeps: Playwright waits for the board's attributes."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from ladder.store.paths import ArenaData
from ladder.web.seats.tables import SeatSettings
from tests.web.identity_fixtures import CSRF_INPUT
from tests.web.seat_helpers import Seen, leaks, moment_of, start_random_table
from tests.web_helpers import serving_in_process

TURN_WAIT_MS = 60_000
SEED = 3
"""A deal where three random bots leave the person a bid (``tests/web/test_play_bidding.py``'s
chooser, which bids the most it may, wins the auction on it)."""


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("seat-bidding-data")


@pytest.fixture(scope="module")
def served(root: Path) -> Iterator[str]:
    with serving_in_process(ArenaData.locate(root), seats=SeatSettings(seed=SEED)) as url:
        yield url


def test_a_person_plays_a_twenty_eight_hand_bidding_and_setting_the_trump_from_the_page(
        page: Page, served: str, root: Path, artifacts: Path) -> None:
    """The auction's calls are buttons (the person bids the most it may, so it wins the auction
    and sets a card face down as the trump), then the first move offered each time, with the keyboard."""
    page.goto(served)
    page.locator("#nav-play").click()
    page.locator("form#new-table select[name=preset]").select_option("twenty-eight")
    start_random_table(page)

    board = page.locator("#board")
    seen: list[Seen] = []
    decisions: list[str] = []
    while True:
        expect(board).to_have_attribute("data-phase", re.compile("^(your-turn|finished)$"), timeout=TURN_WAIT_MS)
        seen.append(moment_of(page.url, page.content()))
        if board.get_attribute("data-phase") == "finished":
            break
        turn = board.get_attribute("data-turn")
        bids = page.locator("#choices button[data-action^='bid ']")
        if bids.count():
            decisions.append("bid")
            if decisions.count("bid") == 1:
                page.screenshot(path=artifacts / "seat-bidding-auction.png", full_page=True)
            bids.last.click()  # the highest bid offered
        elif page.locator("#prompt").inner_text().endswith("face down as the trump"):
            decisions.append("hide")
            page.screenshot(path=artifacts / "seat-bidding-trump.png", full_page=True)
            page.locator("#hand button.legal").first.click()
        else:
            decisions.append("play")
            page.keyboard.press("1")
            page.keyboard.press("Enter")
        expect(page.locator(f"#board[data-phase=your-turn][data-turn='{turn}']")).to_have_count(0)
        if decisions.count("play") == 2:
            watch_live(page, served, artifacts)
    expect(page.locator("#outcome")).to_contain_text("Match over", timeout=TURN_WAIT_MS)  # the bots end the hand
    expect(page.locator("#last-result")).to_contain_text("bid of")
    page.screenshot(path=artifacts / "seat-bidding-finished.png", full_page=True)
    assert {"bid", "hide", "play"} <= set(decisions), decisions

    token = CSRF_INPUT.search(page.content())
    href = page.locator("#record-page").get_attribute("href")
    assert token is not None and href is not None
    record = root / "local-matches" / f"{href.rsplit('/', 1)[1]}.jsonl"
    assert leaks(seen, record, token.group(1)) == []


def watch_live(page: Page, served: str, artifacts: Path) -> None:
    """Another tab on the table's live page: the auction and the contract, a trick late."""
    spectator = page.context.new_page()
    spectator.goto(served)
    spectator.locator("a[href='/local']").first.click()
    spectator.locator("td[data-col=status] a.live").first.click()
    expect(spectator.locator("#live-delay")).to_be_visible()
    expect(spectator.locator(".live-auction [data-call^='bid ']").first).to_be_visible()
    expect(spectator.locator(".live-contract")).to_contain_text("bid")
    spectator.screenshot(path=artifacts / "seat-bidding-live.png", full_page=True)
    spectator.close()
