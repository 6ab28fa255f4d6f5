"""CSRF: a cross-site form post made with the victim's cookie is refused (sign-out, and a login
CSRF that would sign the victim in as the attacker); with the check switched off the same posts
succeed, so the check is what stops them. Over real HTTP: a real ``dehla serve``, and the same
application with the check off in uvicorn on a loopback port (no option switches it off in
``dehla serve``)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import httpx2 as httpx
import pytest

from ladder.store.paths import ArenaData
from tests.web.identity_fixtures import QUEUE_OFF, Ladder, authored_ladder, csrf_of, signed_in
from tests.web_helpers import serving, serving_in_process

EVIL = {"Origin": "http://evil.example", "Referer": "http://evil.example/prize.html"}


@dataclass(frozen=True)
class Servers:
    ladder: Ladder
    guarded: str
    unguarded: str


@pytest.fixture(scope="module")
def servers(played: ArenaData, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Servers]:
    ladder = authored_ladder(played, tmp_path_factory.mktemp("csrf") / "data")
    with serving(ladder.data.root, *QUEUE_OFF) as guarded, \
            serving_in_process(ladder.data, check_csrf=False) as unguarded:
        yield Servers(ladder, guarded, unguarded)


def _forged_sign_out(url: str, victim: httpx.Client) -> httpx.Response:
    """What a page on evil.example does: post a form to /signout; the browser adds the cookie, but
    the page cannot read the victim's CSRF token, so it sends none (or a guess)."""
    return victim.post(url + "signout", data={"csrf_token": "guessed"}, headers=EVIL)


def test_a_forged_sign_out_is_refused(servers: Servers) -> None:
    victim = signed_in(servers.guarded, servers.ladder.tokens["asha"])
    answer = _forged_sign_out(servers.guarded, victim)
    assert answer.status_code == 403
    assert "CSRF" in answer.text
    assert victim.post("/signout", headers=EVIL).status_code == 403  # no token at all
    assert victim.get("/me").status_code == 200  # still signed in


def test_a_forged_sign_out_is_accepted_without_the_check(servers: Servers) -> None:
    """The negative control: the same post, to the same application with the check off."""
    victim = signed_in(servers.unguarded, servers.ladder.tokens["asha"])
    answer = _forged_sign_out(servers.unguarded, victim)
    assert answer.status_code == 303
    assert victim.get("/me").status_code == 303  # signed out by the attacker


def test_another_sessions_token_is_refused(servers: Servers) -> None:
    victim = signed_in(servers.guarded, servers.ladder.tokens["asha"])
    attacker = signed_in(servers.guarded, servers.ladder.tokens["bilal"])
    theirs = csrf_of(attacker.get("/me"))
    assert victim.post("/signout", data={"csrf_token": theirs}).status_code == 403
    assert victim.post("/signout", data={"csrf_token": csrf_of(victim.get("/me"))}).status_code == 303


def _login_csrf(url: str) -> httpx.Client:
    """A victim with no session is made to post the attacker's token to /signin."""
    victim = httpx.Client(base_url=url, timeout=10)
    victim.get("/")  # browsing the arena: no session yet
    return victim


def test_a_login_csrf_is_refused(servers: Servers) -> None:
    victim = _login_csrf(servers.guarded)
    answer = victim.post("/signin", data={"token": servers.ladder.tokens["bilal"]}, headers=EVIL)
    assert answer.status_code == 403
    assert victim.get("/me").status_code == 303  # not signed in as the attacker


def test_a_login_csrf_is_accepted_without_the_check(servers: Servers) -> None:
    victim = _login_csrf(servers.unguarded)
    answer = victim.post("/signin", data={"token": servers.ladder.tokens["bilal"]}, headers=EVIL)
    assert answer.status_code == 303
    assert 'data-author="bilal"' in victim.get("/me").text


def test_the_token_may_come_in_a_header_and_a_huge_form_is_refused_unread(servers: Servers) -> None:
    client = signed_in(servers.guarded, servers.ladder.tokens["asha"])
    token = csrf_of(client.get("/me"))
    assert client.post("/signout", data={"padding": "x" * 70_000, "csrf_token": token}).status_code == 413
    assert client.post("/signout", headers={"X-CSRF-Token": token}).status_code == 303


def test_the_api_needs_no_csrf_token_because_it_takes_no_cookie(servers: Servers) -> None:
    """A POST under /api is not checked for a CSRF token: it is authorised by the bearer header
    alone, which a page on another site cannot make a browser send."""
    client = signed_in(servers.guarded, servers.ladder.tokens["asha"])
    answer = client.post("/api/me", headers=EVIL)
    assert answer.status_code in (401, 405)
    assert "CSRF" not in answer.text
