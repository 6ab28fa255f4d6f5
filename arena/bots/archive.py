"""A bot folder as an upload: a deterministic tar.gz to send, and a safe unpack of one received.

Packing gives the same bytes for the same files wherever and whenever it runs (sorted names,
mtime 0, owner 0, no user names, modes 0644/0755, a gzip header without time or file name), so
an upload's hash says what it holds. Caches and version-control folders stay out (``SKIPPED``).

Unpacking trusts nothing in the archive. The upload is decompressed and read as a stream, and
the decompressed bytes are counted as they are read: a small archive that expands to gigabytes
(or a PAX/GNU header that tarfile would otherwise buffer whole) stops at the cap, while
unpacking. Only regular files and folders are created, each by us (``O_EXCL | O_NOFOLLOW``
relative to a folder descriptor of the fresh destination), never by ``tarfile.extract``. Every
refusal is an ``ArchiveError`` whose one line names the member and the problem.

Standard library only: the server and the author's command line share it.
"""

from __future__ import annotations

import gzip
import io
import os
import shutil
import stat
import tarfile
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import IO, BinaryIO

SKIPPED_FOLDERS = frozenset({".git", ".hg", ".svn", "__pycache__", ".venv", "node_modules", ".mypy_cache",
                             ".pytest_cache", ".ruff_cache"})
"""Folders that are not part of a bot, wherever they appear in it."""
SKIPPED_SUFFIXES = (".pyc", ".pyo")
SKIPPED_FILES = frozenset({".DS_Store"})

MB = 1024 * 1024
CHUNK = 1 << 16


@dataclass(frozen=True, slots=True)
class ArchiveLimits:
    """What one upload may be and hold. The defaults match what ``dehla submit`` stores locally."""

    upload_bytes: int = 32 * MB
    """The archive as sent (compressed)."""
    unpacked_bytes: int = 64 * MB
    """All files' contents together."""
    file_bytes: int = 32 * MB
    files: int = 2000
    folders: int = 500
    path_chars: int = 240
    name_chars: int = 100
    depth: int = 16
    header_bytes: int = 4 * MB
    """Room in the decompressed stream beyond the contents: tar headers, padding, long names."""

    @property
    def stream_bytes(self) -> int:
        """The cap on the decompressed tar stream itself (contents plus headers)."""
        return self.unpacked_bytes + self.header_bytes


DEFAULT_LIMITS = ArchiveLimits()


class ArchiveError(Exception):
    """An archive (or a folder to pack) that cannot be used; ``str()`` is one line naming the
    member and the problem."""

    def __init__(self, member: str | None, problem: str) -> None:
        self.member = member
        self.problem = problem
        super().__init__(problem if member is None else f"{shown(member)}: {problem}")


class NotAnArchiveError(ArchiveError):
    """Not gzip-compressed tar data, or a damaged one."""


class UnsafeMemberError(ArchiveError):
    """A member that could escape the folder or is not a plain file or folder."""


class TooLargeError(ArchiveError):
    """The upload or what it unpacks to passes a limit."""


def size(count: int) -> str:
    """A limit as a person reads it: ``64 MB``, or bytes below a MB."""
    return f"{count // MB} MB" if count >= MB and count % MB == 0 else f"{count} bytes"


def shown(name: str, limit: int = 80) -> str:
    """A member name as one safe line: ``repr`` escapes control, format and undecodable
    characters (a bidi override, a newline); long names are cut."""
    text = repr(name)
    return text if len(text) <= limit else text[:limit - 4] + "...'"


# -- names ------------------------------------------------------------------------------------

def is_skipped(relative: PurePosixPath) -> bool:
    """A file in a cache or version-control folder, or a cache file: not part of the bot. A *file*
    named like a skipped folder is part of it, as ``ladder/versions/folders.py``'s content hash counts it
    (a version's archive must unpack to files of the same hash)."""
    return (any(part in SKIPPED_FOLDERS for part in relative.parts[:-1])
            or relative.name in SKIPPED_FILES or relative.name.endswith(SKIPPED_SUFFIXES))


