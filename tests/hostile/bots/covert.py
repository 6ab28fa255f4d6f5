"""Covert: two partners signal through what the kernel counts for the whole host.

Run standalone in two sandboxes (``tests/sandbox/test_sandbox_covert.py``, ``bench/covert.py``):

- ``--role read``: reports every host-wide counter it can read (``covert-read``), from ``/proc``
  and from calls (``sysinfo``, ``statfs`` of the folders it sees, the inode number of a new
  pipe, of a new ``/proc`` entry and of a pidfd, the autogroup of a new session), waits for
  a line on stdin, reports them again, and tries to unmount the masks;
- ``--role load``: moves every counter at once (threads, a process, open files, files in
  ``/tmp``, a pty, memory, pipes, new sessions, 4 MiB on stdout: the referee's log on the host's disk),
  reports ``covert-load``, and holds it all until a line on stdin;
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
import errno
import mmap
import os
import socket
import statistics
import struct
import sys
import threading
import time
from collections.abc import Callable

from _hostile import arguments, contained, escaped, report, serve

MNT_DETACH = 2
SO_PEERPIDFD = 77
FD_PIDFS_ROOT = -10002
FILEID_KERNFS = 0xFE
PIDFS_SEARCH = 1 << 22
"""How far up the pidfs-handle reader looks for its child's inode number (pids on the host)."""
LOAD_THREADS = 64
"""Threads the load role and the sender create: far above what a quiet host does in a slot."""
LOAD_FILES = 64
LOAD_PIPES = 8192
"""Pipes the load role and the sender create (and close): eight of the kernel's batches of
inode numbers (``get_next_ino`` hands them out to each CPU 1024 at a time)."""
SEND_PIPES = 2048
"""Pipes the sender creates for a 1: two batches, about 60 ms of a busy CPU."""
INO_BATCH = 1024
LOG_BLOCK = 4096
LOG_BLOCKS = 1024
"""What the load role writes on stdout (4 MiB, under its 8 MiB file-size limit: far above what
the other jobs on a host write or free meanwhile; the referee caps a log at 256 KiB, 64
blocks, which is still more than a hand)."""
SEEN_FOLDERS = ("/", "/usr", "/bot", sys.prefix)
"""Folders bound from the host's filesystems, whose free blocks ``statfs`` would show."""
COUNTERS = ("processes", "procs_running", "threads", "file-nr", "inode-nr", "dentry-state", "pty-nr", "mem-free",
            "ctxt", "sysinfo-procs", "sysinfo-freeram", "sysinfo-load", "statfs-free", "statfs-inodes",
            "autogroup", "pidfd-ino", "pidfs-handle")
"""What the read role reports and the sandbox hides (-1: refused or empty)."""
REMAINING = ("pipe-ino", "proc-ino")
"""What it reports that the sandbox cannot hide: the kernel's one counter of inode numbers for
pipes, sockets and ``/proc`` entries, shown by ``fstat`` of any new pipe or socket and by
``stat`` of any ``/proc`` entry looked up for the first time."""
LOAD_SESSIONS = 64
"""New sessions the load role makes (each a new autogroup, numbered host-wide)."""
SEND_SESSIONS = 8
"""New sessions the sender makes for a 1 (the receiver's own reading makes one more)."""


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
        return -1  # masked (empty or unreadable): what the receiver must see under the sandbox
    return -1


def _sysinfo() -> SysInfo | None:
    info = SysInfo()
    return info if libc.sysinfo(ctypes.byref(info)) == 0 else None


def _statfs(column: str) -> int:
    """The sum of ``column`` (free blocks or inodes) over the host filesystems it sees."""
    try:
        found = {(result := os.statvfs(folder)).f_fsid: getattr(result, column)
                 for folder in SEEN_FOLDERS if os.path.exists(folder)}
    except OSError:
        return -1
    return sum(found.values())


def _pipe_ino() -> int:
    r, w = os.pipe()
    try:
        return os.fstat(r).st_ino
    finally:
        os.close(r)
        os.close(w)


def _proc_ino() -> int:
    """A new ``/proc`` inode, no pipe or socket: a fresh descriptor's entry in ``/proc/self/fd``
    (looked up once it is closed, the entry is dropped, so the next one is new again)."""
    fd = os.open("/dev/null", os.O_RDONLY)
    try:
        return os.stat(f"/proc/self/fd/{fd}", follow_symlinks=False).st_ino
    finally:
        os.close(fd)
        with contextlib.suppress(FileNotFoundError):
            os.stat(f"/proc/self/fd/{fd}", follow_symlinks=False)


def _global_ino(new_inode: Callable[[], int] = _pipe_ino) -> int:
    """The host-wide counter behind pipe, socket and ``/proc`` inode numbers (``get_next_ino``):
    a CPU's first number from a fresh batch (after using up what is left of its batch) is the
    shared counter, whatever the other CPUs took in between; one batch a reading is this bot's own."""
    for _ in range(2 * INO_BATCH):
        ino = new_inode()
        if ino % INO_BATCH == 1:
            return ino
    return -1


