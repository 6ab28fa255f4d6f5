"""The author's page fills in the submit command with this server's address, taken from the
request (``request.base_url``: the Host header, and the root path a proxy sets). Whatever they
hold is text on the page, never markup: the command a reader sees (the page's text, entities
decoded as a browser does) is exactly the address the request gave, and no tag comes of it."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from ladder.admin.authors import add_author
from ladder.store.paths import ArenaData
from ladder.web.app import create_app
from tests.database import database_url
from tests.web.fake_ladder import fake_ladder
from tests.web.identity_fixtures import csrf_of

COMMAND = re.compile(r'<pre id="submit-command"><code>(.*?)</code></pre>', re.S)
ROOT_PATH = '/"><script>alert(1)</script><b title=\'x'
"""A root path (a proxy's prefix) with every piece of markup: quotes, a tag, an attribute."""
HOST = "x'&lt;script&gt;alert(1);&amp;"
"""The most a Host header can carry into the address: Starlette drops a Host with ``<``, ``>``,
``"`` or ``/`` (the page then shows the server's own name); quotes and entities pass."""


@pytest.fixture(scope="module")
def store_root(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A two-bot store and an author's token (a fake ladder: no bot processes)."""
    root = tmp_path_factory.mktemp("submit-command") / "data"
    store = fake_ladder(root, ["s1", "s2"], 2)
    try:
        return root, add_author(store, "asha").token
    finally:
        store.close()


def signed_in(root: Path, token: str, root_path: str = "") -> TestClient:
    client = TestClient(create_app(ArenaData(root, database_url(root))), root_path=root_path)
    answer = client.post("/signin", data={"csrf_token": csrf_of(client.get("/signin")), "token": token},
                         follow_redirects=False)
    assert answer.status_code == 303 and answer.headers["location"] == "/me"
    return client


def shown_command(page: str) -> str:
    """The submit command as a browser shows it: the element's text with its entities decoded."""
    found = COMMAND.search(page)
    assert found is not None, page[:500]
    assert "<" not in found.group(1), f"markup inside the command: {found.group(1)}"
    return html.unescape(found.group(1))


def test_a_hostile_root_path_is_text_in_the_submit_command(store_root: tuple[Path, str]) -> None:
    root, token = store_root
    page = signed_in(root, token, ROOT_PATH).get("/me", follow_redirects=False)
    assert page.status_code == 200
    assert shown_command(page.text) == f"dehla submit FOLDER --server http://testserver{ROOT_PATH}/"
    assert "<script>alert(1)" not in page.text and "<b title=" not in page.text


def test_a_hostile_host_header_is_text_in_the_submit_command(store_root: tuple[Path, str]) -> None:
    root, token = store_root
    page = signed_in(root, token).get("/me", headers={"host": HOST}, follow_redirects=False)
    assert page.status_code == 200
    assert shown_command(page.text) == f"dehla submit FOLDER --server http://{HOST}/"
