"""API tokens over real HTTP (the application in uvicorn, as ``dehla serve`` runs it): missing,
wrong, revoked and rotated."""

from __future__ import annotations

from pathlib import Path

import httpx2 as httpx

from ladder.admin.authors import add_author, revoke_token, rotate_token
from ladder.store.database import Store
from ladder.store.paths import ArenaData
from tests.database import database_url
from tests.web_helpers import serving_in_process


def test_missing_wrong_revoked_and_rotated_tokens(tmp_path: Path) -> None:
    data = ArenaData(tmp_path / "data", database_url(tmp_path / "data"))
    (tmp_path / "data").mkdir()
    store = Store.open(data)
    first = add_author(store, "asha", "asha@example.org")
    with serving_in_process(data) as url:
        def me(token: str | None) -> httpx.Response:
            headers = {} if token is None else {"Authorization": f"Bearer {token}".strip()}
            return httpx.get(url + "api/me", headers=headers, timeout=10)

        assert me(first.token).json() == {"name": "asha", "email": "asha@example.org", "role": "author"}
        for bad in (None, "", "dehla_1_" + "A" * 43, first.token + "x", first.token.upper()):
            answer = me(bad)
            assert answer.status_code == 401, bad
            assert answer.json()["detail"].startswith("not a valid API token")
            assert first.token not in answer.text
        assert httpx.get(url + "api/me", headers={"Authorization": "Basic " + first.token}).status_code == 401
        second = rotate_token(store, "asha")
        assert me(first.token).status_code == 401
        assert me(second.token).status_code == 200
        revoke_token(store, "asha")
        assert me(second.token).status_code == 401
        assert httpx.get(url + "api/leaderboard", timeout=10).status_code == 200  # public needs no token
        assert httpx.get(url + "api/leaderboard", headers={"Authorization": f"Bearer {second.token}"},
                         timeout=10).status_code == 401  # a bad token is refused, not treated as public
