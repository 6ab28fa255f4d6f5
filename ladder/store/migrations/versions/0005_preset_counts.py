"""Each version's counts per rules preset (``preset_counts``), kept by the ladder as it records a
rated match, so the leaderboard's preset filter reads one row a version rather than summing the
rating history (half a million rows on a ladder-size store). Backfilled from the rows already
there, in SQL both SQLite and PostgreSQL run (``CASE``, not a sum of booleans).

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

TZ = sa.DateTime(timezone=True)


def upgrade() -> None:
    counts = op.create_table(
        "preset_counts",
        sa.Column("preset", sa.String(32), nullable=False),
        sa.Column("version_id", sa.Integer(), nullable=False),
        sa.Column("matches", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("draws", sa.Integer(), nullable=False),
        sa.Column("faults", sa.Integer(), nullable=False),
        sa.Column("last_played_at", TZ, nullable=True),
        sa.ForeignKeyConstraint(["version_id"], ["bot_versions.id"], name="fk_preset_counts_version_id_bot_versions"),
        sa.PrimaryKeyConstraint("preset", "version_id", name="pk_preset_counts"),
    )
    assert counts is not None
    _backfill(counts)


def _backfill(counts: sa.Table) -> None:
    """What the ladder would have counted: per (preset, version), its rated matches (one rating
    change each), wins, draws, the last finish, and the rated matches with a fault of it."""
    matches = sa.table("matches", sa.column("id", sa.Integer), sa.column("preset", sa.String),
                       sa.column("status", sa.String), sa.column("finished_at", TZ))
    history = sa.table("rating_history", sa.column("match_id", sa.Integer), sa.column("version_id", sa.Integer),
                       sa.column("outcome", sa.String))
    faults = sa.table("faults", sa.column("match_id", sa.Integer), sa.column("version_id", sa.Integer))

    def tally(outcome: str) -> sa.ColumnElement[int]:
        return sa.func.sum(sa.case((history.c.outcome == outcome, 1), else_=0))

    played = sa.select(matches.c.preset, history.c.version_id, sa.func.count(), tally("win"), tally("draw"),
                       sa.literal(0), sa.func.max(matches.c.finished_at)) \
        .select_from(history.join(matches, matches.c.id == history.c.match_id)) \
        .where(history.c.version_id.is_not(None)).group_by(matches.c.preset, history.c.version_id)
    op.execute(counts.insert().from_select(
        ["preset", "version_id", "matches", "wins", "draws", "faults", "last_played_at"], played))
    fault_matches = sa.select(sa.func.count(sa.distinct(faults.c.match_id))) \
        .select_from(faults.join(matches, matches.c.id == faults.c.match_id)) \
        .where(faults.c.version_id == counts.c.version_id, matches.c.preset == counts.c.preset,
               matches.c.status == "done").scalar_subquery()
    op.execute(counts.update().values(faults=fault_matches))


def downgrade() -> None:
    op.drop_table("preset_counts")
