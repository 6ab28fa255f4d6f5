"""A small seccomp filter for sandboxed bots: no file locks, no file-access notifications,
no page-cache probing, no host-wide counters.

Partners at a table share read-only files (the system, the interpreter, the arena's packages,
often the same bot code). Without this filter those files would be a channel between them:
one takes a lock or opens a file, the other sees the lock (``flock``, ``fcntl`` locks), gets an
event (``inotify``, ``fanotify``, ``F_NOTIFY``) or finds the pages cached (``mincore``). These
calls fail with EPERM instead. The cost: a bot cannot lock files, so SQLite needs an in-memory
database or its ``unix-none`` VFS.

The same goes for the calls that answer with counters of the whole host, which one partner
moves and the other reads: ``sysinfo`` (the host's thread count, load, free memory; the
``/proc`` files that show the same are masked by the runner) and ``statfs``, ``fstatfs``,
``ustat`` (free blocks and inodes of host filesystems, which move with every block the referee
writes into a bot's log). They fail with EPERM too. The cost: glibc's
``sysconf(_SC_PHYS_PAGES)`` and ``_SC_AVPHYS_PAGES`` ignore the failure and return garbage
from their own stack (glibc's ``qsort`` asks, only to choose between two correct algorithms),
and ``os.statvfs`` / ``shutil.disk_usage`` fail. A bot learns its memory limit from its manifest.

Two more counters of the whole host are read through numbers the kernel hands out (issue 23):
``setsid`` starts a new autogroup, numbered from one counter for the host and shown in
``/proc/self/autogroup``; and every pidfd's inode number (``fstat``) is the host-wide count of
pids ever allocated, the fork counter of ``/proc/stat`` again. So ``setsid`` and
``pidfd_open`` fail with EPERM, ``clone`` with ``CLONE_PIDFD`` too, ``clone3`` (whose flags a
filter cannot read) with ENOSYS (glibc falls back to ``clone``), and ``getsockopt(SO_PEERPIDFD)``
/ ``setsockopt(SO_PASSPIDFD)`` with EPERM, and ``open_by_handle_at`` (a pidfs handle is just
the inode number: probing them from ``FD_PIDFS_ROOT`` finds its own processes' numbers without
any pidfd; other files' handles need ``CAP_DAC_READ_SEARCH``, which no bot has). Bubblewrap's
own ``setsid`` (``--new-session``) comes before it loads the filter. Nothing a Python gRPC bot runs calls any of them.

The filter is classic BPF for the host's architecture (x86-64 or aarch64); on any other
architecture there is no filter and the report says so. Calls made through another ABI
(i386 ``int 0x80``, x32) are refused outright, so the numbers cannot be dodged.
"""

from __future__ import annotations

import errno
import platform
import struct
from dataclasses import dataclass

# struct seccomp_data: int nr; u32 arch; u64 instruction_pointer; u64 args[6]
NR_OFFSET = 0
ARCH_OFFSET = 4
ARG0_LOW_OFFSET = 16
ARG1_LOW_OFFSET = 24
ARG2_LOW_OFFSET = 32

LD_W_ABS = 0x20  # BPF_LD | BPF_W | BPF_ABS
JEQ_K = 0x15  # BPF_JMP | BPF_JEQ | BPF_K
JGE_K = 0x35  # BPF_JMP | BPF_JGE | BPF_K
JSET_K = 0x45  # BPF_JMP | BPF_JSET | BPF_K
RET_K = 0x06  # BPF_RET | BPF_K
RET_ALLOW = 0x7FFF0000
RET_ERRNO = 0x00050000
X32_BIT = 0x40000000

CLONE_PIDFD = 0x1000
SO_PASSPIDFD = 76
SO_PEERPIDFD = 77
FCNTL_LOCKS = {"F_GETLK": 5, "F_SETLK": 6, "F_SETLKW": 7, "F_OFD_GETLK": 36, "F_OFD_SETLK": 37,
               "F_OFD_SETLKW": 38, "F_NOTIFY": 1026}


@dataclass(frozen=True, slots=True)
class PidfdCalls:
    """The calls that hand out a pidfd through an argument (refused only with it): its inode
    number counts the host's pids."""

    clone: int
    clone3: int
    getsockopt: int
    setsockopt: int


