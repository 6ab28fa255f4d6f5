"""Signing in on the web pages, over real HTTP against a real ``dehla serve``: the cookie, wrong,
revoked and rotated tokens (at sign-in and for a session already open), and the author's pages."""

from __future__ import annotations

from collections.abc import Iterator

import httpx2 as httpx
import pytest

from ladder.admin.authors import revoke_token, rotate_token
from ladder.store.database import Store
from ladder.store.paths import ArenaData
from tests.web.identity_fixtures import QUEUE_OFF, SCRIPT, Served, csrf_of, served_ladder, signed_in
from tests.web_helpers import serving


@pytest.fixture(scope="module")
def served_authors(played: ArenaData, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    with served_ladder(played, tmp_path_factory.mktemp("identity") / "data", ("ravi", "rina")) as served:
        yield served


def test_signing_in_sets_a_signed_http_only_lax_cookie_with_an_expiry_and_no_token(served_authors: Served) -> None:
    client = httpx.Client(base_url=served_authors.url, timeout=10)
    form = client.get("/signin")
    token = served_authors.ladder.tokens["asha"]
    answer = client.post("/signin", data={"csrf_token": csrf_of(form), "token": token})
    assert answer.status_code == 303
    cookie = answer.headers["set-cookie"]
    assert cookie.startswith("dehla_session=")
    flags = {part.strip().split("=")[0].lower(): part for part in cookie.split(";")}
    assert {"httponly", "max-age", "path"} <= set(flags)
    assert flags["samesite"].strip().lower() == "samesite=lax"
    assert flags["max-age"].strip() == "Max-Age=43200"
    assert "secure" not in flags  # plain http on loopback
    secret = token.split("_", 2)[2]  # after "dehla_" and the id: the secret may itself hold "_"
    assert token not in cookie and secret not in cookie
    assert client.get("/me").status_code == 200


def test_over_https_behind_a_local_proxy_the_cookie_is_secure(served_authors: Served) -> None:
    """uvicorn trusts ``X-Forwarded-Proto`` from 127.0.0.1 (its default), as a local proxy sends it."""
    client = httpx.Client(base_url=served_authors.url, timeout=10, headers={"X-Forwarded-Proto": "https"})
    answer = client.get("/signin")
    assert "secure" in [part.strip().lower() for part in answer.headers["set-cookie"].split(";")]


def test_secure_cookies_marks_the_cookie_secure_even_over_plain_http(served_authors: Served) -> None:
    with serving(served_authors.ladder.data.root, "--secure-cookies", *QUEUE_OFF) as url:
        answer = httpx.get(url + "signin", timeout=10)
    assert "secure" in [part.strip().lower() for part in answer.headers["set-cookie"].split(";")]


def test_a_forged_or_altered_cookie_is_no_session(served_authors: Served) -> None:
    client = signed_in(served_authors.url, served_authors.ladder.tokens["asha"])
    value = client.cookies["dehla_session"]
    payload, _, signature = value.rpartition(".")
    altered = httpx.Client(base_url=served_authors.url, timeout=10,
                           cookies={"dehla_session": payload + "." + signature[::-1]})
    answer = altered.get("/me")
    assert answer.status_code == 303 and answer.headers["location"] == "/signin"


def test_wrong_tokens_are_refused_at_sign_in_with_one_line_and_no_session(served_authors: Served) -> None:
    token = served_authors.ladder.tokens["asha"]
    last_changed = token[:-1] + ("A" if token[-1] != "A" else "B")
    for wrong in ("", "nonsense", token + "x", last_changed, "dehla_999_" + "A" * 43):
        client = httpx.Client(base_url=served_authors.url, timeout=10)
        answer = client.post("/signin", data={"csrf_token": csrf_of(client.get("/signin")), "token": wrong})
        assert answer.status_code == 401, wrong
        assert "not a valid API token" in answer.text
        assert not wrong or wrong not in answer.text  # never echoed
        assert client.get("/me").status_code == 303


def test_a_rotated_token_ends_the_session_and_no_longer_signs_in(served_authors: Served) -> None:
    store = Store.open(served_authors.ladder.data)
    old = served_authors.ladder.tokens["ravi"]
    client = signed_in(served_authors.url, old)
    assert client.get("/me").status_code == 200
    new = rotate_token(store, "ravi").token
    answer = client.get("/me")
    assert answer.status_code == 303 and answer.headers["location"] == "/signin"
    assert "dehla_session=null" in answer.headers.get("set-cookie", "")  # the dead session is cleared
    again = httpx.Client(base_url=served_authors.url, timeout=10)
    assert again.post("/signin", data={"csrf_token": csrf_of(again.get("/signin")), "token": old}).status_code == 401
    assert signed_in(served_authors.url, new).get("/me").status_code == 200


def test_a_revoked_token_ends_the_session_and_no_longer_signs_in(served_authors: Served) -> None:
    store = Store.open(served_authors.ladder.data)
    token = served_authors.ladder.tokens["rina"]
    client = signed_in(served_authors.url, token)
    assert client.get("/me").status_code == 200
    revoke_token(store, "rina")
    assert client.get("/me").status_code == 303
    again = httpx.Client(base_url=served_authors.url, timeout=10)
    assert again.post("/signin", data={"csrf_token": csrf_of(again.get("/signin")), "token": token}).status_code == 401


def test_signing_out_ends_the_session(served_authors: Served) -> None:
    client = signed_in(served_authors.url, served_authors.ladder.tokens["bilal"])
    me = client.get("/me")
    answer = client.post("/signout", data={"csrf_token": csrf_of(me)})
    assert answer.status_code == 303 and answer.headers["location"] == "/"
    assert client.get("/me").status_code == 303


def test_a_stolen_cookie_replayed_after_sign_out_still_works_until_rotation(served_authors: Served) -> None:
    """What signing out does not do (a signed cookie has no server-side state): a copy taken before
    keeps working until it expires or the token changes. Rotating the token is the way to end it
    everywhere (docs/operating.md)."""
    client = signed_in(served_authors.url, served_authors.ladder.tokens["bilal"])
    copy = httpx.Client(base_url=served_authors.url, timeout=10,
                        cookies={"dehla_session": client.cookies["dehla_session"]})
    client.post("/signout", data={"csrf_token": csrf_of(client.get("/me"))})
    assert copy.get("/me").status_code == 200


def test_the_api_takes_no_cookie(served_authors: Served) -> None:
    client = signed_in(served_authors.url, served_authors.ladder.tokens["asha"])
    for path in ("/api/me", "/api/me/bots", "/api/uploads",
                 f"/api/matches/{served_authors.ladder.match_id}/logs/{served_authors.ladder.asha_seat}"):
        assert client.get(path).status_code == 401, path


def test_my_page_shows_my_bots_uploads_and_matches_escaped(served_authors: Served) -> None:
    ladder = served_authors.ladder
    page = signed_in(served_authors.url, ladder.tokens["asha"]).get("/me")
    assert page.status_code == 200
    assert page.headers["cache-control"] == "private, no-store"
    assert page.headers["x-frame-options"] == "DENY"
    html = page.text
    assert 'id="me" data-author="asha"' in html
    assert f'data-version-id="{ladder.asha_version}" data-status="active" data-bot="random"' in html
    assert "heuristic" not in html.split('id="my-bots"')[1].split("</table>")[0]  # not hers
    for status in ("rejected", "accepted", "pending"):
        assert f'data-status="{status}"' in html
    assert "bilal&#39;s own reason" not in html and "bilal's own reason" not in html
    assert SCRIPT not in html
    assert html.count("&lt;script&gt;alert(&#34;dehla&#34;)&lt;/script&gt;") == 3  # reason, label, upload's bot
    assert f'href="/matches/{ladder.match_id}/logs/{ladder.asha_seat}"' in html
    assert f'href="/matches/{ladder.match_id}/logs/{ladder.other_seat}"' not in html


def test_my_bots_and_uploads_over_the_api(served_authors: Served) -> None:
    ladder = served_authors.ladder
    headers = {"Authorization": f"Bearer {ladder.tokens['asha']}"}
    bots = httpx.get(served_authors.url + "api/me/bots", headers=headers, timeout=10).json()
    assert [bot["name"] for bot in bots] == ["random"]
    assert bots[0]["versions"][0]["label"] == SCRIPT[:64]  # JSON carries the text as it is
    uploads = httpx.get(served_authors.url + "api/uploads", headers=headers, timeout=10).json()
    assert [u["status"] for u in uploads] == ["pending", "accepted", "rejected"]
    assert SCRIPT in uploads[2]["reason"]
    bilal = {"Authorization": f"Bearer {ladder.tokens['bilal']}"}
    assert httpx.get(served_authors.url + "api/me/bots", headers=bilal, timeout=10).json() == []
    assert [u["reason"] for u in httpx.get(served_authors.url + "api/uploads", headers=bilal,
                                           timeout=10).json()] == ["bilal's own reason"]
    assert httpx.get(served_authors.url + "api/me/bots", timeout=10).status_code == 401
