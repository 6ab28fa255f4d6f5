"""A Twenty-eight hand in the replay viewer: a real ``dehla match --preset twenty-eight`` into a data
folder, a real ``dehla serve`` and Debian's Chromium (Playwright), checked against the engine's
replay of the record file. No sleeps."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from arena.engine.bidding_records import replay_bidding_record
from arena.replay.bidding_frames import replay_bidding_hand
from tests.database import database_env
from tests.replay_page_helpers import wait_loaded
from tests.web_helpers import serving


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("bidding-data")


@pytest.fixture(scope="module")
def served(root: Path) -> Iterator[str]:
    with serving(root) as url:
        yield url


@pytest.fixture(scope="module")
def played(root: Path, served: str) -> tuple[str, dict[str, Any]]:
    """A real local Twenty-eight match: its id and its first hand's record."""
    subprocess.run([sys.executable, "-m", "arena", "match", "random", "heuristic", "--deals", "1", "--preset",
                    "twenty-eight", "--per-move", "0.05", "--seed", "3", "--data", str(root), "--runner", "local"],
                   capture_output=True, text=True, timeout=300, check=True, env=database_env(root))
    [path] = (root / "local-matches").glob("*.jsonl")
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    return path.stem, next(line["record"] for line in lines if line["type"] == "hand")


def test_the_auction_the_hidden_trump_and_the_points_of_a_twenty_eight_hand(
        page: Page, served: str, played: tuple[str, dict[str, Any]], artifacts: Path) -> None:
    match_id, record = played
    final = replay_bidding_record(record)
    assert final.contract is not None and final.result is not None
    steps = replay_bidding_hand(record, "all").steps
    page.goto(f"{served}local/{match_id}/replay?hand=1")
    wait_loaded(page)
    expect(page.locator("#replay")).to_have_attribute("data-game", "bidding")
    expect(page.locator("#rank-order")).to_contain_text("J 9 A 10 K Q 8 7")
    page.keyboard.press("End")
    expect(page.locator("#step")).to_have_attribute("data-step", str(len(steps) - 1))
    calls = page.locator("#auction li")
    expect(calls).to_have_count(len(final.auction.calls))
    expect(calls.first).to_have_attribute("data-call", str(final.auction.calls[0][1]))
    expect(page.locator("#contract")).to_have_attribute("data-bid", str(final.contract.bid))
    expect(page.locator("#contract")).to_have_attribute("data-bidder", str(final.contract.bidder))
    for team in (0, 1):
        expect(page.locator(f"#points-{team}")).to_have_text(str(final.result.points[team]))
    outcome = "void" if final.result.void else "made" if final.result.made else "failed"
    expect(page.locator("#result")).to_have_attribute("data-outcome", outcome)
    expect(page.locator("#result")).to_be_visible()
    page.screenshot(path=artifacts / "bidding-replay.png", full_page=True)

    hidden_at = next(step.index for step in steps if step.action is not None and step.action.kind == "hide")
    bidder = final.contract.bidder
    other = (bidder + 1) % 4
    page.goto(f"{served}local/{match_id}/replay?hand=1&seat={other}&step={hidden_at}")
    wait_loaded(page, str(other))
    expect(page.locator("#trump")).to_have_attribute("data-state", "face-down")
    expect(page.locator("#trump [data-card]")).to_have_count(0)
    expect(page.locator("#action")).to_contain_text("puts a card face down")
    page.goto(f"{served}local/{match_id}/replay?hand=1&seat={bidder}&step={hidden_at}")
    wait_loaded(page, str(bidder))
    hidden = steps[hidden_at].trump.card
    assert hidden is not None
    expect(page.locator("#trump [data-card]")).to_have_attribute("data-card", hidden)
