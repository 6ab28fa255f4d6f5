"""Scribble: tries to write outside its private /tmp and to get privileges back.

Creates a marker file in every folder given and in the usual places (the root, /usr, /etc,
its own code, the arena's packages, /root, /dev, /var/tmp); also tries mknod, mount and a
new user namespace. Its socket folder (/run/dehla) is writable by design and reported apart.
"""

from __future__ import annotations

import ctypes
import os
import stat
from pathlib import Path

from _hostile import arguments, contained, escaped, serve

import arena

PLACES = ["/", "/usr", "/etc", "/bot", "/root", "/dev", "/var/tmp", "/home", "/proc/sys/kernel"]


def attack(name: str, folders: list[str], only_given: bool) -> None:
    places = folders if only_given else [*folders, *PLACES, *list(arena.__path__), os.getcwd()]
    for folder in dict.fromkeys(places):
        target = Path(folder) / name
        try:
            target.write_text("scribbled\n")
        except OSError as exc:
            contained("write", target=str(target), error=exc.strerror or str(exc))
        else:
            escaped("write", target=str(target))
    if only_given:  # the unsandboxed control run: do no harm to the host
        return
    try:
        Path("/run/dehla", name).write_text("socket folder\n")
        contained("write-socket-folder", note="writable by design (a 64 KiB tmpfs shared with the referee only)")
    except OSError as exc:
        contained("write-socket-folder", error=exc.strerror)
    try:
        os.mknod("/tmp/dehla-null", 0o666 | stat.S_IFCHR, os.makedev(1, 3))
        escaped("mknod")
    except OSError as exc:
        contained("mknod", error=exc.strerror)
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.mount(b"none", b"/tmp", b"tmpfs", 0, None) == 0:
        escaped("mount")
    else:
        contained("mount", error=os.strerror(ctypes.get_errno()))
    clone_newuser = 0x10000000
    if libc.unshare(clone_newuser) == 0:
        escaped("unshare-user")
    else:
        contained("unshare-user", error=os.strerror(ctypes.get_errno()))
    try:
        os.setuid(0)
        escaped("setuid-0")
    except OSError as exc:
        contained("setuid-0", error=exc.strerror)


if __name__ == "__main__":
    args = arguments(extra=[("--name", {"required": True}), ("--folder", {"action": "append", "default": []}),
                            ("--only-given", {"action": "store_true", "help": "only the folders given"})])
    serve(lambda view: attack(args.name, args.folder, args.only_given), args.at)
