"""history: change points found in each series, and each team's detection policy

Revision ID: e5b2c3d4f6a7
Revises: d4a1b2c3e5f6
Create Date: 2026-11-23 15:20:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "e5b2c3d4f6a7"
down_revision: str | None = "d4a1b2c3e5f6"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "change_points",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("team_id", sa.Integer(), nullable=False),
        sa.Column("target_id", sa.Integer(), nullable=False),
        sa.Column("job_name", sa.String(length=120), nullable=False),
        sa.Column("direction", sa.String(length=8), nullable=False),
        sa.Column("metric", sa.String(length=32), nullable=False),
        sa.Column("fingerprint", sa.String(length=64), nullable=True),
        sa.Column("result_id", sa.Integer(), nullable=False),
        sa.Column("measured_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("before_median", sa.Float(), nullable=False),
        sa.Column("after_median", sa.Float(), nullable=False),
        sa.Column("ratio", sa.Float(), nullable=False),
        sa.Column("p_value", sa.Float(), nullable=True),
        sa.Column("method", sa.String(length=64), nullable=False),
        sa.Column("detected_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("acknowledged_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("acknowledged_by", sa.String(length=254), nullable=True),
        sa.Column("comment", sa.Text(), nullable=True),
        sa.ForeignKeyConstraint(
            ["result_id"], ["results.id"], name=op.f("fk_change_points_result_id_results"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["target_id"], ["targets.id"], name=op.f("fk_change_points_target_id_targets"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["team_id"], ["teams.id"], name=op.f("fk_change_points_team_id_teams"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_change_points")),
        sa.UniqueConstraint("result_id", "direction", "metric", name=op.f("uq_change_points_result_id")),
    )
    op.create_index(op.f("ix_change_points_result_id"), "change_points", ["result_id"], unique=False)
    op.create_index(
        "ix_change_points_series",
        "change_points",
        ["team_id", "target_id", "job_name", "direction", "metric"],
        unique=False,
    )
    op.create_index(
        "ix_change_points_team_detected", "change_points", ["team_id", "detected_at", "id"], unique=False
    )
    op.create_table(
        "change_point_policies",
        sa.Column("team_id", sa.Integer(), nullable=False),
        sa.Column("method", sa.String(length=16), nullable=False),
        sa.Column("threshold", sa.Float(), nullable=True),
        sa.Column("min_points_after", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_by", sa.String(length=254), nullable=True),
        sa.ForeignKeyConstraint(
            ["team_id"], ["teams.id"], name=op.f("fk_change_point_policies_team_id_teams"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("team_id", name=op.f("pk_change_point_policies")),
    )


def downgrade() -> None:
    op.drop_table("change_point_policies")
    op.drop_index("ix_change_points_team_detected", table_name="change_points")
    op.drop_index("ix_change_points_series", table_name="change_points")
    op.drop_index(op.f("ix_change_points_result_id"), table_name="change_points")
    op.drop_table("change_points")
