"""Indexes for the web pages' reads on a ladder-size store (bench/web.py): the presets a ladder
has played (``matches.preset``) and a bot's matches (one index per seat, which SQLite and
PostgreSQL combine for ``seat0 IN (...) OR seat1 IN (...) ...``).

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

INDEXES = {"ix_matches_preset": "preset", **{f"ix_matches_seat{n}_id": f"seat{n}_id" for n in range(4)}}


def upgrade() -> None:
    for name, column in INDEXES.items():
        op.create_index(name, "matches", [column])


def downgrade() -> None:
    for name in INDEXES:
        op.drop_index(name, table_name="matches")
