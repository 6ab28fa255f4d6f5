"""The files of a match as a report carries them: its record and its seats' logs, as bytes.

A worker plays each attempt into a private temporary folder of its own and sends back the files
the referee wrote there under the names it knows (``m000042.jsonl``, ``m000042.seat0.log`` ..
``seat3.log``, the second room's ``m000042.room1.seat0.log`` .. ``room1.seat3.log``), each capped
(``RECORD_CAP``, ``LOG_CAP``). The coordinator stores them with the match in the transaction that
counts the attempt (``ladder/store/match_files.py``); a late or stale attempt stores nothing. The
names in a report are never used as paths: the coordinator keeps only the names it expects for
that match and stores them as rows.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path

from arena.referee.launcher import DEFAULT_LOG_CAP
from arena.referee.rooms import seat_log_name

RECORD_CAP = 16 * 1024 * 1024
"""A match record's bytes: far above what the referee writes (a 16-deal duplicate match is about
400 KB); a larger one is not sent (the match keeps no record)."""
LOG_CAP = 2 * DEFAULT_LOG_CAP
"""A seat log's bytes: twice the referee's own cap on what it keeps of a bot's output; the rest
is cut."""
SEATS = 4
ROOMS = 2


@dataclass(frozen=True, slots=True)
class ReportFile:
    """One file of a match, as a worker read it."""

    name: str
    data: bytes


def match_key(match_id: int) -> str:
    return f"m{match_id:06d}"


def record_name(match_id: int) -> str:
    return f"{match_key(match_id)}.jsonl"


def log_name(match_id: int, seat: int, room: int = 0) -> str:
    """The log of the bot at ``seat`` in ``room`` (a duplicate match has two rooms of four bots)."""
    return seat_log_name(match_key(match_id), seat, room)


def expected_files(match_id: int) -> dict[str, int]:
    """The names of a match's files and each one's cap: the record, then room 0's logs, then room 1's."""
    logs = {log_name(match_id, seat, room): LOG_CAP for room in range(ROOMS) for seat in range(SEATS)}
    return {record_name(match_id): RECORD_CAP, **logs}


def collect(folder: Path, match_id: int) -> tuple[ReportFile, ...]:
    """The match's files the referee wrote in ``folder`` (a missing one left out; a record over
    its cap left out, a log cut at its cap), read without following a link."""
    found: list[ReportFile] = []
    for name, cap in expected_files(match_id).items():
        data = _read_capped(folder / name, cap)
        if data is None or (name.endswith(".jsonl") and len(data) > cap):
            continue
        found.append(ReportFile(name, data[:cap]))
    return tuple(found)


def accepted(files: tuple[ReportFile, ...], match_id: int) -> list[ReportFile]:
    """The files of a report the coordinator keeps: the expected names, each within its cap,
    once; anything else in the report is dropped."""
    caps = expected_files(match_id)
    kept: dict[str, ReportFile] = {}
    for file in files:
        if not isinstance(file, ReportFile) or not isinstance(file.name, str) or not isinstance(file.data, bytes):
            continue
        cap = caps.get(file.name)
        if cap is None or len(file.data) > cap or file.name in kept:
            continue
        kept[file.name] = file
    return [kept[name] for name in caps if name in kept]


def _read_capped(path: Path, cap: int) -> bytes | None:
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as file:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        return file.read(cap + 1)
