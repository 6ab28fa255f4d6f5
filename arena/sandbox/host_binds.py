"""What a sandboxed bot sees of the host: the system, the Python interpreter and the arena's
installed packages, all read-only. Nothing else of the host (no /etc beyond the dynamic
loader's files, no /home, no /root, no project folder, no store) is mounted.

The interpreter may live anywhere (a venv under the project folder, pyenv under /root, a CI
tool cache); only the prefixes Python reports are shown, each at its own path, so the venv's
``bin/python`` and its symlinks resolve inside the sandbox as they do outside.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import Iterable
from dataclasses import dataclass

SYSTEM_DIRS = ("/usr",)
TOP_LEVEL = ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
"""Merged-/usr symlinks on modern distributions (shown as symlinks), real folders on old ones."""
ETC_ENTRIES = ("ld.so.cache", "ld.so.conf", "ld.so.conf.d", "localtime", "alternatives")
ARENA_PACKAGES = ("arena", "sdk", "protocol", "sample_bots")
"""What a bot imports from the arena: the SDK, the engine types it uses, the sample bots."""
FORBIDDEN = ("/", "/root", "/home", "/etc", "/tmp", "/var", "/run", "/proc", "/sys", "/dev")
"""Folders never shown whole, whatever a configuration or a package location says."""


@dataclass(frozen=True, slots=True)
class Bind:
    """Show host path ``source`` read-only at ``dest`` inside the sandbox."""

    source: str
    dest: str


@dataclass(frozen=True, slots=True)
class Symlink:
    target: str
    dest: str


@dataclass(frozen=True, slots=True)
class HostBinds:
    binds: tuple[Bind, ...]
    symlinks: tuple[Symlink, ...]

    def shows(self, path: str) -> bool:
        """True if ``path`` (a host path) is inside something this view binds."""
        return any(_within(path, bind.dest) for bind in self.binds)


def _within(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def python_prefixes() -> list[str]:
    """Where the running interpreter and its standard library live."""
    prefixes = [sys.prefix, sys.exec_prefix, sys.base_prefix, sys.base_exec_prefix]
    real = os.path.realpath(sys.executable)
    prefixes.append(os.path.dirname(os.path.dirname(real)))
    return prefixes


def package_folders(names: Iterable[str] = ARENA_PACKAGES) -> list[str]:
    """The folders of the arena's own packages (an editable install points outside site-packages)."""
    folders = []
    for name in names:
        spec = importlib.util.find_spec(name)
        if spec is None or spec.submodule_search_locations is None:
            continue
        folders += [os.path.abspath(p) for p in spec.submodule_search_locations if os.path.isdir(p)]
    return folders


def build_host_binds(extra: Iterable[str] = ()) -> HostBinds:
    """The read-only view for this host and interpreter, with ``extra`` host folders added."""
    binds: list[Bind] = []
    symlinks: list[Symlink] = []

    def add(path: str) -> None:
        path = os.path.abspath(path)
        if path in FORBIDDEN or not os.path.exists(path):
            return
        if any(_within(path, b.dest) for b in binds):
            return
        binds[:] = [b for b in binds if not _within(b.dest, path)]
        binds.append(Bind(os.path.realpath(path), path))

    for path in SYSTEM_DIRS:
        add(path)
    for path in TOP_LEVEL:
        if os.path.islink(path):
            symlinks.append(Symlink(os.readlink(path), path))
        else:
            add(path)
    for entry in ETC_ENTRIES:
        path = f"/etc/{entry}"
        if os.path.islink(path):
            symlinks.append(Symlink(os.readlink(path), path))
        elif os.path.exists(path):
            binds.append(Bind(path, path))
    for path in [*python_prefixes(), *package_folders(), *extra]:
        add(path)
    binds.sort(key=lambda b: (b.dest.count("/"), b.dest))
    return HostBinds(tuple(binds), tuple(symlinks))
