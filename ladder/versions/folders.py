"""Bot folders as content: hashing, immutable copies, and the sample bots' folder form."""

from __future__ import annotations

import errno
import hashlib
import os
import shutil
import stat
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO

from arena.bots.archive import SKIPPED_FILES, SKIPPED_FOLDERS, SKIPPED_SUFFIXES
from arena.engine.errors import ArenaError
from arena.referee.launcher import sample_bot_names

SKIPPED = SKIPPED_FOLDERS
"""The same folders an upload's packing leaves out, so a folder hashes the same either way."""
MAX_FILES = 2000
MAX_BYTES = 64 * 1024 * 1024


class FolderError(ArenaError):
    """A bot folder that cannot be stored as it is (symlinks, too big, unreadable)."""


def bot_files(folder: Path) -> list[Path]:
    """The files that make up a bot, relative and sorted (caches and VCS folders skipped).

    A listing with early, clear refusals; it proves nothing about the files by the time they are
    read (the submitter may swap one for a symlink right after): readers go through ``open_member``."""
    if not folder.is_dir():
        raise FolderError("not a folder")
    files: list[Path] = []
    total = 0
    for root, dirs, names in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if d not in SKIPPED)
        for name in sorted(names):
            path = Path(root) / name
            relative = path.relative_to(folder)
            if path.is_symlink():
                raise FolderError(f"{relative}: a symlink; a bot folder holds plain files only")
            if name.endswith(SKIPPED_SUFFIXES) or name in SKIPPED_FILES:
                continue
            if not path.is_file():
                raise FolderError(f"{relative}: not a regular file")
            total += path.stat().st_size
            files.append(relative)
            if len(files) > MAX_FILES:
                raise FolderError(f"more than {MAX_FILES} files")
            if total > MAX_BYTES:
                raise FolderError(f"more than {MAX_BYTES // (1024 * 1024)} MB")
        for d in dirs:
            link = Path(root) / d
            if link.is_symlink():
                raise FolderError(f"{link.relative_to(folder)}: a symlink; a bot folder holds plain files only")
    return files


def content_hash(folder: Path) -> str:
    """SHA-256 over every file's relative path and bytes: the version's identity.

    Every file is read through ``open_member`` (no symlink followed, regular files only)."""
    digest = hashlib.sha256()
    files = bot_files(folder)
    with open_root(folder) as root:
        for relative in files:
            with os.fdopen(open_member(root, relative), "rb") as source:
                data = source.read(MAX_BYTES + 1)
            if len(data) > MAX_BYTES:
                raise FolderError(f"more than {MAX_BYTES // (1024 * 1024)} MB")
            digest.update(relative.as_posix().encode() + b"\0" + str(len(data)).encode() + b"\0" + data)
    return digest.hexdigest()


def open_member(root: int, relative: Path) -> int:
    """Open ``relative`` under the directory ``root`` for reading, refusing to follow a symlink at
    any step and refusing anything that is not a regular file once open (``fstat``, so a file
    swapped after ``bot_files`` checked it cannot slip through). Returns the file descriptor."""
    *folders, name = relative.parts
    fds: list[int] = []
    try:
        parent = root
        for part in folders:
            parent = _open_at(parent, part, os.O_DIRECTORY, relative)
            fds.append(parent)
        fd = _open_at(parent, name, os.O_NONBLOCK | os.O_NOCTTY, relative)  # a FIFO must not block us
        kind = os.fstat(fd).st_mode
        if not stat.S_ISREG(kind):
            os.close(fd)
            raise FolderError(f"{relative}: not a regular file")
        return fd
    finally:
        for opened in fds:
            os.close(opened)


def _open_at(parent: int, name: str, flags: int, relative: Path) -> int:
    try:
        return os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | flags, dir_fd=parent)
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.ENOTDIR):  # a symlink where a file or folder was
            raise FolderError(f"{relative}: a symlink; a bot folder holds plain files only") from None
        raise FolderError(f"{relative}: cannot read ({exc.strerror})") from None


