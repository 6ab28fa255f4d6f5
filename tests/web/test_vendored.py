"""The vendored front-end files are the ones the manifest names, and no page loads anything from elsewhere."""

from __future__ import annotations

import hashlib
import json
import re

from fastapi.testclient import TestClient

from ladder.store.paths import ArenaData
from ladder.web.app import create_app
from ladder.web.templating import STATIC

VENDOR = STATIC / "vendor"
LINK = re.compile(r"""\b(?:src|href)\s*=\s*["']?(https?:)?//([^/"' >]+)""", re.IGNORECASE)


def test_every_vendored_file_matches_its_manifest_hash() -> None:
    manifest = json.loads((VENDOR / "manifest.json").read_text())
    assert {entry["name"] for entry in manifest} == {"htmx.org", "swagger-ui-dist"}
    assert next(e["version"] for e in manifest if e["name"] == "htmx.org").startswith("2.")
    for entry in manifest:
        assert f"{entry['name']}/LICENSE" in entry["files"]
        for path, digest in entry["files"].items():
            assert hashlib.sha256((VENDOR / path).read_bytes()).hexdigest() == digest, path
            assert digest in (VENDOR / "VENDORED.md").read_text()


def external_links(html: str) -> list[str]:
    return [host for _, host in LINK.findall(html) if host != "testserver"]


def test_the_link_scan_finds_an_external_url() -> None:
    assert external_links('<script src="https://unpkg.com/htmx.org"></script><a href=//cdn.x/y>') == ["unpkg.com",
                                                                                                       "cdn.x"]
    assert external_links('<script src="http://testserver/static/a.js"></script><a href="/docs">') == []


def test_no_page_references_an_external_url(played: ArenaData) -> None:
    client = TestClient(create_app(played))
    for url in ("/", "/partnerships", "/matches", "/matches/1", "/bots/random", "/docs", "/bots/none", "/?page=x"):
        html = client.get(url).text
        assert external_links(html) == [], url
    assert client.get("/static/vendor/htmx.org/htmx.min.js").status_code == 200
