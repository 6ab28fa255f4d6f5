"""Shared helpers of the upload tests: a data folder with two authors, and the HTTP calls."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest

from ladder.admin.authors import add_author
from ladder.store.database import Store
from ladder.store.paths import ArenaData
from tests.database import database_url

LONG_POLL = 20
"""Seconds each status request may wait on the server for a verdict (``?wait=``)."""


@dataclass(frozen=True)
class Arena:
    root: Path
    store: Store
    asha: str
    """asha's token (she owns the bots she uploads first)."""
    bela: str
    asha_id: int
    bela_id: int


def arena(tmp_path: Path) -> Arena:
    root = tmp_path / "data"
    store = Store.open(ArenaData(root, database_url(root)))
    asha, bela = add_author(store, "asha"), add_author(store, "bela")
    return Arena(root, store, asha.token, bela.token, asha.author.id, bela.author.id)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def post(url: str, token: str, body: bytes, content_type: str = "application/gzip") -> httpx.Response:
    return httpx.post(url + "api/uploads", content=body, timeout=30,
                      headers={**bearer(token), "Content-Type": content_type})


def verdict(url: str, token: str, upload_id: int) -> dict[str, Any]:
    """The upload once it is no longer pending (long polls: the server answers when it changes)."""
    for _ in range(30):
        body: dict[str, Any] = httpx.get(f"{url}api/uploads/{upload_id}", params={"wait": LONG_POLL},
                                         headers=bearer(token), timeout=LONG_POLL + 30).json()
        if body["status"] != "pending":
            return body
    pytest.fail(f"upload {upload_id} still pending after 30 long polls")


def uploaded(url: str, token: str, body: bytes) -> dict[str, Any]:
    """POST ``body`` (expecting 202 pending) and wait for its verdict."""
    answer = post(url, token, body)
    assert answer.status_code == 202, answer.text
    assert answer.json()["status"] == "pending"
    assert answer.headers["location"] == f"/api/uploads/{answer.json()['id']}"
    return verdict(url, token, answer.json()["id"])
