"""The host-wide counters under ``/proc`` are no channel between two sandboxes.

A reader sandbox reads every counter, a loader sandbox then moves them all at once (threads, a
process, open files, files, a pty, memory) and says so on its pipe, and the reader reads again:
under the masks nothing it reads from ``/proc`` has changed. The negative control runs the
same pair with the masks taken out of the command line and sees the fork counter jump. No
sleeps: each step waits on the other's pipe. The bit-rate figures are ``bench/covert.py``'s.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from arena.sandbox.bwrap import EMPTIED_PROC, FROZEN_PROC, freeze_proc
from tests.hostile.covert_pair import Sandboxed
from tests.hostile.harness import sandbox_problem

pytestmark = pytest.mark.skipif(bool(sandbox_problem()), reason=sandbox_problem() or "sandbox available")

PROC_COUNTERS = ("processes", "procs_running", "threads", "file-nr", "inode-nr", "dentry-state", "pty-nr",
                 "mem-free", "ctxt")
"""What the covert bot reads from ``/proc``; ``sysinfo(2)`` is read too, but is no file."""
LOAD_THREADS = 64


def read_around_load(tmp_path: Path, masked: bool) -> tuple[dict[str, Any], dict[str, Any], list[dict[str, Any]]]:
    """(reader's first report, its second, its unmask reports) with the loader's load in between."""
    reader = Sandboxed(tmp_path / "read", "--role", "read", masked=masked)
    loader: Sandboxed | None = None
    try:
        before = reader.next_report("covert-read")
        loader = Sandboxed(tmp_path / "load", "--role", "load", masked=masked)
        assert loader.next_report("covert-load")["threads"] == LOAD_THREADS
        reader.go()
        after = reader.next_report("covert-read")
        unmask = [reader.next_report("unmask") for _ in range(3)]
        loader.go()
        assert loader.process.wait(timeout=60) == 0
        return before, after, unmask
    finally:
        reader.close()
        if loader is not None:
            loader.close()


def test_a_partner_moving_the_host_wide_counters_moves_nothing_the_other_reads(tmp_path: Path) -> None:
    before, after, unmask = read_around_load(tmp_path, masked=True)
    for name in PROC_COUNTERS:
        assert before["values"][name] == after["values"][name], name
    assert before["cpus"] == after["cpus"] and before["cpus"] > 0  # glibc counts CPUs in the frozen stat
    assert [report["outcome"] for report in unmask] == ["contained"] * 3


def test_control_unmasked_the_fork_counter_carries_the_partners_threads(tmp_path: Path) -> None:
    before, after, unmask = read_around_load(tmp_path, masked=False)
    assert after["values"]["processes"] - before["values"]["processes"] >= LOAD_THREADS + 1
    assert [report["outcome"] for report in unmask] == ["contained"] * 3  # nothing was mounted there


def test_the_stand_ins_are_frozen_copies_or_empty_and_only_of_files_the_kernel_has(tmp_path: Path) -> None:
    proc = tmp_path / "proc"
    (proc / "sys" / "fs").mkdir(parents=True)
    (proc / "stat").write_text("cpu 1 2 3\nprocesses 7\n")
    (proc / "sys" / "fs" / "file-nr").write_text("5 0 100\n")
    masks = dict((dest, source) for source, dest in freeze_proc(tmp_path / "masks", proc))
    assert set(masks) == {"/proc/stat", "/proc/sys/fs/file-nr"}
    assert Path(masks["/proc/stat"]).read_text() == "cpu 1 2 3\nprocesses 7\n"
    assert Path(masks["/proc/sys/fs/file-nr"]).read_bytes() == b""
    assert not set(FROZEN_PROC) & set(EMPTIED_PROC)
