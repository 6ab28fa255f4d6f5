"""Local matches end to end: a real ``dehla serve`` over a data folder, a real ``dehla match``
that prints its page's address because that server runs, and Debian's Chromium (Playwright)
following it to the match page, the replay viewer and the duplicate side-by-side view, checked
against the engine's own replay of the record file (``table_facts.py``). No sleeps."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from arena.console.serving import running_server_url
from tests.database import database_env
from tests.replay_page_helpers import check_table, wait_loaded
from tests.web.table_facts import TableFacts, cards_in, replayed
from tests.web_helpers import serving

WATCHED_SEAT = 1


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("local-data")


@pytest.fixture(scope="module")
def served(root: Path) -> Iterator[str]:
    with serving(root) as url:
        yield url
    assert running_server_url(root) is None, "dehla serve left its address behind when it stopped"


@pytest.fixture(scope="module")
def played(root: Path, served: str) -> tuple[str, str]:
    """A real local match played while the server runs: its id and what ``dehla match`` printed."""
    out = subprocess.run([sys.executable, "-m", "arena", "match", "random", "heuristic", "--deals", "1",
                          "--per-move", "0.05", "--seed", "7", "--data", str(root), "--runner", "local"],
                         capture_output=True, text=True, timeout=300, check=True, env=database_env(root))
    [record] = (root / "local-matches").glob("*.jsonl")
    (root / "local-matches" / "broken.jsonl").write_text('{"type": "match_start"}\n')
    return record.stem, out.stdout


@pytest.fixture(scope="module")
def hands(root: Path, played: tuple[str, str]) -> list[list[TableFacts]]:
    lines = [json.loads(line) for line in (root / "local-matches" / f"{played[0]}.jsonl").read_text().splitlines()]
    return [replayed(line["record"]) for line in lines if line["type"] == "hand"]


def test_dehla_match_prints_the_page_a_browser_follows_to_the_replay(
        page: Page, served: str, played: tuple[str, str], hands: list[list[TableFacts]], artifacts: Path) -> None:
    match_id, printed = played
    address = f"{served}local/{match_id}"
    assert f"match page: {address}\n" in printed

    page.goto(address)
    expect(page.locator("#match")).to_have_attribute("data-match-id", match_id)
    expect(page.locator("#team-a")).to_have_text("random")
    expect(page.locator("#team-b")).to_have_text("heuristic")
    links = page.locator("ol#hands a[data-hand]")
    expect(links).to_have_count(len(hands))
    page.screenshot(path=artifacts / "local-match.png", full_page=True)

    links.first.click()
    wait_loaded(page)
    expect(page.locator("#steps")).to_have_text(str(len(hands[0]) - 1))
    check_table(page, hands[0][0])
    page.keyboard.press("End")
    expect(page.locator("#step")).to_have_attribute("data-step", str(len(hands[0]) - 1))
    check_table(page, hands[0][-1])
    expect(page.locator("#result")).to_be_visible()
    page.screenshot(path=artifacts / "local-replay.png", full_page=True)

    page.locator("#match-page").click()
    expect(page.locator("#match")).to_have_attribute("data-match-id", match_id)


def test_the_duplicate_side_by_side_view_of_a_local_match(page: Page, served: str, played: tuple[str, str],
                                                          hands: list[list[TableFacts]], artifacts: Path) -> None:
    page.goto(f"{served}local/{played[0]}/replay?hand=1")
    wait_loaded(page)
    page.get_by_role("link", name="duplicate side by side").click()
    wait_loaded(page)
    expect(page.locator("#table-b")).to_be_visible()
    check_table(page, hands[0][0])
    check_table(page, hands[1][0], suffix="-b")
    page.keyboard.press("End")
    last = max(len(hands[0]), len(hands[1])) - 1
    expect(page.locator("#step")).to_have_attribute("data-step", str(last))
    check_table(page, hands[0][min(last, len(hands[0]) - 1)])
    check_table(page, hands[1][min(last, len(hands[1]) - 1)], suffix="-b")
    expect(page.locator("#margin")).not_to_have_attribute("data-margin", "")
    page.screenshot(path=artifacts / "local-duplicate.png", full_page=True)


def test_a_seats_view_of_a_local_match_shows_no_other_hand(page: Page, served: str, played: tuple[str, str],
                                                          hands: list[list[TableFacts]]) -> None:
    page.goto(f"{served}local/{played[0]}/replay?hand=1&seat={WATCHED_SEAT}")
    wait_loaded(page, str(WATCHED_SEAT))
    check_table(page, hands[0][0], open_seats=range(WATCHED_SEAT, WATCHED_SEAT + 1))
    unseen = hands[0][0].unseen_by(WATCHED_SEAT)
    assert unseen and not cards_in(page.content(), unseen)


def test_the_local_tab_lists_the_match_and_a_broken_file_without_breaking(
        page: Page, served: str, played: tuple[str, str], artifacts: Path) -> None:
    page.goto(served)
    page.locator("#nav-local").click()
    rows = page.locator("table#local-matches tr[data-match-id]")
    expect(rows).to_have_count(2)
    good = page.locator(f"tr[data-match-id='{played[0]}']")
    expect(good.locator("td[data-col=team_a]")).to_have_text("random")
    expect(good.locator("td[data-col=format]")).to_have_text("duplicate:1")
    expect(good.locator("td[data-col=status]")).to_have_text("done")
    broken = page.locator("tr[data-match-id='broken']")
    expect(broken).to_have_attribute("data-problem", "true")
    expect(broken.locator("td[data-col=problem]")).to_contain_text("match_start line")
    page.screenshot(path=artifacts / "local-matches.png", full_page=True)
    broken.locator("a").click()
    expect(page.locator("#record-problem")).to_contain_text("broken.jsonl:1")
