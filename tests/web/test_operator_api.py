"""The operator's API over real HTTP (the application in uvicorn, as ``dehla serve`` runs it): an
operator's token disables, enables, voids and manages authors; an author's token gets 403, none
401, and neither changes anything; the leaderboard, the API and the pages show the result at once."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx2 as httpx
import pytest

from ladder.admin.authors import add_author
from ladder.rating.scheduler import Pairing
from ladder.store.paths import ArenaData
from ladder.store.schema import Role
from tests.database import contents, database_url
from tests.ladder_helpers import add_bots, open_store
from tests.operator_helpers import Played, play_history
from tests.web_helpers import serving_in_process


def win(a: int, b: int) -> Played:
    return Played(Pairing((a, a), (b, b)), "dehla-pakad", "duplicate:2", "done", 0, (1.0, 2.0), None, ())


class Arena:
    def __init__(self, url: str, root: Path, operator: str, author: str) -> None:
        self.url, self.root, self.operator, self.author = url, root, operator, author

    def call(self, method: str, path: str, token: str | None = None, **kwargs: object) -> httpx.Response:
        headers = {} if token is None else {"Authorization": f"Bearer {token}"}
        return httpx.request(method, self.url + path, headers=headers, timeout=30, **kwargs)  # type: ignore[arg-type]

    def dump(self) -> dict[str, list[tuple[object, ...]]]:
        return contents(database_url(self.root))


@pytest.fixture()
def arena(tmp_path: Path) -> Iterator[Arena]:
    """Three bots, three rated matches (1-3), one queued with s3 (4); an operator and an author."""
    store = open_store(tmp_path)
    add_bots(store, ["s1", "s2", "s3"], tmp_path / "src")
    play_history(store, [win(1, 2), win(2, 3), win(1, 3), win(3, 1)], skip=3)
    operator = add_author(store, "olga", role=Role.OPERATOR).token
    author = add_author(store, "asha").token
    store.close()
    with serving_in_process(ArenaData(tmp_path, database_url(tmp_path))) as url:
        yield Arena(url, tmp_path, operator, author)


ACTIONS = [("POST", "api/operator/bots/s3/disable", None), ("POST", "api/operator/bots/s3/enable", None),
           ("POST", "api/operator/bots/s3/versions/1/disable", None),
           ("POST", "api/operator/matches/2/void", {"reason": "x"}), ("GET", "api/operator/authors", None),
           ("POST", "api/operator/authors", {"name": "ravi"}), ("POST", "api/operator/authors/asha/rotate", None),
           ("POST", "api/operator/authors/asha/revoke", None)]


def test_no_token_is_401_and_an_authors_token_is_403_and_nothing_changes(arena: Arena) -> None:
    before = arena.dump()
    for method, path, body in ACTIONS:
        anonymous = arena.call(method, path, json=body)
        assert anonymous.status_code == 401, path
        assert anonymous.json()["detail"].startswith("not a valid API token")
        refused = arena.call(method, path, arena.author, json=body)
        assert refused.status_code == 403, path
        assert refused.json() == {"detail": "this needs an operator's token"}
        assert arena.call(method, path, arena.operator + "x", json=body).status_code == 401
    assert arena.dump() == before


def test_disable_and_enable_show_on_the_leaderboard_at_once(arena: Arena) -> None:
    def disabled() -> dict[str, bool]:
        return {row["bot"]: row["disabled"] for row in arena.call("GET", "api/leaderboard").json()}

    assert disabled() == {"s1": False, "s2": False, "s3": False}  # cached now
    done = arena.call("POST", "api/operator/bots/s3/disable", arena.operator)
    assert done.status_code == 200, done.text
    assert done.json()["changed"] and done.json()["cancelled"] == [4]
    assert disabled() == {"s1": False, "s2": False, "s3": True}
    page = arena.call("GET", "").text
    assert page.count('data-disabled="true"') == 1 and ">disabled</span>" in page
    assert arena.call("GET", "api/matches/4").json()["match"]["voided"].startswith("cancelled before play: s3")
    assert not arena.call("POST", "api/operator/bots/s3/disable", arena.operator).json()["changed"]
    assert arena.call("POST", "api/operator/bots/s3/enable", arena.operator).json()["changed"]
    assert arena.call("POST", "api/operator/bots/s1/versions/1/disable", arena.operator).json()["changed"]
    assert disabled() == {"s1": True, "s2": False, "s3": False}
    assert arena.call("GET", "api/bots/s1").json()["versions"][0]["status"] == "disabled"
    for path, status, fragment in [("bots/nobody/disable", 404, "no bot 'nobody'"),
                                   ("bots/s1/versions/9/disable", 404, "has no version 9"),
                                   ("bots/s1/versions/0/enable", 400, "name a bot")]:
        refused = arena.call("POST", f"api/operator/{path}", arena.operator)
        assert refused.status_code == status and fragment in refused.json()["detail"], refused.text


def test_void_undoes_a_match_and_the_pages_say_why(arena: Arena) -> None:
    before = {row["bot"]: row for row in arena.call("GET", "api/leaderboard").json()}
    reason = "<script>alert(1)</script> broken host"
    done = arena.call("POST", "api/operator/matches/2/void", arena.operator, json={"reason": reason})
    assert done.status_code == 200, done.text
    assert done.json()["already"] is False and done.json()["later_matches"] == 1
    after = {row["bot"]: row for row in arena.call("GET", "api/leaderboard").json()}
    assert after["s2"]["matches"] == before["s2"]["matches"] - 1 and after["s3"]["mu"] != before["s3"]["mu"]
    detail = arena.call("GET", "api/matches/2").json()
    assert detail["match"]["voided"] == reason and detail["match"]["winner"] is None
    page = arena.call("GET", "matches/2").text
    assert 'id="voided"' in page and "&lt;script&gt;alert(1)&lt;/script&gt; broken host" in page
    assert "<script>alert" not in page
    assert 'data-voided="true"' in arena.call("GET", "matches").text
    unchanged = arena.dump()
    again = arena.call("POST", "api/operator/matches/2/void", arena.operator, json={"reason": "again"})
    assert again.status_code == 200 and again.json()["already"] and again.json()["reason"] == reason
    assert arena.dump() == unchanged
    for match_id, body, status, fragment in [(99, {"reason": "x"}, 404, "no match 99"),
                                             (1, {"reason": " "}, 400, "the reason is empty")]:
        refused = arena.call("POST", f"api/operator/matches/{match_id}/void", arena.operator, json=body)
        assert refused.status_code == status and fragment in refused.json()["detail"], refused.text
    assert arena.dump() == unchanged


def test_authors_are_managed_and_a_token_is_only_in_the_response_that_issues_it(arena: Arena) -> None:
    created = arena.call("POST", "api/operator/authors", arena.operator, json={"name": "ravi", "email": "r@x.org"})
    assert created.status_code == 201, created.text
    assert created.headers["cache-control"] == "no-store"
    token = created.json()["token"]
    assert created.json()["author"] == {"name": "ravi", "email": "r@x.org", "role": "author", "token": "active"}
    assert arena.call("GET", "api/me", token).json()["name"] == "ravi"
    listed = arena.call("GET", "api/operator/authors", arena.operator)
    assert [a["name"] for a in listed.json()] == ["asha", "olga", "ravi"]
    assert "dehla_" not in listed.text
    again = arena.call("POST", "api/operator/authors", arena.operator, json={"name": "ravi"})
    assert again.status_code == 409 and "exists already" in again.json()["detail"]
    assert arena.call("POST", "api/operator/authors", arena.operator, json={"name": "Bad Name"}).status_code == 400
    rotated = arena.call("POST", "api/operator/authors/ravi/rotate", arena.operator)
    assert rotated.status_code == 200 and rotated.headers["cache-control"] == "no-store"
    assert arena.call("GET", "api/me", token).status_code == 401
    assert arena.call("GET", "api/me", rotated.json()["token"]).status_code == 200
    revoked = arena.call("POST", "api/operator/authors/ravi/revoke", arena.operator)
    assert revoked.json()["token"] == "revoked" and "dehla_" not in revoked.text
    assert arena.call("GET", "api/me", rotated.json()["token"]).status_code == 401
    assert arena.call("POST", "api/operator/authors/nobody/rotate", arena.operator).status_code == 404
    assert token not in arena.dump() and token.split("_", 2)[2] not in arena.dump()
