"""Match records written per attempt, put in place only for the attempt that is counted.

A worker plays attempt N of match 42 into its own folder, ``matches/.attempts/m000042.aN.HEX/``
(the record ``m000042.jsonl`` and the bots' logs). Only the coordinator, in the transaction
that counts that attempt and before it commits, moves those files to ``matches/`` (fsync, then
``os.replace``, then fsync of the folder): ``matches/m000042.jsonl`` is always one whole record
of the counted attempt. A late or stale attempt (a worker of a run that died, a second run)
writes only its own folder, which is thrown away. A coordinator that dies leaves its attempt
folders behind; the next run (holding the coordinator lock) clears them as it starts.
"""

from __future__ import annotations

import os
import shutil
import uuid
from pathlib import Path

ATTEMPTS = ".attempts"


def attempt_folder(records: Path, key: str, attempt: int) -> Path:
    """A new, unique folder for one attempt of match ``key``."""
    folder = records / ATTEMPTS / f"{key}.a{attempt}.{uuid.uuid4().hex[:12]}"
    folder.mkdir(parents=True)
    return folder


def put_in_place(staged: Path, records: Path) -> None:
    """Move every file of an attempt's folder into ``records`` atomically and durably."""
    _check_staged(staged, records)
    for entry in sorted(os.scandir(staged), key=lambda e: e.name):
        if not entry.is_file(follow_symlinks=False):
            continue
        fd = os.open(entry.path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(entry.path, records / entry.name)
    _fsync_folder(records)
    discard(staged, records)


def discard(staged: Path, records: Path) -> None:
    """Remove an attempt's folder (an attempt that was not counted, or one already put in place)."""
    _check_staged(staged, records)
    shutil.rmtree(staged, ignore_errors=True)


def clear_stale(records: Path) -> None:
    """Remove the attempt folders of runs that died. Only while no other coordinator runs."""
    shutil.rmtree(records / ATTEMPTS, ignore_errors=True)


def _check_staged(staged: Path, records: Path) -> None:
    if staged.parent != records / ATTEMPTS:
        raise ValueError(f"{staged} is not an attempt folder of {records}")


def _fsync_folder(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
