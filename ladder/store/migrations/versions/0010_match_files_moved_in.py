"""A match's files are read from the store only: the record and seat logs that a store made before
0007 kept under the data folder (``record_path``, e.g. ``matches/m000042.jsonl``, its logs
``m000042.seat0.log`` .. beside it) are moved into ``match_files`` here, once, and ``record_path``
becomes the record's name, as for every match counted since. Readers no longer look for files.

A file is read as the readers read it before: by a path inside the data folder only (never an
absolute one, or one that climbs out), not through a link, a regular file; a record larger than
the readers took (64 MiB) is left out, a log is cut at the ladder's log cap. A file that cannot be
moved in (missing, a link, outside the folder, unreadable) is left where it is and named in a
warning; its match then has no such file in the store, and its ``record_path`` stays as it was.
The files themselves are not deleted. Run the first command after upgrading on the machine that
holds the data folder (a PostgreSQL store read from elsewhere would find none of them).

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import errno
import logging
import os
import stat
import zlib
from pathlib import Path, PurePosixPath

import sqlalchemy as sa
from alembic import context, op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

RECORD_CAP = 64 * 1024 * 1024
"""The readers' bound on a record (``ladder/web/stored_record.py``); repeated here: a migration never changes."""
LOG_CAP = 512 * 1024
"""The ladder's cap on a stored seat log (``ladder/store/report_files.py``, ``LOG_CAP``)."""
SEATS = 4
LEVEL = 6
log = logging.getLogger("ladder.store.migrations")


class NotMoved(Exception):  # noqa: N818 - a reason, said in a warning
    """Why a file was left where it is, as the end of a sentence."""


def upgrade() -> None:
    bind = op.get_bind()
    matches = sa.table("matches", sa.column("id", sa.Integer), sa.column("record_path", sa.String))
    files = sa.table("match_files", sa.column("match_id", sa.Integer), sa.column("name", sa.String),
                     sa.column("size_bytes", sa.BigInteger), sa.column("data", sa.LargeBinary))
    stored = {(match_id, name) for match_id, name in bind.execute(sa.select(files.c.match_id, files.c.name))}
    legacy = [(match_id, path) for match_id, path in bind.execute(
        sa.select(matches.c.id, matches.c.record_path).where(matches.c.record_path.is_not(None))
        .order_by(matches.c.id)) if (match_id, PurePosixPath(path).name) not in stored]
    if not legacy:
        return
    root = _data_root()
    for match_id, path in legacy:
        record = PurePosixPath(path)
        wanted = {record.name: (record, RECORD_CAP, True)}
        stem = record.name.removesuffix(".jsonl")
        wanted.update({f"{stem}.seat{seat}.log": (record.with_name(f"{stem}.seat{seat}.log"), LOG_CAP, False)
                       for seat in range(SEATS)})
        for name, (relative, cap, is_record) in wanted.items():
            if (match_id, name) in stored:
                continue
            try:
                data = _read_inside(root, relative, cap, whole=is_record)
            except NotMoved as exc:
                if is_record or not isinstance(exc.__cause__, FileNotFoundError):  # a match may lack a log
                    log.warning("match %d: %s %s; left where it is, not moved into the store", match_id, relative, exc)
                continue
            bind.execute(files.insert().values(match_id=match_id, name=name, size_bytes=len(data),
                                               data=zlib.compress(data, LEVEL)))
            if is_record:
                bind.execute(matches.update().where(matches.c.id == match_id).values(record_path=name))


def _data_root() -> Path:
    """The store's data folder: the one ``Store.open`` passes, else this environment's."""
    root = context.config.attributes.get("data_root")
    if root is None:
        from ladder.store.paths import ArenaData  # noqa: PLC0415 - the ``alembic`` command line only

        root = ArenaData.locate().root
    return Path(root)


def _read_inside(root: Path, relative: PurePosixPath, cap: int, whole: bool) -> bytes:
    """The file's bytes (at most ``cap``; ``whole``: a larger file is refused), read only inside
    ``root``: no absolute or climbing path, no link at its end, its real path inside the folder."""
    if relative.is_absolute() or ".." in relative.parts:
        raise NotMoved("is outside the data folder")
    try:
        fd = os.open(root / relative, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as exc:
        raise NotMoved("is a link" if exc.errno == errno.ELOOP else f"cannot be opened ({exc.strerror})") from exc
    with os.fdopen(fd, "rb") as file:
        if root.resolve() not in Path(os.readlink(f"/proc/self/fd/{fd}")).parents:
            raise NotMoved("links outside the data folder")
        status = os.fstat(fd)
        if not stat.S_ISREG(status.st_mode):
            raise NotMoved("is not a file")
        if whole and status.st_size > cap:
            raise NotMoved(f"is {status.st_size} bytes, more than a record can be ({cap})")
        return file.read(cap)


def downgrade() -> None:
    """Nothing to undo: the rows are what 0009 reads first, and a record's name is a path in the
    data folder as good as any (its file, if still there, is where it was)."""
