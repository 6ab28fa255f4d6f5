"""``dehla submit`` against a submitter who changes the folder while it is being stored.

The race is staged deterministically: ``bot_files`` (the listing, the "check") is wrapped so
that, each time it lists the submitted folder, the file is a plain file while it is listed and
is swapped right after, before anything reads it. The code before this fix (listing, then
``read_bytes``/``shutil.copy2`` by path) stored the host file in the bot and showed it in the
rejection's log tail; these tests fail on it (checked with ``git stash`` of ``ladder/``).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from pathlib import Path

import pytest
from sqlalchemy import func, select

from ladder.rating.ratings import RatingEnv
from ladder.store.schema import BotVersion
from ladder.submission.submit import SubmissionRejected, submit, validation_matches
from ladder.versions import folders
from ladder.versions.folders import FolderError, content_hash
from tests.ladder_helpers import bot_folder, no_validation, open_store

SECRET = b"HOST-SECRET-7f3a9 only root may read this line\n"


def host_secret(tmp_path: Path) -> Path:
    """A root-only file outside the bot folder (a stand-in for /etc/shadow)."""
    secret = tmp_path / "host" / "shadow"
    secret.parent.mkdir()
    secret.write_bytes(SECRET)
    secret.chmod(0o400)
    return secret


class RacingListing:
    """Wraps ``folders.bot_files``: ``restore`` runs before each listing of ``folder``, ``swap``
    right after it, i.e. between the check and the read."""

    def __init__(self, folder: Path, restore: Callable[[], None], swap: Callable[[], None]) -> None:
        self.folder = folder
        self.restore = restore
        self.swap = swap
        self.swaps = 0
        self.real = folders.bot_files

    def __call__(self, folder: Path) -> list[Path]:
        if folder != self.folder:
            return self.real(folder)
        self.restore()
        files = self.real(folder)
        self.swap()
        self.swaps += 1
        return files


def swap_file_for_symlink(target: Path, secret: Path) -> tuple[Callable[[], None], Callable[[], None]]:
    code = target.read_bytes()

    def restore() -> None:
        target.unlink(missing_ok=True)
        target.write_bytes(code)

    def swap() -> None:
        target.unlink()
        target.symlink_to(secret)

    return restore, swap


def everything_under(root: Path) -> bytes:
    """Every byte stored under ``root`` (bots, validation records and logs)."""
    found = b""
    for folder, _, names in os.walk(root):
        for name in names:
            path = Path(folder) / name
            if not path.is_symlink() and path.is_file():
                found += path.read_bytes()
    return found


def test_a_file_swapped_for_a_symlink_after_the_check_is_refused_and_never_shown(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    secret = host_secret(tmp_path)
    folder = bot_folder(tmp_path / "src", "racer", "print('hello')\n")
    race = RacingListing(folder, *swap_file_for_symlink(folder / "bot.py", secret))
    monkeypatch.setattr(folders, "bot_files", race)
    store = open_store(tmp_path / "data")
    with pytest.raises((FolderError, SubmissionRejected)) as caught:
        # the real validation matches: with the old code the bot ran the secret as bot.py and
        # Python's SyntaxError printed it into the log tail shown to the submitter
        submit(store, RatingEnv(), folder, "local", validation_matches)
    assert race.swaps >= 1 and (folder / "bot.py").is_symlink()
    assert (folder / "bot.py").read_bytes() == SECRET  # a path-following read got the secret here
    error = caught.value
    assert isinstance(error, FolderError), error  # refused while copying, before any bot ran
    assert str(error) == "bot.py: a symlink; a bot folder holds plain files only"
    assert SECRET.strip().decode() not in str(error)
    assert SECRET.strip() not in everything_under(store.data.root)
    with store.reading() as session:
        assert session.scalar(select(func.count()).select_from(BotVersion)) == 0
    assert [p.name for p in store.data.bots.iterdir()] == []  # the staging copy is gone


def test_a_folder_swapped_for_a_symlink_after_the_check_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    secret = host_secret(tmp_path)
    folder = bot_folder(tmp_path / "src", "racer")
    lib = folder / "lib"
    lib.mkdir()
    (lib / "shadow").write_bytes(b"# a plain file with the secret's name\n")

    def restore() -> None:
        if lib.is_symlink():
            lib.unlink()
            lib.mkdir()
            (lib / "shadow").write_bytes(b"# a plain file with the secret's name\n")

    def swap() -> None:
        (lib / "shadow").unlink()
        lib.rmdir()
        lib.symlink_to(secret.parent, target_is_directory=True)

    race = RacingListing(folder, restore, swap)
    monkeypatch.setattr(folders, "bot_files", race)
    store = open_store(tmp_path / "data")
    with pytest.raises(FolderError, match=r"^lib/shadow: a symlink"):
        submit(store, RatingEnv(), folder, "local", no_validation)
    assert race.swaps == 1 and (folder / "lib" / "shadow").read_bytes() == SECRET
    assert SECRET.strip() not in everything_under(store.data.root)


def test_a_file_swapped_for_a_fifo_is_refused_without_blocking(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = bot_folder(tmp_path / "src", "racer")
    target = folder / "bot.py"
    code = target.read_bytes()

    def restore() -> None:
        target.unlink()
        target.write_bytes(code)

    def swap() -> None:
        target.unlink()
        os.mkfifo(target)  # opened without O_NONBLOCK, reading it waits for a writer forever

    monkeypatch.setattr(folders, "bot_files", RacingListing(folder, restore, swap))
    with pytest.raises(FolderError, match=r"^bot\.py: not a regular file$"):
        submit(open_store(tmp_path / "data"), RatingEnv(), folder, "local", no_validation)
    assert stat.S_ISFIFO(target.lstat().st_mode)


def test_the_version_hash_is_the_hash_of_the_stored_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The source changes after every listing; the stored version's hash must still be its own
    content's (the old code hashed one reading of the source and copied another)."""
    folder = bot_folder(tmp_path / "src", "shifty")
    edits = iter(range(1000))
    monkeypatch.setattr(folders, "bot_files", RacingListing(
        folder, lambda: None, lambda: (folder / "bot.py").write_text(f"# edit {next(edits)}\n")))
    store = open_store(tmp_path / "data")
    result = submit(store, RatingEnv(), folder, "local", no_validation)
    monkeypatch.undo()
    assert content_hash(store.data.root / result.path) == result.content_hash
