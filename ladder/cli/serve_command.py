"""``dehla serve``: the web service on a loopback port by default."""

from __future__ import annotations

import ipaddress
import socket
from pathlib import Path
from typing import TYPE_CHECKING

import click

from arena.console.errors import fail
from arena.console.serving import announced, server_url
from arena.engine.errors import ArenaError
from arena.sandbox.runner import RunnerKind
from ladder.cli.commands import data_option, runner_option
from ladder.store.paths import ArenaData
from ladder.submission.intake import DEFAULT_CONCURRENCY, DEFAULT_UPLOADS_PER_HOUR, IntakeSettings
from ladder.submission.upload_caps import DEFAULT_IN_FLIGHT, DEFAULT_STAGED_BYTES
from ladder.web.connection_limits import (
    DEFAULT_BODY_TIMEOUT,
    DEFAULT_HEADER_TIMEOUT,
    DEFAULT_MAX_CONNECTIONS,
    DEFAULT_PER_CLIENT,
    GRACEFUL_S,
    KEEP_ALIVE_S,
    MAX_HEAD_BYTES,
    ConnectionLimits,
)

if TYPE_CHECKING:
    from ladder.web.seats.tables import SeatSettings

MB = 1024 * 1024


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to listen on (the default is reachable from this machine only).")
@click.option("--port", type=click.IntRange(min=0, max=65535), default=8000, show_default=True,
              help="The port (0: any free port; the one chosen is printed).")
@click.option("--uploads-per-hour", type=click.IntRange(min=1, max=10_000), default=DEFAULT_UPLOADS_PER_HOUR,
              show_default=True, help="Uploads each author may send in an hour (more: 429 with Retry-After).")
@click.option("--validations", type=click.IntRange(min=0, max=64), default=DEFAULT_CONCURRENCY, show_default=True,
              help="Uploads validated at once (each plays two validation matches); 0: take uploads but validate "
                   "none here (they stay pending until a service with validations starts on this store).")
@click.option("--secure-cookies", is_flag=True,
              help="Mark the sign-in cookie Secure on every response (for a service reached only over https, "
                   "behind a proxy that does not send X-Forwarded-Proto).")
@click.option("--uploads-in-flight", type=click.IntRange(min=1, max=1000), default=DEFAULT_IN_FLIGHT,
              show_default=True, help="Uploads each author may have arriving or waiting for validation at once "
                                      "(more: 429).")
@click.option("--staged-mb", type=click.IntRange(min=1, max=100_000), default=DEFAULT_STAGED_BYTES // MB,
              show_default=True, help="MiB each author's uploads arriving or waiting for validation may hold at "
                                      "once (more: 429).")
@click.option("--header-timeout", type=click.FloatRange(min=0.1, max=600), default=DEFAULT_HEADER_TIMEOUT,
              show_default=True, help="Seconds a request's line and headers may take from their first byte "
                                      "(then 408, closed).")
@click.option("--body-timeout", type=click.FloatRange(min=0.1, max=3600), default=DEFAULT_BODY_TIMEOUT,
              show_default=True, help="Seconds a request body may pause (then the connection is closed).")
@click.option("--max-connections", type=click.IntRange(min=1, max=100_000), default=DEFAULT_MAX_CONNECTIONS,
              show_default=True, help="Open connections at once (more: 503, closed).")
@click.option("--max-connections-per-client", type=click.IntRange(min=1, max=100_000), default=DEFAULT_PER_CLIENT,
              show_default=True, help="Open connections at once from one address (behind a proxy on this host, "
                                      "every client is the proxy's address: set it to --max-connections).")
@runner_option
@data_option
def serve_command(host: str, port: int, uploads_per_hour: int, validations: int, secure_cookies: bool,
                  uploads_in_flight: int, staged_mb: int, header_timeout: float, body_timeout: float,
                  max_connections: int, max_connections_per_client: int, runner: RunnerKind,
                  data: Path | None) -> None:
    """Serve the leaderboard, bot and match pages, replays and the JSON API, and take uploads."""
    import uvicorn  # noqa: PLC0415 - the web stack loads only for this command

    from ladder.web.app import create_app, settle_garbage_collector  # noqa: PLC0415
    from ladder.web.connection_guard import guarded_protocol  # noqa: PLC0415

    settings = IntakeSettings(runner, uploads_per_hour, validations, in_flight=uploads_in_flight,
                              staged_bytes=staged_mb * MB)
    limits = ConnectionLimits(header_timeout, body_timeout, max_connections, max_connections_per_client)
    arena_data = ArenaData.locate(data)
    seats = seat_settings(host, runner)
    try:
        app = create_app(arena_data, settings, secure_cookies=secure_cookies, seats=seats)
    except ArenaError as exc:
        fail(str(exc))
    listening = bound_socket(host, port)
    bound_host, bound_port = listening.getsockname()[:2]
    click.echo(f"Dehla Arena is at http://{_url_host(bound_host)}:{bound_port}/ (Ctrl-C stops it)", err=False)
    settle_garbage_collector()
    config = uvicorn.Config(app, log_level="warning", access_log=False, http=guarded_protocol(limits),
                            limit_concurrency=max_connections, timeout_keep_alive=KEEP_ALIVE_S,
                            h11_max_incomplete_event_size=MAX_HEAD_BYTES, timeout_graceful_shutdown=GRACEFUL_S)
    with announced(arena_data.root, server_url(bound_host, bound_port)):  # for `dehla match`'s page line
        uvicorn.Server(config).run(sockets=[listening])


def seat_settings(host: str, runner: RunnerKind) -> SeatSettings:
    """Who may play a seat at ``/play`` (anyone on a loopback service, signed-in authors on a
    public one) and how the table's bots start: every one with the service's ``--runner``, as the
    ladder starts its bots (a ladder bot by the ladder's own runner: ``SeatSettings``)."""
    from ladder.web.seats.tables import SeatSettings  # noqa: PLC0415 - the web stack loads only for serve

    return SeatSettings(public=not is_loopback(host), runner=runner, ladder_runner=runner)


def is_loopback(host: str) -> bool:
    """A service on a loopback address (``127.0.0.1``, ``::1``, ``localhost``) is a local one:
    only this machine reaches it, so a person may play a seat without signing in. Any other
    address is public: only signed-in authors play (``docs/web.md``, "Play a seat")."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def bound_socket(host: str, port: int) -> socket.socket:
    """The listening socket, bound here so that the address printed is the one served (port 0
    picks a free port) and a port in use is one line, not a traceback from inside uvicorn."""
    try:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        listening = socket.socket(family, socket.SOCK_STREAM)
        listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listening.bind((host, port))
        listening.listen(128)
    except OSError as exc:
        fail(f"--host {host} --port {port}: cannot listen there ({exc.strerror or exc})")
    listening.set_inheritable(True)
    return listening


def _url_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host
