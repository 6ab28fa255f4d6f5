"""Hostile bot archives for the upload tests: each a tar.gz built in memory, as an attacker would.

``bomb`` is small on the wire and huge unpacked without costing the test the time to compress a
gigabyte: one deflate segment of a MiB of zeros (after a full flush the compressor's state is
reset, so the segment can be repeated) sent ``n`` times, inside a real gzip frame with the right
CRC and length.
"""

from __future__ import annotations

import io
import struct
import tarfile
import zlib
from collections.abc import Sequence
from dataclasses import dataclass

MANIFEST = b'name = "%s"\nversion = "1.0"\nauthor = "t"\ncommand = ["python", "bot.py"]\n'
MIB = 1 << 20


@dataclass(frozen=True)
class Entry:
    """One tar member: ``kind`` a tarfile type, ``data`` for a file, ``link`` for links."""

    name: str
    data: bytes = b""
    kind: bytes = tarfile.REGTYPE
    link: str = ""
    mode: int = 0o644


def tar_gz(entries: Sequence[Entry]) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz", format=tarfile.GNU_FORMAT) as tar:
        for entry in entries:
            info = tarfile.TarInfo(entry.name)
            info.type = entry.kind
            info.mode = entry.mode
            info.linkname = entry.link
            if entry.kind == tarfile.CHRTYPE:
                info.devmajor, info.devminor = 1, 3  # /dev/null's numbers
            if entry.kind in (tarfile.REGTYPE, tarfile.AREGTYPE):
                info.size = len(entry.data)
                tar.addfile(info, io.BytesIO(entry.data))
            else:
                tar.addfile(info)
    return buffer.getvalue()


def good_bot(name: str = "uploaded", code: bytes = b"# a bot\n") -> list[Entry]:
    return [Entry("bot.toml", MANIFEST % name.encode()), Entry("bot.py", code)]


def header(info: tarfile.TarInfo) -> bytes:
    return info.tobuf(format=tarfile.USTAR_FORMAT)


def gzip_of_zeros(prefix: bytes, zeros_mib: int, suffix: bytes = b"") -> bytes:
    """A gzip member of ``prefix``, then ``zeros_mib`` MiB of zero bytes, then ``suffix``."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    head = compressor.compress(prefix) + compressor.flush(zlib.Z_FULL_FLUSH)
    zero = bytes(MIB)
    segment = compressor.compress(zero) + compressor.flush(zlib.Z_FULL_FLUSH)
    tail = compressor.compress(suffix) + compressor.flush(zlib.Z_FINISH)
    crc = zlib.crc32(prefix)
    for _ in range(zeros_mib):
        crc = zlib.crc32(zero, crc)
    crc = zlib.crc32(suffix, crc)
    size = (len(prefix) + zeros_mib * MIB + len(suffix)) & 0xFFFFFFFF
    gzip_header = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\xff"
    return gzip_header + head + segment * zeros_mib + tail + struct.pack("<II", crc, size)


def pax_bomb(mib: int = 1024) -> bytes:
    """A PAX extended header of ``mib`` MiB (tarfile reads a PAX header whole before the member
    it describes): about a MiB on the wire."""
    info = tarfile.TarInfo("././@PaxHeader")
    info.type = tarfile.XHDTYPE
    info.size = mib * MIB
    return gzip_of_zeros(header(info), mib)


def long_name_bomb(mib: int = 1024) -> bytes:
    """The same through a GNU long-name header (type ``L``)."""
    info = tarfile.TarInfo("././@LongLink")
    info.type = tarfile.GNUTYPE_LONGNAME
    info.size = mib * MIB
    return gzip_of_zeros(header(info), mib)


def big_file_bomb(mib: int = 1024) -> bytes:
    """One member whose header says (truthfully) ``mib`` MiB of zeros."""
    info = tarfile.TarInfo("bot.py")
    info.size = mib * MIB
    return gzip_of_zeros(header(info), mib)
