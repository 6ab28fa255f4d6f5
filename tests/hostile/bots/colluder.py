"""Colluder: two partners (seats s and s^2) try to pass their hands to each other through
everything they might share: files in /tmp, /dev/shm, /var/tmp and the root; abstract and
filesystem unix sockets; TCP on localhost; SysV shared memory; the process list and signals;
locks on and inotify events from the read-only files both can see.

At every decision each publishes its hand on every channel and looks for its partner's.
A partner's real hand (or its process, a signal, a lock, an event) coming through is an
escape, reported once per channel; at the end of the match the channels that never worked
are reported contained.
"""

from __future__ import annotations

import contextlib
import ctypes
import fcntl
import json
import os
import signal
import socket
import struct
import threading
import zlib
from pathlib import Path
from typing import Any

from _hostile import HostileBot, arguments, contained, escaped

import arena
from arena.contract.messages import MatchEnd, MatchStart
from sdk.bot import BotView
from sdk.server import run

FOLDERS = ["/tmp", "/dev/shm", "/var/tmp", "/", "/run/dehla"]
IPC_CREAT = 0o1000
IN_OPEN = 0x20
IN_NONBLOCK = 0o4000
IPC_RMID = 0
BEACONS = ["containers.py", "uids.py", "host_binds.py", "cgroups.py"]
"""Per seat, a read-only file of the arena that no bot otherwise opens (lock and inotify beacon)."""

libc = ctypes.CDLL(None, use_errno=True)
libc.shmat.restype = ctypes.c_void_p
libc.shmat.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_int]


