"""The scratch folders a killed referee leaves in the temporary directory are swept by the next
match, and nothing else is: not a live process's folder, not another user's, not a file or a
link that only looks like one, not what a link inside one points to."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from arena.referee.scratch import ScratchKind, make_scratch, process_exists, scratch_prefix, sweep_stale

KILLED_REFEREE = """
import os, signal, sys, tempfile
from pathlib import Path
tempfile.tempdir = sys.argv[1]
from arena.referee.scratch import ScratchKind, make_scratch
for kind in ScratchKind:
    folder = make_scratch(kind)
    (folder / "bot.sock").write_bytes(b"")
print(os.getpid(), flush=True)
os.kill(os.getpid(), signal.SIGKILL)
"""
"""A process that makes one scratch folder of each kind and is killed before any clean-up."""


def killed_referee(temp: Path) -> int:
    """Run ``KILLED_REFEREE`` with ``temp`` as its temporary directory; its process id."""
    done = subprocess.run([sys.executable, "-c", KILLED_REFEREE, str(temp)], capture_output=True, text=True,
                          timeout=60, check=False)
    assert done.returncode == -signal.SIGKILL, done.stderr
    return int(done.stdout)


def test_a_killed_referees_folders_stay_until_the_next_sweep_removes_them(tmp_path: Path) -> None:
    pid = killed_referee(tmp_path)
    left = sorted(tmp_path.iterdir())
    assert [p.name.split("-")[1] for p in left] == sorted(kind.value for kind in ScratchKind)  # the leak
    assert all(p.name.startswith(f"dehla-{p.name.split('-')[1]}-{pid}-") for p in left)
    assert not process_exists(pid)
    assert sorted(sweep_stale(tmp_path)) == left
    assert list(tmp_path.iterdir()) == []


def test_a_live_processs_folders_are_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    mine = make_scratch(ScratchKind.SOCKETS)
    sleeper = subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.read()"], stdin=subprocess.PIPE)
    try:
        theirs = tmp_path / f"dehla-relay-{sleeper.pid}-abc"
        theirs.mkdir()
        assert sweep_stale(tmp_path) == []
        assert mine.is_dir() and theirs.is_dir()
    finally:
        assert sleeper.stdin is not None
        sleeper.stdin.close()
        sleeper.wait(timeout=30)
    assert sweep_stale(tmp_path) == [theirs]  # its process gone, the next sweep takes it
    assert mine.is_dir()


def a_dead_pid() -> int:
    """A process id no process has now (a child's, reaped)."""
    child = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                           text=True, check=True, timeout=60)
    pid = int(child.stdout)
    assert not process_exists(pid)
    return pid


def test_only_this_users_directories_with_a_scratch_name_are_removed(tmp_path: Path) -> None:
    if os.geteuid() != 0:
        pytest.fail("needs root, to make a folder of another user (CI runs as root)")
    pid = a_dead_pid()
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "keep.txt").write_text("precious")
    link = tmp_path / f"dehla-sockets-{pid}-link"
    link.symlink_to(victim, target_is_directory=True)
    plain_file = tmp_path / f"dehla-relay-{pid}-file"
    plain_file.write_text("not a folder")
    foreign = tmp_path / f"dehla-job-{pid}-foreign"
    foreign.mkdir()
    os.chown(foreign, 12345, 12345)
    unnamed = tmp_path / f"dehla-{pid}-old-style"
    unnamed.mkdir()
    stale = tmp_path / f"dehla-seat-{pid}-stale"
    stale.mkdir()
    (stale / "inside").symlink_to(victim, target_is_directory=True)  # a link inside: removed, not followed

    assert sweep_stale(tmp_path) == [stale]
    assert (victim / "keep.txt").read_text() == "precious"
    assert link.is_symlink() and plain_file.is_file() and foreign.is_dir() and unnamed.is_dir()


def test_the_prefix_names_the_kind_and_this_process() -> None:
    assert scratch_prefix(ScratchKind.JOB, "m000001.a1-") == f"dehla-job-{os.getpid()}-m000001.a1-"
    assert process_exists(os.getpid()) and process_exists(1)
    assert not process_exists(2**40)  # beyond any process id
