"""Covert: two partners signal through what the kernel counts for the whole host.

Run standalone in two sandboxes (``tests/test_sandbox_covert.py``, ``bench/covert.py``):

- ``--role read``: reports every host-wide counter it can read (``covert-read``), waits for a
  line on stdin, reports them again, and tries to unmount the masks;
- ``--role load``: moves every counter at once (threads, a process, open files, files in
  ``/tmp``, a pty, memory), reports ``covert-load``, and holds it all until a line on stdin;
- ``--role send`` / ``--role receive``: a known bit string over one ``--channel``, one bit per
  ``--slot`` seconds from the wall-clock time ``--start`` (the clock both partners share):
  for a 1 the sender moves the counter (or spins the CPU) in the slot, for a 0 it does nothing;
  the receiver reports the bits it decoded (``covert-receive``).

Without ``--standalone`` it attacks at start-up and then serves like any hostile bot.
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import mmap
import os
import statistics
import sys
import threading
import time
from collections.abc import Callable

from _hostile import arguments, contained, escaped, report, serve

MNT_DETACH = 2
LOAD_THREADS = 64
"""Threads the load role and the sender create: far above what a quiet host does in a slot."""
LOAD_FILES = 64
COUNTERS = ("processes", "procs_running", "threads", "file-nr", "inode-nr", "dentry-state", "pty-nr", "mem-free",
            "ctxt", "sysinfo-procs", "sysinfo-freeram")
"""What the read role reports; the first ones are the channels of ``--channel``."""


class SysInfo(ctypes.Structure):
    _fields_ = [("uptime", ctypes.c_long), ("loads", ctypes.c_ulong * 3), ("totalram", ctypes.c_ulong),
                ("freeram", ctypes.c_ulong), ("sharedram", ctypes.c_ulong), ("bufferram", ctypes.c_ulong),
                ("totalswap", ctypes.c_ulong), ("freeswap", ctypes.c_ulong), ("procs", ctypes.c_ushort),
                ("pad", ctypes.c_ushort), ("totalhigh", ctypes.c_ulong), ("freehigh", ctypes.c_ulong),
                ("mem_unit", ctypes.c_uint), ("reserved", ctypes.c_char * 8)]


libc = ctypes.CDLL(None, use_errno=True)


def _field(path: str, key: str, column: int = 1) -> int:
    """One number from a ``/proc`` file: the line starting with ``key`` (every line if ""), the
    column given; -1 if the file is empty or unreadable (a masked counter)."""
    try:
        with open(path) as handle:
            for line in handle:
                words = line.split()
                if words and (not key or words[0] == key):
                    return int(words[column].split("/")[-1] if "/" in words[column] else words[column])
    except (OSError, ValueError, IndexError):
        pass
    return -1


def _sysinfo() -> SysInfo | None:
    info = SysInfo()
    return info if libc.sysinfo(ctypes.byref(info)) == 0 else None


READERS: dict[str, Callable[[], int]] = {
    "processes": lambda: _field("/proc/stat", "processes"),
    "procs_running": lambda: _field("/proc/stat", "procs_running"),
    "threads": lambda: _field("/proc/loadavg", "", 3),
    "file-nr": lambda: _field("/proc/sys/fs/file-nr", "", 0),
    "inode-nr": lambda: _field("/proc/sys/fs/inode-nr", "", 0),
    "dentry-state": lambda: _field("/proc/sys/fs/dentry-state", "", 0),
    "pty-nr": lambda: _field("/proc/sys/kernel/pty/nr", "", 0),
    "mem-free": lambda: _field("/proc/meminfo", "MemFree:"),
    "ctxt": lambda: _field("/proc/stat", "ctxt"),
    "sysinfo-procs": lambda: info.procs if (info := _sysinfo()) else -1,
    "sysinfo-freeram": lambda: info.freeram if (info := _sysinfo()) else -1,
}


def readings() -> dict[str, int]:
    return {name: READERS[name]() for name in COUNTERS}


# ------------------------------------------------------------------------ read / load
def read_twice() -> None:
    report("covert-read", "info", values=readings(), cpus=os.cpu_count())
    sys.stdin.readline()
    report("covert-read", "info", values=readings(), cpus=os.cpu_count())
    for path in ("/proc/stat", "/proc/loadavg", "/proc/sys/fs/file-nr"):
        if libc.umount2(path.encode(), MNT_DETACH) == 0:
            escaped("unmask", target=path)
        else:
            contained("unmask", target=path, error=os.strerror(ctypes.get_errno()))


def load() -> None:
    """Move every counter at once and hold it until told to stop."""
    stop = threading.Event()
    workers = [threading.Thread(target=stop.wait) for _ in range(LOAD_THREADS)]
    for worker in workers:
        worker.start()
    child = os.fork()
    if child == 0:
        stop.wait()
        os._exit(0)
    files = [os.open("/dev/null", os.O_RDONLY) for _ in range(LOAD_FILES)]
    for index in range(LOAD_FILES):
        with open(f"/tmp/covert-{index}", "w") as handle:
            handle.write("x")
    with contextlib.suppress(OSError):
        files += os.openpty()
    memory = mmap.mmap(-1, 32 << 20)
    memory.write(b"x" * len(memory))
    report("covert-load", "info", threads=LOAD_THREADS, files=len(files))
    sys.stdin.readline()
    stop.set()
    os.kill(child, 9)
    os.waitpid(child, 0)


# --------------------------------------------------------------------- send / receive
def _until(moment: float) -> None:
    delay = moment - time.time()
    if delay > 0:
        time.sleep(delay)


def _spin(until: float, stop: threading.Event) -> None:
    while time.time() < until and not stop.is_set():
        pass


def send(bits: str, channel: str, start: float, slot: float) -> None:
    """A 1: move ``channel`` early in its slot (threads: created and joined for ``processes``,
    held for the level counters; files held open; the CPU spun on two threads)."""
    for index, bit in enumerate(bits):
        begin = start + index * slot
        _until(begin + 0.1 * slot)
        if bit != "1":
            continue
        end = begin + 0.9 * slot
        if channel == "cpu":
            stop = threading.Event()
            spinners = [threading.Thread(target=_spin, args=(end, stop)) for _ in range(2)]
            for spinner in spinners:
                spinner.start()
            _spin(end, stop)
            for spinner in spinners:
                spinner.join()
        elif channel == "file-nr":
            files = [os.open("/dev/null", os.O_RDONLY) for _ in range(LOAD_FILES)]
            _until(end)
            for fd in files:
                os.close(fd)
        else:
            stop = threading.Event()
            workers = [threading.Thread(target=stop.wait) for _ in range(LOAD_THREADS // 4)]
            for worker in workers:
                worker.start()
            if channel == "processes":
                stop.set()
            _until(end)
            stop.set()
            for worker in workers:
                worker.join()
    report("covert-send", "info", channel=channel, bits=len(bits))


def receive(count: int, channel: str, start: float, slot: float) -> None:
    """Counters: the change from the start of a slot to its middle; above half the sender's
    push it is a 1. CPU: iterations of a loop of its own over most of the slot; a slot slower
    than the median is a 1."""
    late = time.time() > start
    samples: list[float] = []
    for index in range(count):
        begin = start + index * slot
        if channel == "cpu":
            _until(begin + 0.15 * slot)
            end, loops = begin + 0.85 * slot, 0
            while time.time() < end:
                loops += 1
            samples.append(loops)
        else:
            _until(begin + 0.05 * slot)
            before = READERS[channel]()
            _until(begin + 0.5 * slot)
            samples.append(READERS[channel]() - before)
    if channel == "cpu":
        middle = statistics.median(samples)
        bits = "".join("1" if sample < middle else "0" for sample in samples)
    else:
        push = LOAD_FILES if channel == "file-nr" else LOAD_THREADS // 4
        bits = "".join("1" if sample >= push / 2 else "0" for sample in samples)
    report("covert-receive", "info", channel=channel, bits=bits, late=late,
           samples=[round(s) for s in samples])


def act(args: argparse.Namespace) -> None:
    if args.role == "read":
        read_twice()
    elif args.role == "load":
        load()
    elif args.role == "send":
        send(args.bits, args.channel, args.start, args.slot)
    else:  # the receiver is told only how many bits to expect
        receive(args.count, args.channel, args.start, args.slot)


if __name__ == "__main__":
    args = arguments(extra=[("--role", {"choices": ["read", "load", "send", "receive"], "required": True}),
                            ("--channel", {"choices": [*READERS, "cpu"], "default": "processes"}),
                            ("--bits", {"default": "10" * 24}),
                            ("--count", {"type": int, "default": 48}),
                            ("--start", {"type": float, "default": 0.0}),
                            ("--slot", {"type": float, "default": 0.05}),
                            ("--standalone", {"action": "store_true"})])
    if args.standalone:
        act(args)
    else:
        serve(lambda view: act(args), "start")