def checked_path(name: str, limits: ArchiveLimits) -> PurePosixPath:
    """``name`` as a safe relative path, or ``UnsafeMemberError`` (``TooLargeError`` for length).

    Refused: empty, absolute, ``..``, ``.`` or empty parts, backslashes, NUL and other control
    characters, names that are not UTF-8, and names past the length and depth limits. A leading
    ``./`` (``tar -C bot .``) is dropped."""
    while name.startswith("./"):
        name = name[2:]
    if not name:
        raise UnsafeMemberError(name, "an empty name")
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        raise UnsafeMemberError(name, "a name that is not UTF-8") from None
    if any(ord(c) < 0x20 or 0x7F <= ord(c) < 0xA0 for c in name):
        raise UnsafeMemberError(name, "a control character in the name")
    if "\\" in name:
        raise UnsafeMemberError(name, "a backslash in the name")
    if name.startswith("/"):
        raise UnsafeMemberError(name, "an absolute path")
    parts = name.split("/")
    if ".." in parts:
        raise UnsafeMemberError(name, "a '..' in the path")
    if "" in parts or "." in parts:
        raise UnsafeMemberError(name, "an empty or '.' part in the path")
    if len(name) > limits.path_chars:
        raise TooLargeError(name, f"a path longer than {limits.path_chars} characters")
    if any(len(part) > limits.name_chars for part in parts):
        raise TooLargeError(name, f"a name longer than {limits.name_chars} characters")
    if len(parts) > limits.depth:
        raise TooLargeError(name, f"nested deeper than {limits.depth} folders")
    return PurePosixPath(*parts)


# -- packing ----------------------------------------------------------------------------------

def folder_files(folder: Path, limits: ArchiveLimits = DEFAULT_LIMITS) -> list[PurePosixPath]:
    """The files that make up the bot in ``folder``, relative and sorted; symlinks refused (as
    the local ``dehla submit`` does), caches and version-control folders left out."""
    if not folder.is_dir():
        raise ArchiveError(str(folder), "not a folder")
    found: list[PurePosixPath] = []
    for root, dirs, names in os.walk(folder):
        base = Path(root)
        for entry in [*dirs, *names]:
            path = base / entry
            relative = path.relative_to(folder).as_posix()
            if path.is_symlink():
                raise UnsafeMemberError(relative, "a symlink; a bot folder holds plain files only")
        dirs[:] = [d for d in dirs if d not in SKIPPED_FOLDERS]
        for entry in names:
            relative_path = checked_path((base / entry).relative_to(folder).as_posix(), limits)
            if is_skipped(relative_path):
                continue
            if not (base / entry).is_file():
                raise UnsafeMemberError(str(relative_path), "not a regular file")
            found.append(relative_path)
            if len(found) > limits.files:
                raise TooLargeError(None, f"more than {limits.files} files")
    return sorted(found, key=lambda p: p.as_posix())


def pack(folder: Path, target: BinaryIO, limits: ArchiveLimits = DEFAULT_LIMITS) -> None:
    """Write ``folder`` to ``target`` as a deterministic tar.gz (see the module's docstring)."""
    total = 0
    with gzip.GzipFile(filename="", mode="wb", fileobj=target, mtime=0, compresslevel=9) as compressed, \
            tarfile.open(fileobj=compressed, mode="w|", format=tarfile.PAX_FORMAT, encoding="utf-8") as tar:
        for relative in folder_files(folder, limits):
            with _open_file(folder, relative) as source:
                mode = os.fstat(source.fileno()).st_mode
                data = source.read(limits.file_bytes + 1)
            if len(data) > limits.file_bytes:
                raise TooLargeError(relative.as_posix(), f"a file larger than {size(limits.file_bytes)}")
            total += len(data)
            if total > limits.unpacked_bytes:
                raise TooLargeError(None, f"more than {size(limits.unpacked_bytes)} of files")
            info = tarfile.TarInfo(relative.as_posix())
            info.size = len(data)
            info.mode = 0o755 if mode & 0o111 else 0o644
            info.mtime = 0
            info.uid = info.gid = 0
            info.uname = info.gname = ""
            tar.addfile(info, io.BytesIO(data))


def pack_bytes(folder: Path, limits: ArchiveLimits = DEFAULT_LIMITS) -> bytes:
    buffer = io.BytesIO()
    pack(folder, buffer, limits)
    return buffer.getvalue()


