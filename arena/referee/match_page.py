"""The line ``dehla match`` (and ``dehla tournament``) print after their report when a ``dehla
serve`` runs for the data folder: where the match's page is (``arena.console.serving``)."""

from __future__ import annotations

from pathlib import Path

from rich.console import Console

from arena.console.serving import local_match_url
from arena.console.text import plain


def print_match_page(data: Path | None, record: Path, *, as_json: bool = False) -> None:
    """``match page: URL`` on stdout (on stderr beside ``--json``, whose stdout is one object);
    nothing when no server runs for ``data`` or the record is not among its local matches."""
    url = local_match_url(data, record)
    if url is not None:
        Console(stderr=as_json).print(plain(f"match page: {url}"), soft_wrap=True)


def print_live_page(data: Path | None, record: Path, *, as_json: bool = False) -> None:
    """``live page: URL`` before a match is played, when a server runs for ``data``: its public
    table as it is played (``arena.referee.live_view``), which turns into the replay at the end."""
    url = local_match_url(data, record)
    if url is not None:
        Console(stderr=as_json).print(plain(f"live page: {url}/live"), soft_wrap=True)
