"""Slow clients against a real ``dehla serve`` (issue 23): headers trickled a byte at a time
(slow-loris), a body that stalls, and more connections than the caps allow, from one hostile
address (127.0.0.2), while honest requests from 127.0.0.1 are still served.

The negative control is uvicorn as ``dehla serve`` ran it before (its own h11 protocol, no
guard), on the same application: the same trickling connections are all still open after the
guarded service has cut every one of them.
"""

from __future__ import annotations

import time
from pathlib import Path

import httpx2 as httpx
import pytest

from tests.bots.archives import Entry, tar_gz
from tests.web.hostile_clients import (
    HEAD_START,
    answered,
    close_all,
    connect,
    send,
    status,
    trickle_until_closed,
    until,
    upload_head,
)
from tests.web.uploads_helpers import arena, bearer, post
from tests.web_helpers import serving, unguarded

pytestmark = pytest.mark.alone("windows of a few seconds on the real clock: another test's load would stretch them")

HEADER_TIMEOUT = 2.0
BODY_TIMEOUT = 2.0
PER_CLIENT = 20
FLOOD = 60
LIMITS = ("--runner", "local", "--uploads-per-hour", "1000", "--header-timeout", str(HEADER_TIMEOUT),
          "--body-timeout", str(BODY_TIMEOUT), "--max-connections", "200",
          "--max-connections-per-client", str(PER_CLIENT))


def test_trickled_headers_are_cut_and_the_flood_capped_while_honest_requests_pass(tmp_path: Path) -> None:
    data = arena(tmp_path)
    with serving(data.root, *LIMITS) as url:
        started = time.monotonic()
        flood = [connect(url) for _ in range(FLOOD)]
        for connection in flood:
            send(connection, HEAD_START)
        refused = answered(flood, FLOOD - PER_CLIENT, 20)
        assert len(refused) == FLOOD - PER_CLIENT
        assert {status(answer) for answer in refused.values()} == {503}
        assert b"too many connections" in next(iter(refused.values()))
        held = [connection for connection in flood if connection not in refused]
        assert httpx.get(url, timeout=10).status_code == 200  # honest, from 127.0.0.1, meanwhile
        assert post(url, data.bela, tar_gz([Entry("x", b"")])).status_code == 202
        cut, last = trickle_until_closed(held, HEADER_TIMEOUT + 8)
        assert cut == PER_CLIENT, f"{PER_CLIENT - cut} trickling connections still open"
        assert HEADER_TIMEOUT <= last - started <= HEADER_TIMEOUT + 3, last - started
        print(f"{FLOOD} trickling connections: {len(refused)} refused at once, {cut} held and all cut "
              f"{last - started:.2f} s after the flood began")
        again = connect(url)  # the address may connect again once its connections are gone
        assert send(again, HEAD_START + b"\r\n")
        assert status(answered([again], 1, 10)[again]) == 200
        close_all([*flood, again])


def test_a_stalled_upload_body_is_cut_and_its_staged_file_removed(tmp_path: Path) -> None:
    data = arena(tmp_path)
    with serving(data.root, *LIMITS) as url:
        stalled = [connect(url) for _ in range(3)]
        for connection in stalled:
            send(connection, upload_head(url, data.asha, 1_000_000) + b"\x1f\x8b" + b"\0" * 998)
        incoming = data.root / "uploads"
        assert until(lambda: len(list(incoming.glob(".incoming-*"))) == 3, 10)
        assert honest_upload_passes(url, data.bela)
        cut = answered(stalled, len(stalled), BODY_TIMEOUT + 8)
        assert len(cut) == len(stalled)
        assert until(lambda: not list(incoming.glob(".incoming-*")), 5)
        assert [u["id"] for u in httpx.get(url + "api/uploads", headers=bearer(data.asha), timeout=10).json()] == []
        close_all(stalled)


def honest_upload_passes(url: str, token: str) -> bool:
    return post(url, token, tar_gz([Entry("x", b"")])).status_code == 202


def test_negative_control_uvicorn_alone_keeps_every_trickling_connection(tmp_path: Path) -> None:
    data = arena(tmp_path)
    with unguarded(data.root) as url:
        flood = [connect(url) for _ in range(PER_CLIENT)]
        for connection in flood:
            send(connection, HEAD_START)
        cut, _ = trickle_until_closed(flood, HEADER_TIMEOUT + 4)
        assert cut == 0  # all still open, long after the guarded service cut them
        close_all(flood)
