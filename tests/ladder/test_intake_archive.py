"""Packing a bot folder (deterministic) and unpacking an upload (safe), without a server.

Each hostile archive is refused with one line naming the member; where the attack can be shown,
a negative control runs it through the unsafe way (``tarfile.extractall`` with no filter, or our
reader with its cap lifted) inside ``tmp_path`` and shows it working.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import os
import shutil
import tarfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arena.bots.archive import (
    DEFAULT_LIMITS,
    ArchiveError,
    ArchiveLimits,
    NotAnArchiveError,
    TooLargeError,
    UnsafeMemberError,
    pack_bytes,
    unpack,
)
from ladder.versions.folders import content_hash
from tests.bots.archives import Entry, big_file_bomb, good_bot, long_name_bomb, pax_bomb, tar_gz

NAMES = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789_-.", min_size=1, max_size=12).filter(
    lambda n: n not in (".", "..") and not n.endswith((".pyc", ".pyo")) and n != ".DS_Store")
TREES = st.dictionaries(st.lists(NAMES, min_size=1, max_size=3).map(tuple), st.binary(max_size=300),
                        min_size=1, max_size=8)


def write_tree(root: Path, tree: dict[tuple[str, ...], bytes], reverse: bool = False) -> Path:
    """Write ``tree`` under ``root`` (in reverse order when asked, with other times and modes)."""
    root.mkdir(parents=True)
    items = sorted(tree.items(), reverse=reverse)
    for parts, data in items:
        path = root.joinpath(*parts)
        if any(p.is_file() for p in [root.joinpath(*parts[:i]) for i in range(1, len(parts))]) or path.is_dir():
            continue  # a name used both as a file and as a folder: keep the first
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        os.utime(path, (12345 if reverse else 99999, 12345 if reverse else 99999))
        path.chmod(0o640 if reverse else 0o600)
    return root


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(tree=TREES)
def test_the_same_folder_packs_to_the_same_bytes(tmp_path_factory: pytest.TempPathFactory,
                                                 tree: dict[tuple[str, ...], bytes]) -> None:
    base = tmp_path_factory.mktemp("pack")
    first = write_tree(base / "one", tree)
    second = write_tree(base / "elsewhere" / "two", tree, reverse=True)
    if content_hash(first) != content_hash(second):
        return  # a file/folder name clash resolved differently: not the same folder
    packed = pack_bytes(first)
    assert packed == pack_bytes(second)
    unpacked = unpack(io.BytesIO(packed), base / "out")
    assert content_hash(unpacked.folder) == content_hash(first)


def test_packing_leaves_caches_out_and_refuses_symlinks(tmp_path: Path) -> None:
    bot = tmp_path / "bot"
    for name in ("bot.toml", "bot.py", ".git/HEAD", "__pycache__/x.pyc", "a.pyc", ".DS_Store", "node_modules/m.js",
                 ".venv/lib", ".svn/x", ".hg/x", ".mypy_cache/x", ".pytest_cache/x", "sub/keep.txt"):
        (bot / name).parent.mkdir(parents=True, exist_ok=True)
        (bot / name).write_text("x")
    (bot / "bot.py").chmod(0o700)
    with tarfile.open(fileobj=io.BytesIO(pack_bytes(bot))) as tar:
        members = tar.getmembers()
    assert [m.name for m in members] == ["bot.py", "bot.toml", "sub/keep.txt"]
    assert {(m.mtime, m.uid, m.gid, m.uname, m.gname) for m in members} == {(0, 0, 0, "", "")}
    assert [m.mode for m in members] == [0o755, 0o644, 0o644]
    packed = pack_bytes(bot)
    assert packed[4:8] == b"\0\0\0\0" and packed[3] & 0x08 == 0  # gzip: mtime 0, no file name
    (bot / "link").symlink_to("/etc/passwd")
    with pytest.raises(UnsafeMemberError, match="'link': a symlink"):
        pack_bytes(bot)


def refused(archive: bytes, tmp_path: Path, limits: ArchiveLimits = DEFAULT_LIMITS) -> ArchiveError:
    destination = tmp_path / "unpacked"
    with pytest.raises(ArchiveError) as caught:
        unpack(io.BytesIO(archive), destination, limits)
    assert not destination.exists()
    assert "\n" not in str(caught.value)
    return caught.value


def unsafe_extract(archive: bytes, destination: Path) -> None:
    """The negative control: what a plain ``tarfile`` extraction does with the archive."""
    destination.mkdir()
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(destination, filter="fully_trusted")


def test_a_good_archive_unpacks(tmp_path: Path) -> None:
    result = unpack(io.BytesIO(tar_gz([Entry("./", kind=tarfile.DIRTYPE), Entry("./sub/", kind=tarfile.DIRTYPE),
                                       *good_bot(), Entry("./sub/x.py", b"1", mode=0o777)])), tmp_path / "out")
    assert sorted(str(p.relative_to(result.folder)) for p in result.folder.rglob("*")) == [
        "bot.py", "bot.toml", "sub", "sub/x.py"]
    assert (result.folder / "sub" / "x.py").stat().st_mode & 0o777 == 0o755
    assert result.files == 3


def test_traversal_is_refused_and_works_without_the_check(tmp_path: Path) -> None:
    archive = tar_gz([*good_bot(), Entry("../escaped.txt", b"pwned")])
    assert str(refused(archive, tmp_path)) == "'../escaped.txt': a '..' in the path"
    assert not (tmp_path / "escaped.txt").exists()
    unsafe_extract(archive, tmp_path / "control")
    assert (tmp_path / "escaped.txt").read_bytes() == b"pwned"


def test_an_absolute_path_is_refused_and_works_without_the_check(tmp_path: Path) -> None:
    target = tmp_path / "absolute.txt"
    archive = tar_gz([*good_bot(), Entry(str(target), b"pwned")])
    assert "an absolute path" in str(refused(archive, tmp_path))
    assert not target.exists()
    unsafe_extract(archive, tmp_path / "control")
    assert target.read_bytes() == b"pwned"


def test_a_symlink_out_is_refused_and_works_without_the_check(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    archive = tar_gz([*good_bot(), Entry("escape", kind=tarfile.SYMTYPE, link=str(outside)),
                      Entry("escape/pwned.txt", b"pwned")])
    assert str(refused(archive, tmp_path)) == "'escape': a symlink; an upload holds plain files and folders only"
    assert not (outside / "pwned.txt").exists()
    unsafe_extract(archive, tmp_path / "control")
    assert (outside / "pwned.txt").read_bytes() == b"pwned"


def test_a_hard_link_out_is_refused_and_works_without_the_check(tmp_path: Path) -> None:
    secret = tmp_path / "host" / "secret"
    secret.parent.mkdir()
    secret.write_bytes(b"HOST SECRET")
    archive = tar_gz([*good_bot(), Entry("copied", kind=tarfile.LNKTYPE, link=str(secret))])
    assert "'copied': a hard link" in str(refused(archive, tmp_path))
    unsafe_extract(archive, tmp_path / "control")
    assert (tmp_path / "control" / "copied").read_bytes() == b"HOST SECRET"


@pytest.mark.parametrize(("kind", "what"), [(tarfile.CHRTYPE, "a device"), (tarfile.BLKTYPE, "a device"),
                                            (tarfile.FIFOTYPE, "a FIFO"), (tarfile.CONTTYPE, "an entry of type")])
def test_devices_and_fifos_are_refused(tmp_path: Path, kind: bytes, what: str) -> None:
    error = refused(tar_gz([*good_bot(), Entry("odd", kind=kind)]), tmp_path)
    assert isinstance(error, UnsafeMemberError)
    assert str(error).startswith(f"'odd': {what}")


def test_a_fifo_would_be_created_without_the_check(tmp_path: Path) -> None:
    unsafe_extract(tar_gz([Entry("pipe", kind=tarfile.FIFOTYPE)]), tmp_path / "control")
    assert (tmp_path / "control" / "pipe").is_fifo()


@pytest.mark.parametrize(("name", "problem"), [
    ("a\\b.py", "a backslash"), ("a\nb.py", "a control character"), ("bidi\x9b.py", "a control character"),
    ("a//b.py", "an empty or '.' part"), ("a/./b.py", "an empty or '.' part"),
    ("x" * 101, "a name longer than 100"), ("/".join(["d"] * 17), "nested deeper than 16"),
    ("/".join(["d" * 99] * 3), "a path longer than 240"), ("bad\udcff.py", "not UTF-8"),
])
def test_odd_names_are_refused(tmp_path: Path, name: str, problem: str) -> None:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz", format=tarfile.PAX_FORMAT, errors="surrogateescape") as tar:
        info = tarfile.TarInfo(name)
        tar.addfile(info, io.BytesIO(b""))
    error = refused(buffer.getvalue(), tmp_path)
    assert problem in str(error)
    assert "\n" not in str(error) and "\x9b" not in str(error)


def test_duplicates_and_clashes_are_refused(tmp_path: Path) -> None:
    assert "appears twice" in str(refused(tar_gz([*good_bot(), Entry("bot.py", b"again")]), tmp_path))
    assert "a folder with the name of a file" in str(refused(tar_gz([*good_bot(), Entry("bot.py/x", b"")]),
                                                             tmp_path))
    assert "a file with the name of a folder" in str(refused(tar_gz([Entry("d/x", b""), Entry("d", b"")]),
                                                             tmp_path))


def test_too_many_files_too_big_a_file_and_too_much_in_total(tmp_path: Path) -> None:
    many = [Entry(f"f{i}", b"") for i in range(DEFAULT_LIMITS.files + 1)]
    assert str(refused(tar_gz(many), tmp_path)) == "'f2000': more than 2000 files"
    assert str(refused(big_file_bomb(), tmp_path)) == "'bot.py': a file larger than 32 MB"
    small = ArchiveLimits(unpacked_bytes=1000, file_bytes=800)
    assert str(refused(tar_gz([Entry("a", bytes(600)), Entry("b", bytes(600))]), tmp_path, small)) == \
        "'b': unpacks to more than 1000 bytes"


@pytest.mark.parametrize("bomb", [pax_bomb, long_name_bomb])
def test_a_decompression_bomb_stops_at_the_cap_while_unpacking(tmp_path: Path, bomb: object) -> None:
    assert callable(bomb)
    archive: bytes = bomb()
    assert len(archive) < 1_200_000  # about a MiB on the wire, a GiB unpacked
    read = CountingFile(archive)
    with pytest.raises(TooLargeError, match="unpacks to more than 64 MB"):
        unpack(read, tmp_path / "out")
    assert read.position < len(archive) // 4  # stopped early: most of the upload never decompressed


def test_without_the_cap_tarfile_buffers_the_whole_bomb_header(tmp_path: Path) -> None:
    """Negative control: tarfile itself reads a PAX header whole before yielding any member."""
    tripwire = 2 * DEFAULT_LIMITS.stream_bytes
    decompressed = Tripwire(gzip.GzipFile(fileobj=io.BytesIO(pax_bomb())), tripwire)
    with pytest.raises(TrippedError), tarfile.open(fileobj=decompressed, mode="r|") as tar:
        tar.next()
    assert decompressed.count > tripwire


class CountingFile(io.BytesIO):
    """How far into the upload the reader got."""

    @property
    def position(self) -> int:
        return self.tell()


class TrippedError(Exception):
    """The negative control's tripwire: tarfile read past the bound."""


