"""One author's uploads in flight against a real ``dehla serve`` (issue 23): bodies held open
to stage bytes without spending the hourly limit, and uploads left waiting for validation.
The caps refuse the flood at once (429, one line, nothing stored) while another author's
honest upload passes; the negative control is the same flood with the caps lifted, all held.
"""

from __future__ import annotations

import socket
from pathlib import Path

import httpx2 as httpx

from tests.bots.archives import Entry, tar_gz
from tests.web.hostile_clients import ATTACKER, answered, close_all, connect, send, status, until, upload_head
from tests.web.uploads_helpers import Arena, arena, bearer, post
from tests.web_helpers import serving

FLOOD = 10
IN_FLIGHT = 3
STAGED_MB = 40
CAPPED = ("--runner", "local", "--uploads-per-hour", "1000", "--validations", "0",
          "--uploads-in-flight", str(IN_FLIGHT), "--staged-mb", str(STAGED_MB))
LIFTED = ("--runner", "local", "--uploads-per-hour", "1000", "--validations", "0",
          "--uploads-in-flight", "1000", "--staged-mb", "100000")
MB = 1024 * 1024


def held_open(url: str, token: str, count: int, length: int) -> list[socket.socket]:
    """``count`` uploads of ``length`` declared bytes, each sending its first 10 and stalling."""
    connections = [connect(url, ATTACKER) for _ in range(count)]
    for connection in connections:
        send(connection, upload_head(url, token, length) + b"\x1f\x8b" + b"\0" * 8)
    return connections


def staged(data: Arena) -> list[Path]:
    return list((data.root / "uploads").glob(".incoming-*"))


def test_an_authors_bodies_in_flight_are_capped_and_another_author_uploads_meanwhile(tmp_path: Path) -> None:
    data = arena(tmp_path)
    with serving(data.root, *CAPPED) as url:
        flood = held_open(url, data.asha, FLOOD, 1000)
        refused = answered(flood, FLOOD - IN_FLIGHT, 20)
        assert len(refused) == FLOOD - IN_FLIGHT
        assert {status(answer) for answer in refused.values()} == {429}
        assert b"(at most 3 at once): wait for their verdicts" in next(iter(refused.values()))
        assert until(lambda: len(staged(data)) == IN_FLIGHT, 10)
        assert post(url, data.bela, tar_gz([Entry("x", b"")])).status_code == 202  # honest, meanwhile
        close_all(flood)
        assert until(lambda: not staged(data), 10)
        assert httpx.get(url + "api/uploads", headers=bearer(data.asha), timeout=10).json() == []
        assert post(url, data.asha, tar_gz([Entry("x", b"")])).status_code == 202  # her room is back


def test_an_authors_staged_bytes_are_capped(tmp_path: Path) -> None:
    data = arena(tmp_path)
    with serving(data.root, *CAPPED) as url:
        flood = held_open(url, data.asha, IN_FLIGHT, 16 * MB)  # 3 uploads allowed; 48 MiB over 40
        refused = answered(flood, 1, 20)
        assert [status(answer) for answer in refused.values()] == [429]
        assert b"would pass the 40 MB an author may have at once" in next(iter(refused.values()))
        assert until(lambda: len(staged(data)) == 2, 10)
        assert post(url, data.bela, tar_gz([Entry("x", b"")])).status_code == 202
        close_all(flood)


def test_uploads_waiting_for_validation_count_on_every_service_of_the_store(tmp_path: Path) -> None:
    """``--validations 0``: they stay pending. The count is the store's, so a second service on the
    same store refuses her next one too."""
    data = arena(tmp_path)
    small = tar_gz([Entry("x", b"")])
    with serving(data.root, *CAPPED) as first, serving(data.root, *CAPPED) as second:
        for _ in range(IN_FLIGHT):
            assert post(first, data.asha, small).status_code == 202
        for url in (first, second):
            refused = post(url, data.asha, small)
            assert refused.status_code == 429, refused.text
            assert refused.json()["detail"].startswith("3 uploads of yours are arriving or waiting for validation")
            assert refused.headers["retry-after"] == "30"
        assert post(second, data.bela, small).status_code == 202


def test_negative_control_with_the_caps_lifted_the_flood_is_all_held(tmp_path: Path) -> None:
    data = arena(tmp_path)
    with serving(data.root, *LIFTED) as url:
        flood = held_open(url, data.asha, 12, 32 * MB)
        assert until(lambda: len(staged(data)) == 12, 10)  # 384 MiB declared, every body held (issue 23)
        assert answered(flood, 1, 0.5) == {}
        close_all(flood)
        # Each body cut short used to log a traceback; twelve filled the pipe the service writes
        # its log to (this test's) and the service stopped: now one line's worth, and it goes on.
        assert until(lambda: not staged(data), 10)
        assert post(url, data.asha, tar_gz([Entry("x", b"")])).status_code == 202
