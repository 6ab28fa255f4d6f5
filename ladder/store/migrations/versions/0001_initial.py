"""The ladder's first schema: bots, versions, partnerships, matches, results, faults, rating history.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

TZ = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "bots",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(32), nullable=False),
        sa.Column("author", sa.String(100), nullable=False),
        sa.Column("created_at", TZ, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_bots"),
        sa.UniqueConstraint("name", name="uq_bots_name"),
    )
    op.create_table(
        "bot_versions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("bot_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("label", sa.String(64), nullable=False),
        sa.Column("content_hash", sa.String(64), nullable=False),
        sa.Column("path", sa.String(500), nullable=False),
        sa.Column("created_at", TZ, nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("matches", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("draws", sa.Integer(), nullable=False),
        sa.Column("losses", sa.Integer(), nullable=False),
        sa.Column("faults", sa.Integer(), nullable=False),
        sa.Column("last_played_at", TZ, nullable=True),
        sa.ForeignKeyConstraint(["bot_id"], ["bots.id"], name="fk_bot_versions_bot_id_bots"),
        sa.PrimaryKeyConstraint("id", name="pk_bot_versions"),
        sa.UniqueConstraint("bot_id", "number", name="uq_bot_versions_bot_number"),
        sa.UniqueConstraint("content_hash", name="uq_bot_versions_content_hash"),
    )
    op.create_index("ix_bot_versions_bot_id", "bot_versions", ["bot_id"])
    op.create_table(
        "partnerships",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("low_id", sa.Integer(), nullable=False),
        sa.Column("high_id", sa.Integer(), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("matches", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("draws", sa.Integer(), nullable=False),
        sa.Column("losses", sa.Integer(), nullable=False),
        sa.Column("last_played_at", TZ, nullable=True),
        sa.CheckConstraint("low_id <= high_id", name="ck_partnerships_ordered"),
        sa.ForeignKeyConstraint(["low_id"], ["bot_versions.id"], name="fk_partnerships_low_id_bot_versions"),
        sa.ForeignKeyConstraint(["high_id"], ["bot_versions.id"], name="fk_partnerships_high_id_bot_versions"),
        sa.PrimaryKeyConstraint("id", name="pk_partnerships"),
        sa.UniqueConstraint("low_id", "high_id", name="uq_partnerships_pair"),
    )
    op.create_index("ix_partnerships_low_id", "partnerships", ["low_id"])
    op.create_index("ix_partnerships_high_id", "partnerships", ["high_id"])
    op.create_table(
        "matches",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("seed", sa.Integer(), nullable=False),
        sa.Column("preset", sa.String(32), nullable=False),
        sa.Column("match_format", sa.String(32), nullable=False),
        sa.Column("team_a_id", sa.Integer(), nullable=False),
        sa.Column("team_b_id", sa.Integer(), nullable=False),
        sa.Column("seat0_id", sa.Integer(), nullable=False),
        sa.Column("seat1_id", sa.Integer(), nullable=False),
        sa.Column("seat2_id", sa.Integer(), nullable=False),
        sa.Column("seat3_id", sa.Integer(), nullable=False),
        sa.Column("attempt", sa.Integer(), nullable=False),
        sa.Column("lease_owner", sa.String(64), nullable=True),
        sa.Column("record_path", sa.String(500), nullable=True),
        sa.Column("error", sa.Text(), nullable=True),
        sa.Column("created_at", TZ, nullable=False),
        sa.Column("started_at", TZ, nullable=True),
        sa.Column("finished_at", TZ, nullable=True),
        sa.ForeignKeyConstraint(["team_a_id"], ["partnerships.id"], name="fk_matches_team_a_id_partnerships"),
        sa.ForeignKeyConstraint(["team_b_id"], ["partnerships.id"], name="fk_matches_team_b_id_partnerships"),
        sa.ForeignKeyConstraint(["seat0_id"], ["bot_versions.id"], name="fk_matches_seat0_id_bot_versions"),
        sa.ForeignKeyConstraint(["seat1_id"], ["bot_versions.id"], name="fk_matches_seat1_id_bot_versions"),
        sa.ForeignKeyConstraint(["seat2_id"], ["bot_versions.id"], name="fk_matches_seat2_id_bot_versions"),
        sa.ForeignKeyConstraint(["seat3_id"], ["bot_versions.id"], name="fk_matches_seat3_id_bot_versions"),
        sa.PrimaryKeyConstraint("id", name="pk_matches"),
    )
    op.create_index("ix_matches_status", "matches", ["status"])
    op.create_index("ix_matches_team_a_id", "matches", ["team_a_id"])
    op.create_index("ix_matches_team_b_id", "matches", ["team_b_id"])
    op.create_table(
        "results",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("winner_team", sa.Integer(), nullable=True),
        sa.Column("score_a", sa.Float(), nullable=False),
        sa.Column("score_b", sa.Float(), nullable=False),
        sa.Column("hands", sa.Integer(), nullable=False),
        sa.Column("forfeit_team", sa.Integer(), nullable=True),
        sa.Column("void_reason", sa.Text(), nullable=True),
        sa.Column("seconds", sa.Float(), nullable=False),
        sa.Column("created_at", TZ, nullable=False),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"], name="fk_results_match_id_matches"),
        sa.PrimaryKeyConstraint("id", name="pk_results"),
        sa.UniqueConstraint("match_id", name="uq_results_match_id"),
    )
    op.create_table(
        "faults",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("version_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("detail", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"], name="fk_faults_match_id_matches"),
        sa.ForeignKeyConstraint(["version_id"], ["bot_versions.id"], name="fk_faults_version_id_bot_versions"),
        sa.PrimaryKeyConstraint("id", name="pk_faults"),
    )
    op.create_index("ix_faults_match_id", "faults", ["match_id"])
    op.create_index("ix_faults_version_id", "faults", ["version_id"])
    op.create_table(
        "rating_history",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("version_id", sa.Integer(), nullable=True),
        sa.Column("partnership_id", sa.Integer(), nullable=True),
        sa.Column("mu_before", sa.Float(), nullable=False),
        sa.Column("sigma_before", sa.Float(), nullable=False),
        sa.Column("mu_after", sa.Float(), nullable=False),
        sa.Column("sigma_after", sa.Float(), nullable=False),
        sa.Column("outcome", sa.String(8), nullable=False),
        sa.Column("created_at", TZ, nullable=False),
        sa.CheckConstraint("(version_id IS NULL) <> (partnership_id IS NULL)",
                           name="ck_rating_history_one_subject"),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"], name="fk_rating_history_match_id_matches"),
        sa.ForeignKeyConstraint(["version_id"], ["bot_versions.id"],
                                name="fk_rating_history_version_id_bot_versions"),
        sa.ForeignKeyConstraint(["partnership_id"], ["partnerships.id"],
                                name="fk_rating_history_partnership_id_partnerships"),
        sa.PrimaryKeyConstraint("id", name="pk_rating_history"),
    )
    op.create_index("ix_rating_history_match_id", "rating_history", ["match_id"])
    op.create_index("ix_rating_history_version_id", "rating_history", ["version_id"])
    op.create_index("ix_rating_history_partnership_id", "rating_history", ["partnership_id"])


def downgrade() -> None:
    for table in ("rating_history", "faults", "results", "matches", "partnerships", "bot_versions", "bots"):
        op.drop_table(table)