@contextmanager
def _open_file(folder: Path, relative: PurePosixPath) -> Iterator[BinaryIO]:
    """A file of the folder opened without following a symlink at any step, checked regular."""
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    for part in relative.parts[:-1]:
        fd = _reopen(fd, part, os.O_DIRECTORY, relative)
    fd = _reopen(fd, relative.name, os.O_NONBLOCK | os.O_NOCTTY, relative)
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise UnsafeMemberError(relative.as_posix(), "not a regular file")
    with os.fdopen(fd, "rb") as file:
        yield file


def _reopen(parent: int, name: str, flags: int, relative: PurePosixPath) -> int:
    """``name`` under ``parent`` (closed either way), no symlink followed."""
    try:
        return os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | flags, dir_fd=parent)
    except OSError as exc:
        raise UnsafeMemberError(relative.as_posix(), f"cannot read ({exc.strerror}; a symlink?)") from None
    finally:
        os.close(parent)


# -- unpacking --------------------------------------------------------------------------------

class _CappedReader(io.RawIOBase):
    """Reads at most ``cap`` bytes from ``source``; one more is a ``TooLargeError`` (``what`` says
    of what). Reads are cut at the cap, so no caller can make it fetch more in one call."""

    def __init__(self, source: BinaryIO, cap: int, what: str) -> None:
        self.source = source
        self.cap = cap
        self.what = what
        self.count = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        room = self.cap - self.count + 1
        view = memoryview(buffer)[:max(1, min(len(buffer), room))]
        data = self.source.read(len(view))
        self.count += len(data)
        if self.count > self.cap:
            raise TooLargeError(None, self.what)
        view[:len(data)] = data
        return len(data)


ALLOWED_TYPES = frozenset({tarfile.REGTYPE, tarfile.AREGTYPE, tarfile.DIRTYPE})


def _kind(member: tarfile.TarInfo) -> str:
    if member.issym():
        return "a symlink"
    if member.islnk():
        return "a hard link"
    if member.ischr() or member.isblk():
        return "a device"
    if member.isfifo():
        return "a FIFO"
    if member.sparse is not None or member.type == tarfile.GNUTYPE_SPARSE:
        return "a sparse file"
    return f"an entry of type {member.type!r}"


def members(source: BinaryIO, limits: ArchiveLimits) -> Iterator[tuple[tarfile.TarFile, tarfile.TarInfo]]:
    """The archive's members in order, read as a stream from the decompressed, capped upload."""
    upload = _CappedReader(source, limits.upload_bytes, f"an upload larger than {size(limits.upload_bytes)}")
    decompressed = gzip.GzipFile(fileobj=io.BufferedReader(upload, CHUNK), mode="rb")
    stream = _CappedReader(decompressed, limits.stream_bytes,  # type: ignore[arg-type]
                           f"unpacks to more than {size(limits.unpacked_bytes)}")
    with tarfile.open(fileobj=io.BufferedReader(stream, CHUNK), mode="r|", encoding="utf-8",
                      errors="surrogateescape") as tar:
        for member in tar:
            yield tar, member


def _first_line(exc: BaseException) -> str:
    text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return text[:120]


@dataclass(frozen=True, slots=True)
class Unpacked:
    folder: Path
    files: int
    total_bytes: int


