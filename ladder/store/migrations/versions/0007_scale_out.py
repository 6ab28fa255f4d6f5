"""Past one machine: leases that expire (``matches.lease_until``, ``uploads.lease_owner`` and
``lease_until``), bot versions' archives in the store (``archives``, by content hash) and the
files of each counted match (``match_files``: its record and its seats' logs), so a worker on
another machine needs nothing from the coordinator's disk and readers need nothing from a
worker's. Stores made before keep working: their matches' files stay where ``record_path``
says, and a version without an archive gets one the first time a job needs it.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

TZ = sa.DateTime(timezone=True)


def upgrade() -> None:
    with op.batch_alter_table("matches") as matches:
        matches.add_column(sa.Column("lease_until", TZ, nullable=True))
        matches.create_index("ix_matches_lease_until", ["lease_until"])
    with op.batch_alter_table("uploads") as uploads:
        uploads.add_column(sa.Column("lease_owner", sa.String(64), nullable=True))
        uploads.add_column(sa.Column("lease_until", TZ, nullable=True))
    op.create_table(
        "archives",
        sa.Column("content_hash", sa.String(64), nullable=False),
        sa.Column("archive_sha256", sa.String(64), nullable=False),
        sa.Column("size_bytes", sa.BigInteger(), nullable=False),
        sa.Column("data", sa.LargeBinary(), nullable=False),
        sa.Column("created_at", TZ, nullable=False),
        sa.PrimaryKeyConstraint("content_hash", name="pk_archives"),
    )
    op.create_table(
        "match_files",
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("size_bytes", sa.BigInteger(), nullable=False),
        sa.Column("data", sa.LargeBinary(), nullable=False),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"], name="fk_match_files_match_id_matches"),
        sa.PrimaryKeyConstraint("match_id", "name", name="pk_match_files"),
    )


def downgrade() -> None:
    op.drop_table("match_files")
    op.drop_table("archives")
    with op.batch_alter_table("uploads") as uploads:
        uploads.drop_column("lease_until")
        uploads.drop_column("lease_owner")
    with op.batch_alter_table("matches") as matches:
        matches.drop_index("ix_matches_lease_until")
        matches.drop_column("lease_until")