@dataclass(frozen=True, slots=True)
class Abi:
    audit_arch: int
    fcntl: int
    denied: dict[str, int]
    counters: dict[str, int]
    """The calls that read host-wide counters (refused like ``denied``)."""
    x32_bit: bool
    pidfds: PidfdCalls | None
    """None: pidfds are not refused (the filter before issue 23, for negative controls)."""


ABIS = {
    "x86_64": Abi(0xC000003E, 72, {"flock": 73, "inotify_init": 253, "inotify_init1": 294,
                                   "fanotify_init": 300, "mincore": 27},
                  {"sysinfo": 99, "ustat": 136, "statfs": 137, "fstatfs": 138, "setsid": 112,
                   "pidfd_open": 434, "open_by_handle_at": 304}, True, PidfdCalls(56, 435, 55, 54)),
    "aarch64": Abi(0xC00000B7, 25, {"flock": 32, "inotify_init1": 26, "fanotify_init": 262,
                                    "mincore": 232},
                   {"sysinfo": 179, "statfs": 43, "fstatfs": 44, "setsid": 157, "pidfd_open": 434,
                    "open_by_handle_at": 265},
                   False, PidfdCalls(220, 435, 209, 208)),
}


def host_abi() -> Abi | None:
    machine = platform.machine().lower()
    return ABIS.get({"amd64": "x86_64", "arm64": "aarch64"}.get(machine, machine))


def build_filter(abi: Abi, error: int = errno.EPERM) -> bytes:
    """The BPF program (an array of ``struct sock_filter``) for ``abi``."""
    deny = RET_ERRNO | error
    pidfds = abi.pidfds
    # (code, k, true target, false target); targets are labels resolved below.
    code: list[tuple[int, int, str | None, str | None]] = [
        (LD_W_ABS, ARCH_OFFSET, None, None),
        (JEQ_K, abi.audit_arch, "nr", None),
        (RET_K, deny, None, None),  # another ABI: refuse everything
    ]
    labels = {"nr": len(code)}
    code.append((LD_W_ABS, NR_OFFSET, None, None))
    if abi.x32_bit:
        code.append((JGE_K, X32_BIT, "deny", None))
    numbers = sorted({*abi.denied.values(), *abi.counters.values()})
    code += [(JEQ_K, number, "deny", None) for number in numbers]
    if pidfds is not None:
        code += [(JEQ_K, pidfds.clone3, "nosys", None), (JEQ_K, pidfds.clone, "clone", None),
                 (JEQ_K, pidfds.getsockopt, "getsockopt", None), (JEQ_K, pidfds.setsockopt, "setsockopt", None)]
    code.append((JEQ_K, abi.fcntl, "fcntl", "allow"))
    if pidfds is not None:  # classic BPF jumps forward only: the argument checks sit before allow/deny
        for label, field, test, value in (("clone", ARG0_LOW_OFFSET, JSET_K, CLONE_PIDFD),
                                          ("getsockopt", ARG2_LOW_OFFSET, JEQ_K, SO_PEERPIDFD),
                                          ("setsockopt", ARG2_LOW_OFFSET, JEQ_K, SO_PASSPIDFD)):
            labels[label] = len(code)
            code += [(LD_W_ABS, field, None, None), (test, value, "deny", "allow")]
    labels["fcntl"] = len(code)
    code.append((LD_W_ABS, ARG1_LOW_OFFSET, None, None))
    code += [(JEQ_K, command, "deny", None) for command in sorted(FCNTL_LOCKS.values())]
    labels["allow"] = len(code)
    code.append((RET_K, RET_ALLOW, None, None))
    labels["deny"] = len(code)
    code.append((RET_K, deny, None, None))
    labels["nosys"] = len(code)
    code.append((RET_K, RET_ERRNO | errno.ENOSYS, None, None))

    def offset(at: int, label: str | None) -> int:
        if label is None:
            return 0
        assert labels[label] > at, "classic BPF jumps forward only"
        return labels[label] - at - 1

    return b"".join(struct.pack("=HBBI", op, offset(at, jt), offset(at, jf), k)
                    for at, (op, k, jt, jf) in enumerate(code))
