"""The timing-leak detector (issue 23): per seat of each counted match, how much its move times
said about its own cards (``timing_leaks``), and per version their running sums
(``timing_leak_totals``), which the leaderboard reads. Matches counted before have no figures
(nothing is backfilled: the detector replays each record, too slow for a migration).

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "timing_leaks",
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("version_id", sa.Integer(), nullable=False),
        sa.Column("decisions", sa.Integer(), nullable=False),
        sa.Column("bits", sa.Float(), nullable=False),
        sa.Column("z", sa.Float(), nullable=False),
        sa.Column("p_value", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"], name="fk_timing_leaks_match_id_matches"),
        sa.ForeignKeyConstraint(["version_id"], ["bot_versions.id"], name="fk_timing_leaks_version_id_bot_versions"),
        sa.PrimaryKeyConstraint("match_id", "seat", name="pk_timing_leaks"),
    )
    op.create_index("ix_timing_leaks_version_id", "timing_leaks", ["version_id"])
    op.create_table(
        "timing_leak_totals",
        sa.Column("version_id", sa.Integer(), nullable=False),
        sa.Column("seats", sa.Integer(), nullable=False),
        sa.Column("decisions", sa.Integer(), nullable=False),
        sa.Column("weighted_bits", sa.Float(), nullable=False),
        sa.Column("z_sum", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(["version_id"], ["bot_versions.id"],
                                name="fk_timing_leak_totals_version_id_bot_versions"),
        sa.PrimaryKeyConstraint("version_id", name="pk_timing_leak_totals"),
    )


def downgrade() -> None:
    op.drop_table("timing_leak_totals")
    op.drop_index("ix_timing_leaks_version_id", table_name="timing_leaks")
    op.drop_table("timing_leaks")
