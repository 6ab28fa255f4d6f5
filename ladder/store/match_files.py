"""A counted match's files in the store (``match_files`` rows, zlib-compressed), and reading
them back: the only place a match's record and logs are read from (a store made before kept
them under the data folder; migration 0010 moved them in).

Rows are written only in the transaction that counts the attempt (``ladder/coordinator/results.py``), so
a match's files are those of its counted attempt or none. Reading decompresses at most the
reader's cap (a row edited into a zip bomb cannot fill the service's memory).
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from pathlib import PurePosixPath

from sqlalchemy import select
from sqlalchemy.orm import Session

from ladder.store.report_files import ReportFile
from ladder.store.schema import MatchFile

LEVEL = 6


@dataclass(frozen=True, slots=True)
class StoredFile:
    """What was read: at most the cap's bytes, and the file's whole (uncompressed) size."""

    content: bytes
    size: int


def stored_name(record_path: str) -> str:
    """The name a match's file is stored under: ``record_path``'s last part (a record whose file
    migration 0010 could not move in keeps its old path, whose name the store does not hold)."""
    return PurePosixPath(record_path).name


class DamagedFileError(Exception):
    """A stored file that does not decompress; the message ends a sentence ("does not decompress")."""


def store_files(session: Session, match_id: int, files: list[ReportFile]) -> None:
    for file in files:
        session.add(MatchFile(match_id=match_id, name=file.name, size_bytes=len(file.data),
                              data=zlib.compress(file.data, LEVEL)))


def stored_names(session: Session, match_id: int) -> list[str]:
    return list(session.scalars(select(MatchFile.name).where(MatchFile.match_id == match_id)
                                .order_by(MatchFile.name)))


def stored_size(session: Session, match_id: int, name: str) -> int | None:
    """The file's uncompressed size, or None if the store has no such file of the match."""
    return session.scalar(select(MatchFile.size_bytes).where(MatchFile.match_id == match_id, MatchFile.name == name))


def read_stored(session: Session, match_id: int, name: str, cap: int) -> StoredFile | None:
    """The first ``cap`` bytes of the match's file ``name``, or None if the store has none."""
    row = session.get(MatchFile, (match_id, name))
    if row is None:
        return None
    inflate = zlib.decompressobj()
    try:
        content = inflate.decompress(bytes(row.data), cap)
    except zlib.error:
        raise DamagedFileError("does not decompress (damaged in the store)") from None
    return StoredFile(content, int(row.size_bytes))
