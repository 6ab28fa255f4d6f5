"""Signing in and an author's pages in a real browser (Debian's Chromium via Playwright) against a
real ``dehla serve``: sign in with the token, see my bots, uploads and a bot's log (its markup
shown as text, no script run), sign out; a wrong token; a session ended by rotating the token."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Dialog, Page, expect

from ladder.admin.authors import rotate_token
from ladder.store.database import Store
from ladder.store.paths import ArenaData
from ladder.web.bot_logs import ROOM_HEADINGS
from tests.web.identity_fixtures import LOG_LINE, ROOM1_LOG_LINE, SCRIPT, Served, served_ladder


@pytest.fixture(scope="module")
def served_authors(played: ArenaData, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    with served_ladder(played, tmp_path_factory.mktemp("browser-identity") / "data", ("ravi",)) as served:
        yield served


def sign_in(page: Page, url: str, token: str) -> None:
    page.goto(url + "signin")
    page.fill("form#signin input[name=token]", token)
    page.click("form#signin button[type=submit]")


def test_sign_in_see_my_bots_uploads_and_a_log_then_sign_out(served_authors: Served, page: Page,
                                                             artifacts: Path) -> None:
    dialogs: list[str] = []

    def dismissed(dialog: Dialog) -> None:
        dialogs.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", dismissed)
    ladder, url = served_authors.ladder, served_authors.url
    page.goto(url)
    page.click("#nav-me")
    expect(page).to_have_url(url + "signin")  # signed out: /me sends to the form
    sign_in(page, url, ladder.tokens["asha"])
    expect(page).to_have_url(url + "me")
    expect(page.locator("#me")).to_have_attribute("data-author", "asha")
    version = page.locator(f"table#my-bots tr[data-version-id='{ladder.asha_version}']")
    expect(version).to_have_attribute("data-status", "active")
    expect(version.locator("td[data-col=label]")).to_have_text(SCRIPT[:64])  # markup shown as text
    # (the service's queue may meanwhile reject the seeded pending upload, which has no archive)
    expect(page.locator("table#my-uploads tr[data-status=rejected] td[data-col=reason]",
                        has_text=SCRIPT)).to_have_count(1)
    expect(page.locator("table#my-uploads tr")).to_have_count(1 + 3)  # header + her three, not bilal's
    page.screenshot(path=str(artifacts / "identity-me.png"), full_page=True)

    row = page.locator(f"table#my-matches tr[data-match-id='{ladder.match_id}']")
    row.locator(f"a[data-log='seat {ladder.asha_seat}']").click()
    expect(page.locator("#bot-log-text")).to_have_text(ROOM_HEADINGS[0].decode() + LOG_LINE + "\n"
                                                       + ROOM_HEADINGS[1].decode() + ROOM1_LOG_LINE + "\n")
    page.screenshot(path=str(artifacts / "identity-log.png"), full_page=True)
    assert page.locator("#bot-log-text script").count() == 0

    page.goto(url + f"matches/{ladder.match_id}")
    expect(page.locator(f"#match-faults tr[data-seat='{ladder.asha_seat}'] details pre")).to_have_count(1)
    expect(page.locator(f"#match-faults tr[data-seat='{ladder.other_seat}'] [data-evidence=withheld]")).to_have_count(1)

    page.goto(url + "me")
    page.click("form#signout button[type=submit]")
    expect(page).to_have_url(url)
    page.goto(url + f"matches/{ladder.match_id}/logs/{ladder.asha_seat}")
    expect(page.locator("#error")).to_have_attribute("data-status", "403")
    assert dialogs == []  # no markup from the bot ever ran


def test_a_wrong_token_is_one_line_on_the_form(served_authors: Served, page: Page) -> None:
    sign_in(page, served_authors.url, "dehla_1_" + "A" * 43)
    expect(page.locator("#signin-problem")).to_contain_text("not a valid API token")
    page.goto(served_authors.url + "me")
    expect(page).to_have_url(served_authors.url + "signin")


def test_rotating_the_token_ends_the_open_session(served_authors: Served, page: Page) -> None:
    sign_in(page, served_authors.url, served_authors.ladder.tokens["ravi"])
    expect(page.locator("#me")).to_have_attribute("data-author", "ravi")
    rotate_token(Store.open(served_authors.ladder.data), "ravi")
    page.reload()
    expect(page).to_have_url(served_authors.url + "signin")
