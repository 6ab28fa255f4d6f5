"""Authors and what they may do: ``authors`` (a hash of each API token, never the token), each
bot's owner, an operator's switches (a disabled bot or version, a voided match) and the
``uploads`` an author submitted over HTTP with their status. Stores made before keep working:
their bots have no owner (submitted on the arena's machine) and nothing is disabled or voided.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

TZ = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "authors",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(32), nullable=False),
        sa.Column("email", sa.String(254), nullable=True),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=True),
        sa.Column("token_issued_at", TZ, nullable=True),
        sa.Column("created_at", TZ, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_authors"),
        sa.UniqueConstraint("name", name="uq_authors_name"),
    )
    with op.batch_alter_table("bots") as bots:
        bots.add_column(sa.Column("owner_id", sa.Integer(), nullable=True))
        bots.add_column(sa.Column("disabled_at", TZ, nullable=True))
        bots.create_foreign_key("fk_bots_owner_id_authors", "authors", ["owner_id"], ["id"])
        bots.create_index("ix_bots_owner_id", ["owner_id"])
    with op.batch_alter_table("bot_versions") as versions:
        versions.add_column(sa.Column("disabled_at", TZ, nullable=True))
    with op.batch_alter_table("matches") as matches:
        matches.add_column(sa.Column("voided_at", TZ, nullable=True))
        matches.add_column(sa.Column("void_note", sa.Text(), nullable=True))
    op.create_table(
        "uploads",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("author_id", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("reason", sa.Text(), nullable=True),
        sa.Column("bot_name", sa.String(32), nullable=True),
        sa.Column("version_id", sa.Integer(), nullable=True),
        sa.Column("content_hash", sa.String(64), nullable=True),
        sa.Column("size_bytes", sa.BigInteger(), nullable=False),
        sa.Column("created_at", TZ, nullable=False),
        sa.Column("finished_at", TZ, nullable=True),
        sa.ForeignKeyConstraint(["author_id"], ["authors.id"], name="fk_uploads_author_id_authors"),
        sa.ForeignKeyConstraint(["version_id"], ["bot_versions.id"], name="fk_uploads_version_id_bot_versions"),
        sa.PrimaryKeyConstraint("id", name="pk_uploads"),
    )
    op.create_index("ix_uploads_author_id", "uploads", ["author_id"])
    op.create_index("ix_uploads_status", "uploads", ["status"])
    op.create_index("ix_uploads_created_at", "uploads", ["created_at"])


def downgrade() -> None:
    op.drop_table("uploads")
    with op.batch_alter_table("matches") as matches:
        matches.drop_column("void_note")
        matches.drop_column("voided_at")
    with op.batch_alter_table("bot_versions") as versions:
        versions.drop_column("disabled_at")
    with op.batch_alter_table("bots") as bots:
        bots.drop_index("ix_bots_owner_id")
        bots.drop_constraint("fk_bots_owner_id_authors", type_="foreignkey")
        bots.drop_column("disabled_at")
        bots.drop_column("owner_id")
    op.drop_table("authors")
