"""plan versions: plans.version, plan_versions (the jobs of each version), runs.plan_version

Revision ID: b8e5f6a7c9d0
Revises: a7d4e5f6b8c9
Create Date: 2026-11-23 15:20:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "b8e5f6a7c9d0"
down_revision: str | None = "a7d4e5f6b8c9"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("plans", schema=None) as batch_op:
        batch_op.add_column(sa.Column("version", sa.Integer(), server_default="1", nullable=False))
    op.create_table(
        "plan_versions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("plan_id", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("jobs", sa.JSON(), nullable=False),
        sa.Column("shared_files", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("description", sa.Text(), nullable=True),
        sa.Column("created_by", sa.String(length=255), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["plan_id"], ["plans.id"], name=op.f("fk_plan_versions_plan_id_plans"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_plan_versions")),
        sa.UniqueConstraint("plan_id", "version", name=op.f("uq_plan_versions_plan_id")),
    )
    op.create_index(op.f("ix_plan_versions_plan_id"), "plan_versions", ["plan_id"], unique=False)
    # Every existing plan's jobs are its version 1.
    op.execute(
        "INSERT INTO plan_versions (plan_id, version, jobs, shared_files, description, created_at) "
        "SELECT id, 1, jobs, shared_files, description, created_at FROM plans"
    )
    with op.batch_alter_table("runs", schema=None) as batch_op:
        batch_op.add_column(sa.Column("plan_version", sa.Integer(), nullable=True))
    op.execute("UPDATE runs SET plan_version = 1 WHERE plan_id IS NOT NULL")


def downgrade() -> None:
    with op.batch_alter_table("runs", schema=None) as batch_op:
        batch_op.drop_column("plan_version")
    op.drop_index(op.f("ix_plan_versions_plan_id"), table_name="plan_versions")
    op.drop_table("plan_versions")
    with op.batch_alter_table("plans", schema=None) as batch_op:
        batch_op.drop_column("version")
