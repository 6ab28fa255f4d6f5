"""The secret that signs session cookies: ``$DEHLA_WEB_SECRET``, else a file in the data folder.

The file (``DATA/web-secret``) is made at the first start with mode 0600 and random content, and
read at every later start, so sessions survive a restart. It is never logged and never inside the
repository. A file that others may read, a link, or a secret too short to be one stops the
service at start-up with one line.
"""

from __future__ import annotations

import os
import secrets
import stat
from pathlib import Path

from arena.engine.errors import ArenaError

SECRET_ENV = "DEHLA_WEB_SECRET"
SECRET_FILE = "web-secret"
MIN_LENGTH = 32
"""Characters: a shorter secret is refused (a generated one is 64)."""


class WebSecretError(ArenaError):
    """The signing secret cannot be read or made; the message says where and why (never the secret)."""


def web_secret(root: Path) -> str:
    """The signing secret for the data folder ``root``."""
    from_env = os.environ.get(SECRET_ENV)
    if from_env is not None:
        if len(from_env.strip()) < MIN_LENGTH:
            raise WebSecretError(f"${SECRET_ENV} is shorter than {MIN_LENGTH} characters; use a random one "
                                 "(e.g. python3 -c 'import secrets; print(secrets.token_urlsafe(48))')")
        return from_env.strip()
    path = root / SECRET_FILE
    try:
        return _read(path)
    except FileNotFoundError:
        return _create(path)


def _read(path: Path) -> str:
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK)
    except FileNotFoundError:
        raise
    except OSError as exc:
        raise WebSecretError(f"{path}: cannot be read ({exc.strerror}); a link is not followed") from None
    with os.fdopen(fd, "rb") as file:
        status = os.fstat(fd)
        if not stat.S_ISREG(status.st_mode):
            raise WebSecretError(f"{path}: not a regular file")
        if status.st_mode & 0o077:
            raise WebSecretError(f"{path}: others may read it (mode {stat.S_IMODE(status.st_mode):04o}); "
                                 f"chmod 600 {path}, or remove it to have a new one made")
        secret = file.read(4096).decode("ascii", "replace").strip()
    if len(secret) < MIN_LENGTH:
        raise WebSecretError(f"{path}: shorter than {MIN_LENGTH} characters; remove it to have a new one made")
    return secret


def _create(path: Path) -> str:
    secret = secrets.token_urlsafe(48)
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    except FileExistsError:
        return _read(path)  # another process made it first
    except OSError as exc:
        raise WebSecretError(f"{path}: cannot be created ({exc.strerror})") from None
    with os.fdopen(fd, "wb") as file:
        os.fchmod(fd, 0o600)  # whatever the umask
        file.write(secret.encode("ascii") + b"\n")
        file.flush()
        os.fsync(fd)
    return secret
