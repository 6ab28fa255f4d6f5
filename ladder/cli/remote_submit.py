"""``dehla submit FOLDER --server URL``: pack the folder, upload it, wait for the verdict.

The folder is packed as the server will see it (``arena.bots.archive``: deterministic, caches
left out, symlinks refused), sent with a progress bar on stderr, then the upload's status is
polled (each request a long poll, a short backoff between) until it is accepted or rejected.
Every refusal or rejection is the server's one line and exit code 2. The token goes in the
Authorization header and nowhere else: never printed, never in a URL or an error.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import click
import httpx2 as httpx
from rich.console import Console
from rich.progress import BarColumn, DownloadColumn, Progress, TextColumn, TransferSpeedColumn

from arena.bots.archive import ArchiveError, pack_bytes
from arena.console.errors import fail
from arena.console.text import visible
from arena.engine.errors import ArenaError

TOKEN_ENV = "DEHLA_TOKEN"
CHUNK = 64 * 1024
POLL_FIRST = 0.1
POLL_MAX = 2.0
WAIT_AT_MOST = 30 * 60.0
"""Seconds to wait for a verdict before leaving the upload to the server (it carries on)."""
TIMEOUT = httpx.Timeout(30.0, connect=10.0)
LONG_POLL = 15.0
"""Seconds the server may hold each status request while the upload is pending."""


class RemoteError(ArenaError):
    """The server refused, or could not be reached; one line."""


@dataclass(frozen=True, slots=True)
class Server:
    """Where the arena's API is and who is asking (the token is kept out of ``repr``)."""

    url: str
    token: str

    def __repr__(self) -> str:
        return f"Server({self.url!r})"

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}


def server_url(text: str) -> str:
    """``text`` as a base URL ending in ``/``, or ``RemoteError`` (http or https, a host, no
    credentials, query or fragment)."""
    parts = urlsplit(text.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise RemoteError(f"--server {text!r}: give the arena's address, e.g. https://arena.example.org/")
    if parts.username or parts.password or parts.query or parts.fragment:
        raise RemoteError("--server: give only scheme, host, port and path (the token goes in --token)")
    return text.strip().rstrip("/") + "/"


def _detail(answer: httpx.Response) -> str:
    try:
        body = answer.json()
    except ValueError:
        body = None
    detail = body.get("detail") if isinstance(body, dict) else None
    if not isinstance(detail, str):
        detail = answer.reason_phrase or "no reason given"
    return detail


def _checked(answer: httpx.Response, what: str) -> Any:
    if answer.status_code >= 400:
        raise RemoteError(f"{what}: the server said {answer.status_code}: {_detail(answer)}")
    try:
        return answer.json()
    except ValueError:
        raise RemoteError(f"{what}: the server's answer is not JSON (is {answer.url} a Dehla Arena?)") from None


def upload(client: httpx.Client, server: Server, archive: bytes) -> dict[str, Any]:
    """Send ``archive``; the pending upload as the server describes it."""
    console = Console(stderr=True)
    with Progress(TextColumn("uploading"), BarColumn(), DownloadColumn(), TransferSpeedColumn(),
                  console=console, transient=True) as progress:
        task = progress.add_task("upload", total=len(archive))

        def chunks() -> Iterator[bytes]:
            for start in range(0, len(archive), CHUNK):
                yield archive[start:start + CHUNK]
                progress.update(task, advance=min(CHUNK, len(archive) - start))

        answer = client.post(server.url + "api/uploads", content=chunks(),
                             headers={**server.headers, "Content-Type": "application/gzip",
                                      "Content-Length": str(len(archive))})
    body: dict[str, Any] = _checked(answer, "upload refused")
    return body


def wait(client: httpx.Client, server: Server, upload_id: int, limit: float = WAIT_AT_MOST) -> dict[str, Any]:
    """Poll the upload until it is no longer pending (or ``limit`` seconds have passed)."""
    delay = POLL_FIRST
    deadline = time.monotonic() + limit
    while True:
        answer = client.get(f"{server.url}api/uploads/{upload_id}", params={"wait": LONG_POLL},
                            headers=server.headers, timeout=httpx.Timeout(LONG_POLL + 30.0, connect=10.0))
        body: dict[str, Any] = _checked(answer, f"upload {upload_id}")
        if body.get("status") != "pending" or time.monotonic() > deadline:
            return body
        time.sleep(delay)  # polling a remote server, not synchronising a test
        delay = min(POLL_MAX, delay * 1.5)


def bot_output(client: httpx.Client, server: Server, upload_id: int) -> str:
    answer = client.get(f"{server.url}api/uploads/{upload_id}/log", headers=server.headers)
    if answer.status_code != 200:
        return ""
    body = answer.json()
    return body.get("log", "") if isinstance(body, dict) else ""


def remote_submit(folder: Path, url: str, token: str | None, no_wait: bool) -> None:
    """The command: exit 0 when accepted (or, with ``no_wait``, uploaded), 2 otherwise."""
    try:
        base = server_url(url)
    except RemoteError as exc:
        fail(str(exc))
    if not token:
        fail(f"--server needs your API token: --token TOKEN or ${TOKEN_ENV} (the arena's operator issues it)")
    server = Server(base, token.strip())
    try:
        archive = pack_bytes(folder)
    except ArchiveError as exc:
        fail(f"{folder}: {exc}")
    except OSError as exc:
        fail(f"{folder}: cannot read ({exc.strerror})")
    try:
        with httpx.Client(timeout=TIMEOUT) as client:
            pending = upload(client, server, archive)
            upload_id = int(pending["id"])
            status_url = server.url + f"api/uploads/{upload_id}"
            if no_wait:
                click.echo(visible(f"uploaded: upload {upload_id} is {pending.get('status')}; its status: "
                                   f"{status_url}"))
                return
            click.echo(visible(f"uploaded as upload {upload_id}; waiting for its validation..."), err=True)
            verdict = wait(client, server, upload_id)
            log = bot_output(client, server, upload_id) if verdict.get("has_log") else ""
    except httpx.HTTPError as exc:
        fail(f"--server {base}: cannot reach it ({type(exc).__name__}: {_first_line(exc)})")
    except RemoteError as exc:
        fail(str(exc))
    _report(folder, verdict, log, status_url)


def _first_line(exc: BaseException) -> str:
    text = str(exc).splitlines()[0] if str(exc) else "no detail"
    return text[:200]


def _report(folder: Path, verdict: dict[str, Any], log: str, status_url: str) -> None:
    status = verdict.get("status")
    if status == "accepted":
        digest = str(verdict.get("content_hash") or "")[:12]
        click.echo(visible(f"accepted {verdict.get('bot')} #{verdict.get('version')} ({verdict.get('label')}) "
                           f"{digest}"))
        return
    if status == "rejected":
        click.echo(f"error: rejected {visible(folder)}: {visible(verdict.get('reason') or 'no reason given')}",
                   err=True)
        if log.strip():
            click.echo("--- the bot's output (tail) ---", err=True)
            click.echo(visible(log.rstrip(), multiline=True), err=True)
        sys.exit(2)
    click.echo(visible(f"error: still {status} after {WAIT_AT_MOST / 60:.0f} minutes; the server carries on: "
                       f"{status_url}"), err=True)
    sys.exit(2)
