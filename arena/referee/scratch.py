"""The referee's scratch folders in the temporary directory, and the sweep of those a killed
process left behind.

A match's socket folders, the flood guard's relay folders and a ladder job's private folder are
removed when the match ends. A referee killed outright (SIGKILL, the kernel's OOM killer, a
cluster worker lost with its machine) runs no clean-up, so on a host that plays for months they
gather in ``/tmp``. Each folder's name carries the id of the process that made it
(``dehla-KIND-PID-...``); before a match starts, ``sweep_stale`` removes the folders of processes
that no longer exist. It removes only directories of this user whose name it made, never
follows a symbolic link (``shutil.rmtree``'s descriptor-based walk), and keeps a folder whose
process id is in use again (kept until that process is gone too: never a live match's).
Referees that share a temporary directory must share a process-id namespace (a container's
``/tmp`` is its own unless mounted from outside), or one would take another's ids for gone."""

from __future__ import annotations

import os
import re
import shutil
import stat
import tempfile
from enum import StrEnum
from pathlib import Path


class ScratchKind(StrEnum):
    """What a scratch folder holds."""

    SOCKETS = "sockets"
    """A match's bot sockets and the folders the sandbox binds (``arena.referee.local``)."""
    RELAY = "relay"
    """The flood guard's relay socket for one seat (``arena.referee.flood_guard``)."""
    SEAT = "seat"
    """A person's table in the browser: its sockets (``ladder.web.seats``)."""
    JOB = "job"
    """A ladder job's private folder: its record and logs until they are collected."""


_STALE_NAME = re.compile(r"dehla-(?:" + "|".join(kind.value for kind in ScratchKind) + r")-(\d{1,10})-")


def scratch_prefix(kind: ScratchKind, label: str = "") -> str:
    """The ``prefix`` for ``tempfile.mkdtemp`` (or ``TemporaryDirectory``) of a scratch folder made
    by this process; ``label`` (plain characters) says which match or job it serves."""
    return f"dehla-{kind.value}-{os.getpid()}-{label}"


def make_scratch(kind: ScratchKind, label: str = "") -> Path:
    """A new scratch folder of this process (mode 0700), for the caller to remove when done."""
    return Path(tempfile.mkdtemp(prefix=scratch_prefix(kind, label)))


def process_exists(pid: int) -> bool:
    """Whether a process ``pid`` exists (of any user: a pid in use is not this folder's to judge)."""
    if pid <= 0:
        return True  # 0 and negative ids name process groups: never ours to sweep
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    except OverflowError:
        return False  # no such process id can exist
    return True


def sweep_stale(directory: Path | None = None) -> list[Path]:
    """Remove the scratch folders in ``directory`` (the temporary directory) whose process is gone;
    the folders removed. Errors are skipped: a folder another sweep removed first, or one whose
    removal fails, is left to the next."""
    folder = Path(directory or tempfile.gettempdir())
    removed: list[Path] = []
    me = os.geteuid()
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    for entry in entries:
        match = _STALE_NAME.match(entry.name)
        if match is None:
            continue
        try:
            info = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        if not stat.S_ISDIR(info.st_mode) or info.st_uid != me or process_exists(int(match.group(1))):
            continue
        try:
            shutil.rmtree(entry.path)
        except OSError:
            continue
        removed.append(Path(entry.path))
    return removed
