"""Snoop: tries to read what is not its own and reports any secret it finds.

It reads every path given (files; folders walked a few levels deep), other seats' sockets
(connect), its own environment and every visible process's environment and command line,
looking for secrets: ``--marker`` followed by 12 hex digits (its own command line holds only
the marker, not a secret). Finding one is an escape.
"""

from __future__ import annotations

import os
import re
import socket
from pathlib import Path

from _hostile import arguments, contained, escaped, serve

MAX_FILES = 300
MAX_BYTES = 65536


def secrets_in(text: str, marker: str) -> list[str]:
    return re.findall(re.escape(marker) + "[0-9a-f]{12}", text)


def scan(path: Path, marker: str, seen: list[int], depth: int = 3) -> tuple[list[str], list[str]]:
    """(secrets found, errors) under ``path``."""
    found: list[str] = []
    errors: list[str] = []
    try:
        if path.is_dir():
            entries = sorted(path.iterdir(), key=lambda p: (p.is_dir(), p.name))
            for entry in entries:
                found += secrets_in(entry.name, marker)
                if seen[0] >= MAX_FILES:
                    break
                if entry.is_dir() and depth > 0 and not entry.is_symlink():
                    more, errs = scan(entry, marker, seen, depth - 1)
                    found += more
                    errors += errs[:3]
                elif entry.is_file():
                    seen[0] += 1
                    more, errs = scan(entry, marker, seen, 0)
                    found += more
                    errors += errs[:3]
        else:
            found += secrets_in(path.read_bytes()[:MAX_BYTES].decode("utf-8", "replace"), marker)
    except OSError as exc:
        errors.append(f"{path}: {exc.strerror or exc}")
    return found, errors


def attack(marker: str, paths: list[str], sockets: list[str]) -> None:
    for target in paths:
        found, errors = scan(Path(target), marker, [0])
        if found:
            escaped("read", target=target, secrets=sorted(set(found)))
        else:
            contained("read", target=target, errors=errors[:3])
    leaked = [f"{k}={v}" for k, v in os.environ.items() if secrets_in(v, marker)]
    (escaped if leaked else contained)("environment", secrets=leaked)
    seen = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and int(entry.name) != os.getpid():
            for name in ("environ", "cmdline"):
                try:
                    text = (entry / name).read_bytes().decode("utf-8", "replace")
                except OSError:
                    continue
                if secrets_in(text, marker):
                    seen.append(f"{entry.name}/{name}")
    (escaped if seen else contained)("process-environment", found=seen)
    for path in sockets:
        client = socket.socket(socket.AF_UNIX)
        client.settimeout(1)
        try:
            client.connect(path)
            escaped("connect-socket", target=path)
        except OSError as exc:
            contained("connect-socket", target=path, error=exc.strerror or str(exc))
        finally:
            client.close()
    try:
        contained("listing", root=sorted(os.listdir("/")))
    except OSError as exc:
        contained("listing", error=str(exc))


if __name__ == "__main__":
    args = arguments(extra=[("--marker", {"required": True}), ("--path", {"action": "append", "default": []}),
                            ("--socket", {"action": "append", "default": []})])
    serve(lambda view: attack(args.marker, args.path, args.socket), args.at)
