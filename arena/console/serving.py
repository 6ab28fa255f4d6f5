"""Which ``dehla serve`` serves a data folder, so that a command can print a page's address.

``dehla serve`` leaves ``DATA/serving.json`` (its address and process id) while it runs and
removes it on exit; ``running_server_url`` reads it. The file may be stale (a server killed
with SIGKILL never removes it: its process is gone, so it is ignored) or written by anyone who
can write the folder, so only an ``http(s)://host:port/`` address is believed, never a path or
a script, and the callers print it literally.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from arena.console.data import data_root

SERVER_FILE = "serving.json"
LOCAL_MATCHES = "local-matches"
"""The data folder's subfolder of ``dehla match`` records (``arena.referee.commands.LOCAL_RECORDS``)."""
LOCAL_MATCH_PAGES = "local"
"""The web path under which a local match's page lives: ``/local/<match id>``."""
LOCAL_MATCH_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,119}")
"""A local match's id in a URL: its record's file name without ``.jsonl``. No dot, slash or
percent sign, so an id can never name a file outside the folder."""
_SERVER_URL = re.compile(r"https?://(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):[0-9]{1,5}/")
_ANY_ADDRESS = {"0.0.0.0": "127.0.0.1", "::": "::1"}


def running_server_url(data: Path | None) -> str | None:
    """The address of the ``dehla serve`` running for this data folder (``--data`` as given, or
    ``None`` for the default), or ``None`` when none is."""
    try:
        found = json.loads((data_root(data) / SERVER_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(found, dict):
        return None
    url, pid = found.get("url"), found.get("pid")
    if not isinstance(url, str) or not _SERVER_URL.fullmatch(url) or type(pid) is not int or pid <= 0:
        return None
    return url if _alive(pid) else None


def local_match_url(data: Path | None, record: Path) -> str | None:
    """The address of the page of the local match whose record is ``record``, when a server runs
    for the data folder and the record is one of the folder's local matches."""
    if record.parent.resolve() != data_root(data) / LOCAL_MATCHES or record.suffix != ".jsonl":
        return None
    if not LOCAL_MATCH_ID.fullmatch(record.stem):
        return None
    url = running_server_url(data)
    return None if url is None else f"{url}{LOCAL_MATCH_PAGES}/{record.stem}"


def server_url(host: str, port: int) -> str:
    """The address a browser on this machine reaches a server bound to ``host`` at."""
    host = _ANY_ADDRESS.get(host, host)
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


@contextmanager
def announced(root: Path, url: str) -> Iterator[None]:
    """``url`` written to ``root``'s server file for as long as the block runs (written whole, by
    rename); removed after it, unless another server has written its own since. A folder that
    cannot be written leaves no file: the server runs, commands just cannot name its pages."""
    path = root / SERVER_FILE
    partial = root / f".{SERVER_FILE}.{os.getpid()}"
    try:
        partial.write_text(json.dumps({"url": url, "pid": os.getpid()}), encoding="utf-8")
        os.replace(partial, path)
    except OSError:
        yield
        return
    try:
        yield
    finally:
        with contextlib.suppress(OSError, ValueError, AttributeError):  # gone, or another's: left as it is
            if json.loads(path.read_text(encoding="utf-8")).get("pid") == os.getpid():
                path.unlink()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's process: it exists
    except OverflowError:
        return False
    return True
