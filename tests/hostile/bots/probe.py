"""Probe: reports who and where it is (uid, namespaces, writable folders, limits, what it can
see), for the isolation tests, then plays normally."""

from __future__ import annotations

import os
import resource
import socket

from _hostile import arguments, report, serve

NAMESPACES = ("mnt", "pid", "net", "ipc", "uts", "user", "cgroup")


def attack() -> None:
    folders = {}
    for folder in ("/tmp", "/dev/shm", "/run/dehla"):
        try:
            info = os.stat(folder)
            folders[folder] = [info.st_dev, info.st_ino]
        except OSError as exc:
            folders[folder] = str(exc)
    with open("/proc/self/status") as handle:
        status = dict(line.split(":", 1) for line in handle.read().splitlines() if ":" in line)
    report("probe", "info",
           uid=os.getuid(), gid=os.getgid(), groups=os.getgroups(), pid=os.getpid(), ppid=os.getppid(),
           namespaces={name: os.readlink(f"/proc/self/ns/{name}") for name in NAMESPACES},
           folders=folders, hostname=socket.gethostname(), root=sorted(os.listdir("/")),
           cwd=os.getcwd(), capabilities=status.get("CapEff", "").strip(),
           no_new_privs=status.get("NoNewPrivs", "").strip(), seccomp=status.get("Seccomp", "").strip(),
           rlimits={name: resource.getrlimit(getattr(resource, name))
                    for name in ("RLIMIT_NPROC", "RLIMIT_NOFILE", "RLIMIT_FSIZE", "RLIMIT_CPU", "RLIMIT_CORE")},
           environment=sorted(os.environ), environ={"self": _environ("self"), "init": _environ("1")})


def _environ(pid: str) -> list[str] | str:
    """The environment a process was started with, as ``/proc`` shows it to the bot."""
    try:
        with open(f"/proc/{pid}/environ", "rb") as handle:
            return [entry.decode(errors="replace") for entry in handle.read().split(b"\0") if entry]
    except OSError as exc:
        return str(exc)


if __name__ == "__main__":
    args = arguments()
    serve(lambda view: attack(), "start")