class Tripwire(io.RawIOBase):
    def __init__(self, source: gzip.GzipFile, limit: int) -> None:
        self.source = source
        self.limit = limit
        self.count = 0

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        data = self.source.read(size)
        self.count += len(data)
        if self.count > self.limit:
            raise TrippedError
        return data


def test_an_upload_over_the_size_limit_is_refused(tmp_path: Path) -> None:
    archive = tar_gz([*good_bot(), Entry("noise", hashlib.sha256(b"x").digest() * 100)])
    error = refused(archive, tmp_path, ArchiveLimits(upload_bytes=len(archive) - 1))
    assert str(error) == f"an upload larger than {len(archive) - 1} bytes"


@pytest.mark.parametrize("archive", [b"", b"hello, world", gzip.compress(b"not a tar" * 100, mtime=0),
                                     tar_gz(good_bot())[:-30], b"\x1f\x8b\x08" + b"\0" * 20],
                         ids=["empty", "text", "gzip-not-tar", "cut-short", "gzip-header-only"])
def test_not_an_archive(tmp_path: Path, archive: bytes) -> None:
    error = refused(archive, tmp_path)
    assert isinstance(error, NotAnArchiveError), error
    assert str(error).startswith("not ")


def test_nothing_is_left_behind_after_a_refusal(tmp_path: Path) -> None:
    archive = tar_gz([*good_bot(), Entry("sub/ok.py", b"1"), Entry("../x", b"")])
    refused(archive, tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == []
    shutil.rmtree(tmp_path, ignore_errors=True)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(flips=st.lists(st.tuples(st.integers(min_value=0), st.integers(min_value=0, max_value=255)), min_size=1,
                      max_size=8))
def test_a_damaged_archive_is_an_archive_error_never_anything_else(tmp_path_factory: pytest.TempPathFactory,
                                                                   flips: list[tuple[int, int]]) -> None:
    """Random bytes changed in a good tar (then compressed): unpacked, or one ``ArchiveError``."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for entry in [*good_bot(), Entry("sub/ünï.py", b"x" * 700)]:
            info = tarfile.TarInfo(entry.name)
            info.size = len(entry.data)
            tar.addfile(info, io.BytesIO(entry.data))
    raw = bytearray(buffer.getvalue())
    for at, value in flips:
        raw[at % len(raw)] = value
    destination = tmp_path_factory.mktemp("fuzz") / "out"
    try:
        unpack(io.BytesIO(gzip.compress(bytes(raw))), destination)
    except ArchiveError as exc:
        assert "\n" not in str(exc)
        assert not destination.exists()
