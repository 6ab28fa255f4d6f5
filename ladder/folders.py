"""Bot folders as content: hashing, immutable copies, and the sample bots' folder form."""

from __future__ import annotations

import hashlib
import os
import shutil
import stat
import tempfile
from pathlib import Path

from arena.engine.errors import ArenaError
from arena.referee.launcher import sample_bot_names

SKIPPED = frozenset({"__pycache__", ".git", ".hg", ".venv", ".mypy_cache", ".pytest_cache", ".ruff_cache",
                     "node_modules"})
MAX_FILES = 2000
MAX_BYTES = 64 * 1024 * 1024


class FolderError(ArenaError):
    """A bot folder that cannot be stored as it is (symlinks, too big, unreadable)."""


def bot_files(folder: Path) -> list[Path]:
    """The files that make up a bot, relative and sorted (caches and VCS folders skipped)."""
    files: list[Path] = []
    total = 0
    for root, dirs, names in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if d not in SKIPPED)
        for name in sorted(names):
            path = Path(root) / name
            relative = path.relative_to(folder)
            if path.is_symlink():
                raise FolderError(f"{relative}: a symlink; a bot folder holds plain files only")
            if name.endswith((".pyc", ".pyo")):
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
    """SHA-256 over every file's relative path and bytes: the version's identity."""
    digest = hashlib.sha256()
    try:
        for relative in bot_files(folder):
            data = (folder / relative).read_bytes()
            digest.update(relative.as_posix().encode() + b"\0" + str(len(data)).encode() + b"\0" + data)
    except OSError as exc:
        raise FolderError(f"{folder}: cannot read ({exc.strerror})") from None
    return digest.hexdigest()


def store_copy(folder: Path, destination: Path) -> None:
    """Copy the bot's files to ``destination`` atomically, then make the copy read-only."""
    destination.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".incoming-", dir=destination.parent))
    try:
        for relative in bot_files(folder):
            target = staging / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(folder / relative, target)
        if destination.exists():  # left by an interrupted submission that never reached the store
            remove_tree(destination)
        staging.rename(destination)
    except BaseException:
        remove_tree(staging)
        raise
    for root, dirs, names in os.walk(destination):
        for name in names:
            path = Path(root) / name
            path.chmod(path.stat().st_mode & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))
        for name in dirs:
            (Path(root) / name).chmod(0o555)
    destination.chmod(0o555)


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
    package = Path(__file__).resolve().parents[1] / "sample_bots" / name
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