def _in_child(probe: Callable[[], int]) -> int:
    """``probe`` run in a forked child, its answer sent back on a pipe (a failed call: minus its
    errno, -1 for EPERM)."""
    r, w = os.pipe()
    child = os.fork()
    if child == 0:
        try:
            value = probe()
        except OSError as exc:
            value = -(exc.errno or 1)
        os.write(w, str(value).encode())
        os._exit(0)
    os.close(w)
    with os.fdopen(r) as answer:
        text = answer.read()
    os.waitpid(child, 0)
    return int(text or -1)


def _new_session() -> int:
    """A new session (a child's ``setsid``) is a new autogroup, numbered from one counter for the
    whole host; ``/proc/self/autogroup`` shows the number."""
    os.setsid()
    with open("/proc/self/autogroup") as handle:
        return int(handle.read().split()[0].rsplit("-", 1)[1])


def _autogroup() -> int:
    return _in_child(_new_session)


def _pidfd_ino() -> int:
    """A pidfd's inode number is the host's count of pids allocated so far (pidfs): the fork
    counter of ``/proc/stat`` by another way."""
    child = os.fork()
    if child == 0:
        os._exit(0)
    try:
        fd = os.pidfd_open(child)
    except OSError:
        return -1
    finally:
        os.waitpid(child, 0)
    try:
        return os.fstat(fd).st_ino
    finally:
        os.close(fd)


class _PidfsHandles:
    """A pidfd's inode number without ``pidfd_open``: a pidfs file handle is just that number, and
    ``open_by_handle_at(FD_PIDFS_ROOT, ...)`` opens it for a process of its own pid namespace
    (others' are ESTALE). So probing numbers upwards from the last one found finds its new
    child's, and the gap is every pid the host allocated since."""

    def __init__(self) -> None:
        self.last = 0
        self.handle = ctypes.create_string_buffer(16)

    def open(self, ino: int) -> int:
        struct.pack_into("=IiQ", self.handle, 0, 8, FILEID_KERNFS, ino)
        return int(libc.open_by_handle_at(FD_PIDFS_ROOT, self.handle, os.O_RDONLY))

    def child_ino(self) -> int:
        r, w = os.pipe()
        child = os.fork()
        if child == 0:
            os.close(w)
            os.read(r, 1)
            os._exit(0)
        os.close(r)
        try:
            return self._find(child)
        finally:
            os.close(w)
            os.waitpid(child, 0)

    def _find(self, child: int) -> int:
        ctypes.set_errno(0)
        for ino in range(self.last + 1, self.last + PIDFS_SEARCH):
            fd = self.open(ino)
            if fd < 0:
                if ctypes.get_errno() != errno.ESTALE:
                    return -ctypes.get_errno()  # refused: -1 for EPERM
                continue
            try:
                with open(f"/proc/self/fdinfo/{fd}") as info:
                    pid = next((int(line.split()[1]) for line in info if line.startswith("Pid:")), -1)
            finally:
                os.close(fd)
            if pid == child:
                self.last = ino
                return ino
        return -2


PIDFS = _PidfsHandles()


def _setsid() -> int:
    os.setsid()
    return 0


def _sessions(count: int) -> None:
    """``count`` new sessions (autogroups), one a child."""
    for _ in range(count):
        _in_child(_setsid)


def _pidfd_errno() -> int:
    try:
        os.close(os.pidfd_open(os.getpid()))
    except OSError as exc:
        return exc.errno or 0
    return 0


def _peer_pidfd_errno() -> int:
    """``getsockopt(SO_PEERPIDFD)``: a pidfd of a unix socket's peer (here itself), another way
    to a pidfd's inode number."""
    left, right = socket.socketpair()
    try:
        fd = left.getsockopt(socket.SOL_SOCKET, SO_PEERPIDFD)
    except OSError as exc:
        return exc.errno or 0
    finally:
        left.close()
        right.close()
    os.close(fd)
    return 0


def _handle_errno() -> int:
    """``open_by_handle_at`` of a pidfs handle: ESTALE (no such process of its own) is allowed."""
    ctypes.set_errno(0)
    fd = PIDFS.open(1)
    if fd >= 0:
        os.close(fd)
        return 0
    return 0 if ctypes.get_errno() == errno.ESTALE else ctypes.get_errno()


