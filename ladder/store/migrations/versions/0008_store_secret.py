"""The store's own secret (``store_secrets``): a random key, made once per store, that turns the
operator's ``--seed`` into each match's deal seed by a keyed hash (``ladder/coordinator/deal_seeds.py``), so a
small ``--seed`` no longer lets a bot try every seed against its own 13 cards. A store made before
gets its key here, drawn as the migration runs; its matches already stored keep their seeds.

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import secrets
from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

DEAL_SEED_KEY = "deal_seeds"
"""The row's name (``ladder.coordinator.deal_seeds.KEY_NAME``; repeated here: a migration never changes)."""


def upgrade() -> None:
    table = op.create_table(
        "store_secrets",
        sa.Column("name", sa.String(32), nullable=False),
        sa.Column("value", sa.String(128), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("name", name="pk_store_secrets"),
    )
    op.bulk_insert(table, [{"name": DEAL_SEED_KEY, "value": secrets.token_hex(32),
                            "created_at": datetime.now(UTC)}])


def downgrade() -> None:
    op.drop_table("store_secrets")