@contextmanager
def open_root(folder: Path) -> Iterator[int]:
    """The bot folder as a directory descriptor, the anchor of every ``open_member``."""
    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError as exc:
        raise FolderError(f"cannot read the folder ({exc.strerror})") from None
    try:
        yield fd
    finally:
        os.close(fd)


def store_copy(folder: Path, staging_parent: Path) -> Path:
    """Copy the bot's files into a new staging folder under ``staging_parent`` and return it.

    The copy reads each file through ``open_member`` and counts the bytes it really copies
    against ``MAX_BYTES`` (a file may grow after it was listed). Hash and read the *copy*,
    never the source: the source belongs to the submitter and may change at any moment."""
    staging_parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".incoming-", dir=staging_parent))
    try:
        total = 0
        files = bot_files(folder)
        with open_root(folder) as root:
            for relative in files:
                target = staging / relative
                target.parent.mkdir(parents=True, exist_ok=True)
                with os.fdopen(open_member(root, relative), "rb") as source:
                    mode = 0o644 | (os.fstat(source.fileno()).st_mode & 0o111)
                    with target.open("xb") as copy:
                        total += _copy_bounded(source, copy, MAX_BYTES - total)
                target.chmod(mode)
    except BaseException:
        remove_tree(staging)
        raise
    return staging


def _copy_bounded(source: BinaryIO, target: BinaryIO, budget: int) -> int:
    copied = 0
    while chunk := source.read(1 << 20):
        copied += len(chunk)
        if copied > budget:
            raise FolderError(f"more than {MAX_BYTES // (1024 * 1024)} MB")
        target.write(chunk)
    return copied


def put_in_place(staging: Path, destination: Path) -> None:
    """Move a staged copy to ``destination`` (replacing a leftover of an interrupted submission
    that never reached the store), then make it read-only."""
    destination.parent.mkdir(parents=True, exist_ok=True)
    if destination.exists():
        remove_tree(destination)
    staging.rename(destination)
    make_read_only(destination)


def make_read_only(folder: Path) -> None:
    """No write bit left on ``folder``'s files and folders: a stored or cached version is never
    changed in place (a bot must not edit its own code)."""
    for root, dirs, names in os.walk(folder):
        for name in names:
            path = Path(root) / name
            path.chmod(path.stat().st_mode & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))
        for name in dirs:
            (Path(root) / name).chmod(0o555)
    folder.chmod(0o555)


def remove_tree(path: Path) -> None:
    """Remove a (possibly read-only) stored copy."""
    if not path.exists():
        return
    for root, dirs, _ in os.walk(path):
        Path(root).chmod(0o755)
        for name in dirs:
            (Path(root) / name).chmod(0o755)
    shutil.rmtree(path, ignore_errors=True)


def sample_folder(name: str, parent: Path) -> Path:
    """The folder form of sample bot ``name``: a ``bot.toml`` running ``python -m sample_bots.NAME``
    and a ``SOURCE.sha256`` of the sample's code, so a changed sample becomes a new version."""
    if name not in sample_bot_names():
        raise FolderError(f"unknown sample bot {name!r} (choose from {', '.join(sample_bot_names())})")
    package = Path(__file__).resolve().parents[2] / "sample_bots" / name
    sources = sorted(p for p in package.glob("*.py"))
    listing = "".join(f"{hashlib.sha256(p.read_bytes()).hexdigest()}  {p.name}\n" for p in sources)
    folder = parent / name
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "bot.toml").write_text(
        f'name = "{name}"\nversion = "1.0.0"\nauthor = "Dehla Arena"\n'
        f'description = "The {name} sample bot (sample_bots/{name})."\n'
        f'command = ["python", "-m", "sample_bots.{name}"]\n', encoding="utf-8")
    (folder / "SOURCE.sha256").write_text(listing, encoding="utf-8")
    return folder