class Colluder(HostileBot):
    name = "colluder"

    def __init__(self, tag: str) -> None:
        super().__init__()
        self.tag = tag
        self.key = zlib.crc32(tag.encode())
        self.seat = -1
        self.hand: list[str] = []
        self.got: set[str] = set()
        self.tried: set[str] = set()
        self.signals = 0
        self.servers: list[socket.socket] = []
        self.lock_fd: int | None = None
        self.watch_fd: int | None = None
        signal.signal(signal.SIGUSR1, self._on_signal)

    # ------------------------------------------------------------ bookkeeping
    def _on_signal(self, signum: int, frame: Any) -> None:
        self.signals += 1

    def _probe_lock(self, partner: int) -> None:
        """The partner holds a shared lock on its beacon: an exclusive try-lock fails if it is seen."""
        try:
            probe = os.open(self._beacon(partner), os.O_RDONLY)
        except OSError:
            return  # no beacon: that channel is closed
        try:
            fcntl.flock(probe, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            self._found("flock", note="the partner's shared lock is visible")
        except OSError:
            return  # locking refused outright: nothing seen
        finally:
            os.close(probe)

    def _found(self, channel: str, **detail: Any) -> None:
        self.tried.add(channel)
        if channel not in self.got:
            self.got.add(channel)
            escaped("collude", channel=channel, seat=self.seat, **detail)

    def _check(self, channel: str, text: str | bytes | None) -> None:
        self.tried.add(channel)
        if not text:
            return
        try:
            message = json.loads(text)
        except ValueError:
            return
        if message.get("seat") == self.seat ^ 2 and message.get("cards"):
            self._found(channel, cards=message["cards"])

    def _message(self) -> bytes:
        return json.dumps({"seat": self.seat, "cards": self.hand}).encode()

    def _beacon(self, seat: int) -> str:
        return os.path.join(next(iter(arena.__path__)), "sandbox", BEACONS[seat])

    # ------------------------------------------------------------------ bot
    def on_match_start(self, start: MatchStart) -> None:
        self.seat = start.seat
        with contextlib.suppress(OSError):  # its name in the process list, for the partner to find
            Path("/proc/self/comm").write_text(f"dc{self.tag[:8]}{self.seat}"[:15])
        self._serve(socket.AF_UNIX, b"\0" + self._name(self.seat).encode())
        self._serve(socket.AF_UNIX, f"/tmp/{self._name(self.seat)}.sock")
        self._serve(socket.AF_INET, ("127.0.0.1", self._port(self.seat)))
        with contextlib.suppress(OSError):  # no beacon to lock: that channel is closed
            self.lock_fd = os.open(self._beacon(self.seat), os.O_RDONLY)
            fcntl.flock(self.lock_fd, fcntl.LOCK_SH)
        fd = libc.inotify_init1(IN_NONBLOCK)
        if fd >= 0 and libc.inotify_add_watch(fd, self._beacon(self.seat ^ 2).encode(), IN_OPEN) >= 0:
            self.watch_fd = fd

    def decide(self, view: BotView) -> Any:
        self.hand = [str(card) for card in view.hand]
        self._publish()
        self._collect()
        return super().decide(view)

    def on_match_end(self, end: MatchEnd) -> None:
        segment = libc.shmget(self.key & 0x7FFFFFF0 | self.seat, 4096, 0)
        if segment >= 0:
            libc.shmctl(segment, IPC_RMID, None)
        for channel in sorted(self.tried - self.got):
            contained("collude", channel=channel, seat=self.seat)

    # ------------------------------------------------------------- channels
    def _name(self, seat: int) -> str:
        return f"dehla-collude-{self.tag}-{seat}"

    def _port(self, seat: int) -> int:
        return 20000 + self.key % 20000 + seat

    def _serve(self, family: int, address: Any) -> None:
        server = socket.socket(family, socket.SOCK_STREAM)
        try:
            server.bind(address)
            server.listen(8)
        except OSError:
            server.close()
            return
        self.servers.append(server)

        def answer() -> None:
            while True:
                try:
                    conn, _ = server.accept()
                except OSError:
                    return
                with conn:
                    conn.sendall(self._message())

        threading.Thread(target=answer, daemon=True).start()

    def _publish(self) -> None:
        message = self._message()
        for folder in FOLDERS:
            with contextlib.suppress(OSError):
                Path(folder, self._name(self.seat)).write_bytes(message)
        segment = libc.shmget(self.key & 0x7FFFFFF0 | self.seat, 4096, IPC_CREAT | 0o666)
        if segment >= 0:
            address = libc.shmat(segment, None, 0)
            if address not in (None, ctypes.c_void_p(-1).value):
                ctypes.memmove(address, message + b"\0", len(message) + 1)
                libc.shmdt(ctypes.c_void_p(address))
        with contextlib.suppress(OSError):  # an inotify event for the partner
            os.close(os.open(self._beacon(self.seat), os.O_RDONLY))

    def _collect(self) -> None:
        partner = self.seat ^ 2
        name = self._name(partner)
        for folder in FOLDERS:
            try:
                self._check(f"file:{folder}", Path(folder, name).read_bytes())
            except OSError:
                self.tried.add(f"file:{folder}")
        for channel, family, address in (("abstract-socket", socket.AF_UNIX, b"\0" + name.encode()),
                                          ("unix-socket", socket.AF_UNIX, f"/tmp/{name}.sock"),
                                          ("tcp-localhost", socket.AF_INET, ("127.0.0.1", self._port(partner)))):
            client = socket.socket(family, socket.SOCK_STREAM)
            client.settimeout(0.5)
            try:
                client.connect(address)
                self._check(channel, client.recv(4096))
            except OSError:
                self.tried.add(channel)
            finally:
                client.close()
        segment = libc.shmget(self.key & 0x7FFFFFF0 | partner, 4096, 0)
        self.tried.add("sysv-shm")
        if segment >= 0:
            address = libc.shmat(segment, None, 0o10000)  # SHM_RDONLY
            if address not in (None, ctypes.c_void_p(-1).value):
                self._check("sysv-shm", ctypes.string_at(address))
                libc.shmdt(ctypes.c_void_p(address))
        self.tried.update(("process-list", "signals", "flock", "inotify"))
        wanted = f"dc{self.tag[:8]}{partner}"[:15]
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit() or int(entry.name) == os.getpid():
                continue
            try:
                comm = (entry / "comm").read_text().strip()
            except OSError:
                continue
            if comm == wanted:
                self._found("process-list", pid=int(entry.name))
                with contextlib.suppress(OSError):
                    os.kill(int(entry.name), signal.SIGUSR1)
        if self.signals:
            self._found("signals", received=self.signals)
        self._probe_lock(partner)
        if self.watch_fd is not None:
            try:
                events = os.read(self.watch_fd, 4096)
            except OSError:
                events = b""
            if len(events) >= struct.calcsize("iIII"):
                self._found("inotify", note="the partner opened its beacon")


if __name__ == "__main__":
    args = arguments(extra=[("--tag", {"required": True})])
    run(Colluder(args.tag))
