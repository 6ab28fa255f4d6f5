"""A worker's cache of bot versions, keyed by content hash: what a job names, resolved to a folder.

A job names each seat's version by its content hash and its archive's sha256 only (no path of
the coordinator's, no secret). The worker looks in its cache folder (``$DEHLA_CACHE``, else
``$XDG_CACHE_HOME/dehla-arena/versions``, else ``~/.cache/dehla-arena/versions``); on a miss it
fetches the archive from a source its own environment configures (``$DEHLA_BLOBS``, a folder of
``HASH.tar.gz`` files; the store of ``$DEHLA_DATABASE_URL`` / ``$DEHLA_DATA``), never one the job
names. A fill is atomic and checked: the archive's sha256 before it is unpacked (safely,
``arena.bots.archive.unpack``), the unpacked folder's content hash before it is renamed into
place, so a folder under its hash's name in the cache always holds exactly that version.
"""

from __future__ import annotations

import hashlib
import io
import os
import re
import stat
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from arena.bots.archive import DEFAULT_LIMITS, ArchiveError, ArchiveLimits, unpack
from arena.console.data import env_path
from arena.engine.errors import ArenaError
from ladder.versions.folders import FolderError, content_hash, make_read_only, remove_tree

CACHE_ENV = "DEHLA_CACHE"
BLOBS_ENV = "DEHLA_BLOBS"
BLOB_SUFFIX = ".tar.gz"
HASH = re.compile(r"[0-9a-f]{64}")
VERSION_LIMITS = ArchiveLimits(upload_bytes=DEFAULT_LIMITS.stream_bytes)
"""An upload's limits, but for the archive's compressed size: a stored version may hold up to
``unpacked_bytes`` of files that do not compress (``ladder/versions/folders.py``'s ``MAX_BYTES``)."""

Fetch = Callable[[str], "bytes | None"]
"""A source of archives: the archive of a content hash, or None if it has none."""


class VersionUnavailableError(ArenaError):
    """A version a job names cannot be run here: no source has it, or what came fails a check."""


class VersionTamperedError(VersionUnavailableError):
    """An archive whose bytes or files are not the version the job names: never unpacked into
    the cache, never run."""


@dataclass(frozen=True, slots=True)
class ArchiveRef:
    """A version as a job names it."""

    content_hash: str
    """Of the version's files (``ladder/versions/folders.py``): its identity."""
    archive_sha256: str
    """Of the archive's bytes (``ladder/store/archives.py``)."""

    def __post_init__(self) -> None:
        for name, value in (("content hash", self.content_hash), ("archive sha256", self.archive_sha256)):
            if not HASH.fullmatch(value):
                raise VersionUnavailableError(f"a job named a version by a malformed {name} {value[:80]!r}")

    @property
    def short(self) -> str:
        return self.content_hash[:12]


def sha256_of(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def default_cache_root() -> Path:
    """``$DEHLA_CACHE``, else the XDG cache folder's ``dehla-arena/versions``."""
    own = env_path(CACHE_ENV)
    if own is not None:
        return own.expanduser().resolve()
    base = env_path("XDG_CACHE_HOME") or Path.home() / ".cache"
    return (base / "dehla-arena" / "versions").expanduser().resolve()


class VersionCache:
    """Checked version folders under ``root``, one per content hash, filled atomically."""

    def __init__(self, root: Path | None = None) -> None:
        self.root = root or default_cache_root()

    def folder(self, ref: ArchiveRef) -> Path:
        return self.root / ref.content_hash

    def cached(self, ref: ArchiveRef) -> Path | None:
        folder = self.folder(ref)
        return folder if folder.is_dir() and not folder.is_symlink() else None

    def resolve(self, ref: ArchiveRef, sources: Sequence[Fetch]) -> Path:
        """The version's folder: cached, or fetched from the first source that has it and checked."""
        found = self.cached(ref)
        if found is not None:
            return found
        for fetch in sources:
            archive = fetch(ref.content_hash)
            if archive is not None:
                return self.fill(ref, archive)
        where = "no source is configured (set DEHLA_BLOBS, or DEHLA_DATABASE_URL / DEHLA_DATA for the store)" \
            if not sources else "no configured source has it"
        raise VersionUnavailableError(f"version {ref.short}: not in the cache {self.root} and {where}")

    def fill(self, ref: ArchiveRef, archive: bytes) -> Path:
        """Check ``archive`` against ``ref``, unpack it and rename it into place; the folder."""
        actual = sha256_of(archive)
        if actual != ref.archive_sha256:
            raise VersionTamperedError(f"version {ref.short}: its archive's sha256 is {actual[:12]}, not "
                                       f"{ref.archive_sha256[:12]}; not unpacked, not run")
        self.root.mkdir(parents=True, exist_ok=True)
        work = Path(tempfile.mkdtemp(prefix=".fill-", dir=self.root))
        try:
            unpacked = work / "version"
            try:
                unpack(io.BytesIO(archive), unpacked, VERSION_LIMITS)
                found = content_hash(unpacked)
            except (ArchiveError, FolderError) as exc:
                raise VersionTamperedError(f"version {ref.short}: its archive is refused ({exc}); not run") from None
            if found != ref.content_hash:
                raise VersionTamperedError(f"version {ref.short}: its archive holds other files (content hash "
                                           f"{found[:12]}); not run")
            make_read_only(unpacked)
            unpacked.chmod(0o755)  # moving a folder to another parent writes its `..` entry
            try:
                os.rename(unpacked, self.folder(ref))
            except OSError:  # another worker filled it first: theirs passed the same checks
                if self.cached(ref) is None:
                    raise
            else:
                self.folder(ref).chmod(0o555)
        finally:
            remove_tree(work)
        return self.folder(ref)


def blob_source(folder: Path) -> Fetch:
    """Archives as ``HASH.tar.gz`` files in an operator's shared folder (the name built from a
    checked hash only; a link is not followed)."""

    def fetch(digest: str) -> bytes | None:
        if not HASH.fullmatch(digest):
            return None
        try:
            fd = os.open(folder / f"{digest}{BLOB_SUFFIX}", os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
        except OSError:
            return None
        with os.fdopen(fd, "rb") as file:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                return None
            return file.read()
    return fetch


def write_blob(folder: Path, ref: ArchiveRef, archive: bytes) -> None:
    """Put an archive in the blob folder (atomically: a reader never sees half of one)."""
    target = folder / f"{ref.content_hash}{BLOB_SUFFIX}"
    if target.exists():
        return
    folder.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(prefix=".blob-", dir=folder)
    try:
        with os.fdopen(fd, "wb") as file:
            file.write(archive)
            file.flush()
            os.fsync(file.fileno())
        os.chmod(temporary, 0o444)
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def blob_folder() -> Path | None:
    """The operator's blob folder (``$DEHLA_BLOBS``), if any."""
    return env_path(BLOBS_ENV)


__all__ = ["ArchiveRef", "VersionCache", "VersionTamperedError", "VersionUnavailableError", "blob_source",
           "default_cache_root", "sha256_of", "write_blob"]