def unpack(source: BinaryIO, destination: Path, limits: ArchiveLimits = DEFAULT_LIMITS) -> Unpacked:
    """Unpack the tar.gz ``source`` into the new folder ``destination`` (which must not exist).

    On any refusal the folder is removed and an ``ArchiveError`` raised; nothing outside it is
    ever touched."""
    destination.mkdir(mode=0o755)
    try:
        root = os.open(destination, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
        try:
            return _unpack_into(source, root, destination, limits)
        except (gzip.BadGzipFile, zlib.error, EOFError) as exc:
            raise NotAnArchiveError(None, f"not gzip-compressed data, or damaged ({_first_line(exc)})") from None
        except tarfile.TarError as exc:
            raise NotAnArchiveError(None, f"not a tar archive, or damaged ({_first_line(exc)})") from None
        finally:
            os.close(root)
    except BaseException:
        shutil.rmtree(destination, ignore_errors=True)
        raise


def _unpack_into(source: BinaryIO, root: int, destination: Path, limits: ArchiveLimits) -> Unpacked:
    seen: set[PurePosixPath] = set()
    folders: set[PurePosixPath] = set()
    files = 0
    total = 0
    for tar, member in members(source, limits):
        name = member.name
        if member.isdir() and name.rstrip("/") in ("", "."):
            continue  # the archive's own top folder (`tar -C bot .`)
        if member.type not in ALLOWED_TYPES or member.sparse is not None:
            raise UnsafeMemberError(name, f"{_kind(member)}; an upload holds plain files and folders only")
        relative = checked_path(name.rstrip("/") if member.isdir() else name, limits)
        if relative in seen:
            raise UnsafeMemberError(name, "appears twice in the archive")
        seen.add(relative)
        if member.isdir():
            if relative not in folders:
                _make_folders(root, relative, folders, limits)
            continue
        if member.size < 0:
            raise UnsafeMemberError(name, "a negative size")
        if member.size > limits.file_bytes:
            raise TooLargeError(name, f"a file larger than {size(limits.file_bytes)}")
        files += 1
        if files > limits.files:
            raise TooLargeError(name, f"more than {limits.files} files")
        if total + member.size > limits.unpacked_bytes:
            raise TooLargeError(name, f"unpacks to more than {size(limits.unpacked_bytes)}")
        _make_folders(root, relative.parent, folders, limits)
        extracted = tar.extractfile(member)
        assert extracted is not None  # a regular file
        total += _write_file(root, relative, extracted, member, min(member.size, limits.file_bytes))
    return Unpacked(destination, files, total)


def _make_folders(root: int, relative: PurePosixPath, folders: set[PurePosixPath], limits: ArchiveLimits) -> None:
    """Create ``relative`` and its parents under ``root`` (each at most once)."""
    built = PurePosixPath()
    for part in relative.parts:
        built = built / part
        if built in folders:
            continue
        if len(folders) >= limits.folders:
            raise TooLargeError(str(built), f"more than {limits.folders} folders")
        parent = _open_folder(root, built.parent)
        try:
            os.mkdir(part, 0o755, dir_fd=parent)
        except FileExistsError:
            raise UnsafeMemberError(str(built), "a folder with the name of a file before it") from None
        finally:
            if parent != root:
                os.close(parent)
        folders.add(built)


def _open_folder(root: int, relative: PurePosixPath) -> int:
    """A descriptor of ``relative`` under ``root`` (``root`` itself for ``.``), no link followed."""
    fd = root
    for part in relative.parts:
        try:
            opened = os.open(part, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=fd)
        except OSError as exc:
            raise UnsafeMemberError(str(relative), f"cannot open the folder ({exc.strerror})") from None
        finally:
            if fd != root:
                os.close(fd)
        fd = opened
    return fd


def _write_file(root: int, relative: PurePosixPath, data: IO[bytes], member: tarfile.TarInfo, budget: int) -> int:
    parent = _open_folder(root, relative.parent)
    mode = 0o755 if member.mode & 0o111 else 0o644
    try:
        fd = os.open(relative.name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, mode,
                     dir_fd=parent)
    except FileExistsError:
        raise UnsafeMemberError(str(relative), "a file with the name of a folder before it") from None
    finally:
        if parent != root:
            os.close(parent)
    written = 0
    with os.fdopen(fd, "wb") as target:
        while chunk := data.read(CHUNK):
            written += len(chunk)
            if written > budget:
                raise TooLargeError(str(relative), "more data than its header says")
            target.write(chunk)
        os.fchmod(target.fileno(), mode)
    return written


PEEK_BYTES = 1 * MB
"""How much of the decompressed stream ``peek_file`` reads at most: a packed bot's ``bot.toml``
comes early (members are sorted), and a request thread must not unpack a whole upload."""


def peek_file(source: BinaryIO, name: str, limit: int = 64 * 1024) -> bytes | None:
    """The top-level file ``name`` of the tar.gz ``source`` if it comes within the first
    ``PEEK_BYTES`` of the stream and is at most ``limit`` bytes; ``None`` otherwise, or for an
    archive that cannot be read (the full unpacking judges it and says why)."""
    peek = ArchiveLimits(unpacked_bytes=PEEK_BYTES, header_bytes=0)
    try:
        for tar, member in members(source, peek):
            relative = member.name[2:] if member.name.startswith("./") else member.name
            if relative == name and member.isreg() and member.size <= limit:
                extracted = tar.extractfile(member)
                return None if extracted is None else extracted.read(limit + 1)[:limit]
    except (ArchiveError, OSError, EOFError, tarfile.TarError):
        return None
    return None
