"""Every version has its archive in the store: a version stored before 0007 had none, and the
coordinator packed it from its stored folder the first time a job needed it; it is packed here,
once, the same way (``ladder.store.archives.pack_version``: the folder must still hash to the version's
content hash, so an edited folder is never published under the old identity; with ``$DEHLA_BLOBS``
set the archive is written there too). A folder that is gone or changed is named in a warning and
its version keeps no archive: a job that needs it fails, saying so.

Packing uses the arena's own packer (the archive must be exactly what ``dehla submit`` stores),
so this migration, unlike the others, runs code of the arena beside its SQL.

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from pathlib import Path

import sqlalchemy as sa
from alembic import context, op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None

log = logging.getLogger("ladder.store.migrations")


def upgrade() -> None:
    bind = op.get_bind()
    versions = sa.table("bot_versions", sa.column("id", sa.Integer), sa.column("content_hash", sa.String),
                        sa.column("path", sa.String))
    archives = sa.table("archives", sa.column("content_hash", sa.String), sa.column("archive_sha256", sa.String),
                        sa.column("size_bytes", sa.BigInteger), sa.column("data", sa.LargeBinary),
                        sa.column("created_at", sa.DateTime(timezone=True)))
    missing = list(bind.execute(sa.select(versions.c.content_hash, versions.c.path)
                                .where(versions.c.content_hash.not_in(sa.select(archives.c.content_hash)))
                                .order_by(versions.c.id)))
    if not missing:
        return
    from ladder.store.archives import ArchiveUnavailableError, pack_version, publish  # noqa: PLC0415 - packing only
    from ladder.versions.version_cache import ArchiveRef, sha256_of  # noqa: PLC0415

    root = _data_root()
    for digest, path in missing:
        try:
            archive = pack_version(root / path, digest)
        except ArchiveUnavailableError as exc:
            log.warning("%s; the version keeps no archive, and a job that needs it fails", exc)
            continue
        ref = ArchiveRef(digest, sha256_of(archive))
        bind.execute(archives.insert().values(content_hash=digest, archive_sha256=ref.archive_sha256,
                                              size_bytes=len(archive),
                                              data=archive, created_at=datetime.now(UTC)))
        publish(ref, archive)


def _data_root() -> Path:
    """The store's data folder: the one ``Store.open`` passes, else this environment's."""
    root = context.config.attributes.get("data_root")
    if root is None:
        from ladder.store.paths import ArenaData  # noqa: PLC0415 - the ``alembic`` command line only

        root = ArenaData.locate().root
    return Path(root)


def downgrade() -> None:
    """Nothing to undo: 0010 reads the archives it finds, as it always did."""
