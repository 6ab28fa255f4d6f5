"""Reaching a contained bot's socket without following anything the bot put in its folder.

The bot owns its socket folder, so every name in it is the bot's to choose: ``bot.sock`` may
be a symbolic link to a socket on the host or, through ``/proc/N/root``, into another bot's
sandbox, and the kernel resolves such a link in the referee's namespace. So the referee never
connects by that name. It opens the name with ``O_PATH | O_NOFOLLOW`` relative to a folder it
reached itself one component at a time (never following a link), checks that what it holds is
a socket on the seat's own file system owned by the seat's uid (only the seat's own processes
can have bound it), and connects through ``/proc/self/fd/N``: that magic link leads to the inode
held, whatever the bot renames or replaces later, so gRPC's reconnects reach that socket or none.
"""

from __future__ import annotations

import contextlib
import os
import stat

DIRECTORY_FLAGS = os.O_PATH | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
ENTRY_FLAGS = os.O_PATH | os.O_NOFOLLOW | os.O_CLOEXEC


class UntrustedSocket(Exception):  # noqa: N818 - reads as a state, like FileNotFoundError
    """What the bot left at its socket's name is not a socket it bound in its own folder: the
    bot's fault (a failed start), described in the referee's own words."""


def walk(base_fd: int, path: str) -> int:
    """An ``O_PATH`` descriptor of the folder ``path`` beneath ``base_fd``, opened one component
    at a time without following a symbolic link; the caller closes it."""
    parts = [part for part in path.split("/") if part]
    if any(part in (".", "..") for part in parts):
        raise ValueError(f"{path!r}: '.' and '..' are not walked")
    fd = os.open(".", DIRECTORY_FLAGS, dir_fd=base_fd)
    try:
        for part in parts:
            inner = os.open(part, DIRECTORY_FLAGS, dir_fd=fd)
            os.close(fd)
            fd = inner
    except BaseException:
        os.close(fd)
        raise
    return fd


def _kind(mode: int) -> str:
    kinds = ((stat.S_ISLNK, "a symbolic link"), (stat.S_ISDIR, "a folder"), (stat.S_ISREG, "a regular file"),
             (stat.S_ISFIFO, "a named pipe"))
    return next((name for test, name in kinds if test(mode)), "a special file")


def open_bound_socket(folder_fd: int, name: str, uid: int) -> int | None:
    """An ``O_PATH`` descriptor of the socket ``name`` in the seat's folder ``folder_fd``, or
    None while there is nothing of that name. Raises ``UntrustedSocket`` for anything but a
    socket on the folder's own file system owned by the seat's ``uid``."""
    try:
        fd = os.open(name, ENTRY_FLAGS, dir_fd=folder_fd)
    except FileNotFoundError:
        return None
    try:
        found, folder = os.fstat(fd), os.fstat(folder_fd)
        problem = ""
        if not stat.S_ISSOCK(found.st_mode):
            problem = f"is {_kind(found.st_mode)}"
        elif found.st_dev != folder.st_dev:
            problem = "is a socket on another file system"
        elif found.st_uid != uid:
            problem = f"is a socket owned by uid {found.st_uid}, not the seat's uid {uid}"
        if problem:
            raise UntrustedSocket(f"{name} in the bot's socket folder {problem}, not a socket the bot bound "
                                  "there; the referee connects to nothing else")
    except BaseException:
        os.close(fd)
        raise
    return fd


def fd_address(fd: int) -> str:
    """The gRPC address of the socket held by ``fd`` (in this process only)."""
    return f"unix:/proc/self/fd/{fd}"


def close_quietly(fd: int | None) -> None:
    if fd is not None:
        with contextlib.suppress(OSError):
            os.close(fd)
