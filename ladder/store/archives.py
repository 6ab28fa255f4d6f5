"""Bot versions' archives in the store: what a worker on any machine fetches by content hash.

``dehla submit`` stores the new version's archive (``arena.bots.archive.pack_bytes`` of its
stored folder) in the transaction that adds the version; a version stored before archives were
got its archive when the store was upgraded (migration 0011, with ``pack_version``: the folder
must still hash to the version's content hash, so an edited folder is never published under the
old identity). With ``$DEHLA_BLOBS`` set, each archive is also written there as ``HASH.tar.gz``
for workers that read a shared folder instead of the store.
"""

from __future__ import annotations

from pathlib import Path

from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from arena.bots.archive import ArchiveError, pack_bytes
from arena.engine.errors import ArenaError
from ladder.store.database import Store
from ladder.store.paths import ArenaData
from ladder.store.schema import Archive, BotVersion
from ladder.versions.folders import FolderError, content_hash
from ladder.versions.version_cache import ArchiveRef, Fetch, blob_folder, sha256_of, write_blob


class ArchiveUnavailableError(ArenaError):
    """A version's archive cannot be made: its stored folder is gone, unreadable or changed."""


def ref_of(row: Archive) -> ArchiveRef:
    return ArchiveRef(row.content_hash, row.archive_sha256)


def pack_version(folder: Path, digest: str) -> bytes:
    """The archive of the version ``digest`` stored in ``folder``, checked to be that version."""
    try:
        found = content_hash(folder)
        if found != digest:
            raise ArchiveUnavailableError(f"version {digest[:12]}: its stored folder {folder} now holds other files "
                                          f"(content hash {found[:12]}); not packed")
        return pack_bytes(folder)
    except (ArchiveError, FolderError) as exc:
        raise ArchiveUnavailableError(f"version {digest[:12]}: its stored folder {folder}: {exc}") from None


def add_archive(session: Session, digest: str, archive: bytes) -> ArchiveRef:
    """Store ``archive`` under ``digest`` (a no-op if it is stored already, even by a concurrent
    coordinator: the same content packs to the same bytes)."""
    existing = session.get(Archive, digest)
    if existing is not None:
        return ref_of(existing)
    row = Archive(content_hash=digest, archive_sha256=sha256_of(archive), size_bytes=len(archive), data=archive)
    try:
        with session.begin_nested():
            session.add(row)
    except IntegrityError:  # another writer stored it between our look and our insert
        return ref_of(session.get_one(Archive, digest))
    publish(ref_of(row), archive)
    return ref_of(row)


def publish(ref: ArchiveRef, archive: bytes) -> None:
    """Also write the archive to the operator's blob folder, if one is configured."""
    blobs = blob_folder()
    if blobs is not None:
        write_blob(blobs, ref, archive)


def archive_of(session: Session, version: BotVersion) -> ArchiveRef:
    """The version's archive reference; ``ArchiveUnavailableError`` if the store has none (a
    version whose folder was gone or changed when migration 0011 packed the others)."""
    existing = session.get(Archive, version.content_hash)
    if existing is None:
        raise ArchiveUnavailableError(f"version {version.content_hash[:12]} has no archive in the store: its stored "
                                      f"folder {version.path} was gone or held other files when the store was "
                                      "upgraded; submit the bot again")
    return ref_of(existing)


def store_source(data: ArenaData | None = None) -> Fetch:
    """Archives read from the store of ``data`` (default: this process's environment's)."""

    def fetch(digest: str) -> bytes | None:
        store = Store.open(data or ArenaData.locate())
        try:
            with store.reading() as session:
                row = session.get(Archive, digest)
                return None if row is None else bytes(row.data)
        finally:
            store.close()
    return fetch


def session_source(session: Session) -> Fetch:
    """Archives read through an open session (the coordinator filling its own machine's cache)."""

    def fetch(digest: str) -> bytes | None:
        row = session.get(Archive, digest)
        return None if row is None else bytes(row.data)
    return fetch
