"""Match seeds are 63-bit: a 31-bit seed could be recovered from one seat's 13 cards by trying
every seed, and with it every deal of the match.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("matches") as batch:
        batch.alter_column("seed", type_=sa.BigInteger(), existing_type=sa.Integer(), existing_nullable=False)


def downgrade() -> None:
    with op.batch_alter_table("matches") as batch:
        batch.alter_column("seed", type_=sa.Integer(), existing_type=sa.BigInteger(), existing_nullable=False)
