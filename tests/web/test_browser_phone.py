"""Every page fits a phone (issue 27): at 390 px wide no page scrolls sideways.

The pages are the application's own GET routes, enumerated from ``create_app`` (not a list kept
by hand), so a new page is visited as soon as it exists; a route whose path parameter this test
has no value for fails the test until one is added to ``PATH_VALUES``. Each page is opened by
Chromium (Playwright) signed in as the owner of a bot, so the author-only pages show their
content, and the layout is measured once the page (and the replay's script) has drawn it:
``document.documentElement.scrollWidth <= innerWidth``. Screenshots go to ``test-artifacts/``."""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from ladder.store.paths import ArenaData
from ladder.web.app import create_app
from tests.web.identity_fixtures import Ladder, authored_ladder
from tests.web.seat_helpers import start_random_table
from tests.web_helpers import match_file, serving_in_process

PHONE: ViewportSize = {"width": 390, "height": 844}
LOCAL_ID = "phone-local"
NOT_PAGES = ("/api/", "/fragments/", "/static", "/openapi.json", "/docs/oauth2-redirect")
"""JSON, htmx fragments (shown inside their page), files and the OpenAPI UI's redirect helper."""
VARIANTS = {"/replay": ("?hand=1", "?hand=2&step=12&seat=2", "?hand=1&step=20&duplicate=1")}
"""Query strings a route ending so is also visited with (the duplicate view stacks two tables)."""


@pytest.fixture(scope="module")
def phone_ladder(played: ArenaData, tmp_path_factory: pytest.TempPathFactory) -> Ladder:
    """The played ladder with authors, logs and uploads, and one of its records also as a local match."""
    ladder = authored_ladder(played, tmp_path_factory.mktemp("phone") / "data")
    local = ladder.data.root / "local-matches"
    local.mkdir(exist_ok=True)
    (local / f"{LOCAL_ID}.jsonl").write_bytes(match_file(ladder.data, ladder.match_id, f"m{ladder.match_id:06d}.jsonl"))
    return ladder


@pytest.fixture(scope="module")
def phone_url(phone_ladder: Ladder) -> Iterator[str]:
    with serving_in_process(phone_ladder.data) as url:
        yield url


@pytest.fixture
def phone(browser: Browser, phone_url: str, phone_ladder: Ladder) -> Iterator[Page]:
    context = browser.new_context(viewport=PHONE)
    opened = context.new_page()
    opened.goto(phone_url + "signin")
    opened.fill("form#signin input[name=token]", phone_ladder.tokens["asha"])
    opened.click("form#signin button[type=submit]")
    expect(opened).to_have_url(phone_url + "me")
    yield opened
    context.close()


def page_routes(data: ArenaData) -> list[str]:
    """The path of every GET route of the application that renders a page."""
    paths = {path for path, methods in routes_of(create_app(data).routes) if "GET" in methods}
    return sorted(path for path in paths if path != "/api" and not path.startswith(NOT_PAGES))


def routes_of(routes: Iterable[object]) -> Iterator[tuple[str, set[str]]]:
    """Each route's path and methods; FastAPI (0.16x) keeps an included router's routes behind
    ``effective_route_contexts()``, with their prefixes applied."""
    for route in routes:
        included = getattr(route, "effective_route_contexts", None)
        if included is not None:
            yield from routes_of(included())
        elif isinstance(getattr(route, "path", None), str):
            yield route.path, set(getattr(route, "methods", None) or ())  # type: ignore[attr-defined]


def addresses(routes: list[str], values: dict[str, str]) -> list[str]:
    """Each route with its parameters filled in, and its variants."""
    found: list[str] = []
    for route in routes:
        names = re.findall(r"{(\w+)}", route)
        missing = [name for name in names if name not in values]
        assert not missing, f"{route}: add a value for {missing} to the phone test's PATH_VALUES"
        filled = {**values, "match_id": LOCAL_ID} if route.startswith("/local/") else values
        path = route.format_map(filled)
        suffixes = next((queries for end, queries in VARIANTS.items() if route.endswith(end)), ("",))
        found += [path + query for query in suffixes]
    return found


def overflow(page: Page) -> tuple[int, int]:
    width, inner = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    return int(width), int(inner)


def slug(address: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", address).strip("-") or "home"


def opened_table(phone: Page, phone_url: str) -> str:
    """A person's table, opened from the phone (so its page is one of those measured)."""
    phone.goto(phone_url + "play")
    return start_random_table(phone)


def test_every_page_fits_a_phone(phone: Page, phone_url: str, phone_ladder: Ladder, artifacts: Path) -> None:
    values = {"name": "random", "match_id": str(phone_ladder.match_id), "seat": str(phone_ladder.asha_seat),
              "version_id": str(phone_ladder.asha_version), "check": "validate-self",
              "upload_id": str(phone_ladder.asha_rejected_upload), "table_id": opened_table(phone, phone_url)}
    visited: list[str] = []
    stacked = 0
    too_wide: list[str] = []
    folder = artifacts / "phone"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    for address in addresses(page_routes(phone_ladder.data), values):
        head = phone.request.get(phone_url + address.lstrip("/"))
        if not head.headers.get("content-type", "").startswith("text/html"):
            continue  # a download or a raw log: not a page
        assert head.status == 200, f"{address}: HTTP {head.status}"
        phone.goto(phone_url + address.lstrip("/"))
        if phone.locator("#replay").count():
            expect(phone.locator("#replay[data-loaded]")).to_have_count(1)
        if phone.locator("#table-b").count():  # the duplicate view: its two tables one above the other
            first, second = (phone.locator(table).bounding_box() for table in ("#table", "#table-b"))
            assert first and second and second["y"] >= first["y"] + first["height"], (address, first, second)
            stacked += 1
        phone.screenshot(path=folder / f"{slug(address)}.png", full_page=True)
        width, inner = overflow(phone)
        visited.append(address)
        if width > inner:
            too_wide.append(f"{address}: {width} px wide in a {inner} px window")
    assert len(visited) >= 14 and stacked >= 1, (visited, stacked)  # every kind of page was seen
    assert not too_wide, "pages wider than a phone:\n" + "\n".join(too_wide)