def refusals() -> dict[str, str]:
    """The errors of the calls that read host-wide counters ("" for a call that answered)."""
    out = {}
    for name, call in (("sysinfo", lambda: libc.sysinfo(ctypes.byref(SysInfo()))),
                       ("statfs", lambda: libc.statfs(b"/usr", ctypes.create_string_buffer(512)))):
        ctypes.set_errno(0)
        out[name] = "" if call() == 0 else os.strerror(ctypes.get_errno())
    for name, error in (("setsid", -min(0, _in_child(_setsid))), ("pidfd_open", _pidfd_errno()),
                        ("SO_PEERPIDFD", _peer_pidfd_errno()), ("open_by_handle_at", _handle_errno())):
        out[name] = os.strerror(error) if error else ""
    return out


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
    "sysinfo-load": lambda: info.loads[0] if (info := _sysinfo()) else -1,
    "statfs-free": lambda: _statfs("f_bfree"),
    "statfs-inodes": lambda: _statfs("f_ffree"),
    "autogroup": _autogroup,
    "pidfd-ino": _pidfd_ino,
    "pidfs-handle": PIDFS.child_ino,
    "pipe-ino": _global_ino,
    "proc-ino": lambda: _global_ino(_proc_ino),
}


def readings() -> dict[str, int]:
    return {name: READERS[name]() for name in (*COUNTERS, *REMAINING)}


# ------------------------------------------------------------------------ read / load
def read_twice() -> None:
    report("covert-read", "info", values=readings(), cpus=os.cpu_count(), refused=refusals())
    sys.stdin.readline()
    report("covert-read", "info", values=readings(), cpus=os.cpu_count(), refused=refusals())
    for path in ("/proc/stat", "/proc/loadavg", "/proc/sys/fs/file-nr"):
        if libc.umount2(path.encode(), MNT_DETACH) == 0:
            escaped("unmask", target=path)
        else:
            contained("unmask", target=path, error=os.strerror(ctypes.get_errno()))


def load() -> None:
    """Move every counter at once and hold it until told to stop."""
    stop = threading.Event()
    workers = [threading.Thread(target=stop.wait, daemon=True) for _ in range(LOAD_THREADS)]
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
    for _ in range(LOAD_PIPES):
        _pipe_ino()
    _sessions(LOAD_SESSIONS)
    for _ in range(LOG_BLOCKS):
        sys.stdout.write("x" * (LOG_BLOCK - 1) + "\n")
    sys.stdout.flush()
    report("covert-load", "info", threads=LOAD_THREADS, files=len(files), pipes=LOAD_PIPES,
           sessions=LOAD_SESSIONS, log_bytes=LOG_BLOCKS * LOG_BLOCK)
    sys.stdin.readline()
    stop.set()
    os.kill(child, 9)
    os.waitpid(child, 0)


# --------------------------------------------------------------------- send / receive
def _until(moment: float) -> None:
    """Wait for the next bit slot: sender and receiver share a wall-clock schedule (the covert
    channel's own clock), nothing in the test synchronises on it."""
    delay = moment - time.time()
    if delay > 0:
        time.sleep(delay)


def _spin(until: float, stop: threading.Event) -> None:
    """The CPU-timing channel's "1" bit: burn the CPU until the slot ends (the attack itself)."""
    while time.time() < until and not stop.is_set():
        continue


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
        elif channel in ("pipe-ino", "proc-ino"):
            new_inode = _pipe_ino if channel == "pipe-ino" else _proc_ino
            for _ in range(SEND_PIPES):
                new_inode()
        elif channel == "autogroup":
            _sessions(SEND_SESSIONS)
        elif channel == "statfs-free":  # one block of the log the referee writes
            sys.stdout.write("x" * (LOG_BLOCK - 1) + "\n")
            sys.stdout.flush()
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
    """Counters: the change from the start of a slot to its middle (free blocks: the drop;
    inode numbers: less its own batch; autogroups and pidfds: less its own reading); above half
    the sender's push it is a 1. CPU: iterations of a loop of its own over most of the slot; a
    slot slower than the median is a 1."""
    if channel != "cpu":
        READERS[channel]()  # warm-up: the pidfs-handle reader's first search starts from 0
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
            change = READERS[channel]() - before
            samples.append(-change if channel == "statfs-free" else
                           change - INO_BATCH if channel in ("pipe-ino", "proc-ino") else
                           change - 1 if channel in ("autogroup", "pidfd-ino", "pidfs-handle") else change)
    if channel == "cpu":
        middle = statistics.median(samples)
        bits = "".join("1" if sample < middle else "0" for sample in samples)
    else:
        push = PUSHES.get(channel, LOAD_THREADS // 4)
        bits = "".join("1" if sample >= push / 2 else "0" for sample in samples)
    report("covert-receive", "info", channel=channel, bits=bits, late=late,
           samples=[round(s) for s in samples])


PUSHES = {"file-nr": LOAD_FILES, "pipe-ino": SEND_PIPES, "proc-ino": SEND_PIPES, "statfs-free": 1,
          "autogroup": SEND_SESSIONS}
"""How far the sender moves a counter for a 1 (else: the threads it creates)."""


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
