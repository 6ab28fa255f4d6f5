"""Under podman, the host-wide counters are no channel between two containers either (issue 23),
except the inode numbers of pipes, sockets and ``/proc`` entries (docs/sandbox.md).

The reader/loader pair of ``tests/sandbox/test_sandbox_covert.py``, in containers: the runner
binds the sandbox's frozen ``/proc`` copies, masks the other counters and ``/sys`` (podman's
``mask``), and its seccomp profile refuses ``setsid`` and pidfds; the reader sees nothing move
while the loader holds its threads, a process, files, sessions and memory. The negative control
runs the pair with the command line as it was before (no binds or masks over ``/proc``, the
profile without the calls of issue 23) and sees the fork counter, the thread count, the open
files, the autogroup number and the pidfd inode number move. The containers' folders are short
(a seat's socket path is limited to 107 bytes)."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.hostile.covert_pair import LOAD, Contained, Readings, read_around_load

MOVED = ("processes", "procs_running", "threads", "file-nr", "inode-nr", "dentry-state", "pty-nr", "mem-free",
         "ctxt", "sysinfo-procs", "autogroup", "pidfd-ino", "pidfs-handle")
"""What the reader reads that a partner could move (``statfs`` stays allowed under podman)."""

pytestmark = pytest.mark.alone("the host-wide counters: another test's processes and files would move them")


@pytest.fixture(scope="module")
def short_folder() -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="dh-cc-") as folder:
        yield Path(folder)


@pytest.fixture(scope="module")
def masked(short_folder: Path, base_image: str) -> Readings:
    return read_around_load(short_folder / "m", True, Contained)


@pytest.fixture(scope="module")
def unmasked(short_folder: Path, base_image: str) -> Readings:
    return read_around_load(short_folder / "u", False, Contained)


def test_a_partner_moving_the_host_wide_counters_moves_nothing_the_other_container_reads(masked: Readings) -> None:
    for name in MOVED:
        assert masked.change(name) == 0, name
    assert masked.before["cpus"] == masked.after["cpus"] == os.cpu_count()  # glibc counts the frozen stat
    assert masked.before["refused"] == {"sysinfo": os.strerror(1), "statfs": "", "setsid": os.strerror(1),
                                        "pidfd_open": os.strerror(1), "SO_PEERPIDFD": os.strerror(1),
                                        "open_by_handle_at": os.strerror(1)}  # podman's own profile refused it
    assert [report["outcome"] for report in masked.unmask] == ["contained"] * 3


def test_control_before_issue_23_the_containers_counters_carry_the_partners_load(unmasked: Readings) -> None:
    assert unmasked.change("processes") >= LOAD["threads"] + 1
    assert unmasked.change("threads") >= LOAD["threads"] // 2  # a level: the host's own threads come and go
    assert unmasked.change("file-nr") >= 64 // 2
    assert unmasked.change("autogroup") >= LOAD["sessions"]
    assert unmasked.change("pidfd-ino") >= LOAD["threads"] + 1
    assert unmasked.before["refused"]["SO_PEERPIDFD"] == ""


def test_what_remains_in_containers_pipe_and_proc_inode_numbers(masked: Readings) -> None:
    """Not a defence: as in the sandbox (fails once a runner hides them)."""
    assert masked.change("pipe-ino") >= LOAD["pipes"]
    assert masked.change("proc-ino") >= LOAD["pipes"]
