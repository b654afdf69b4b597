"""webhooks: the shape of the message; change points: the step they belong to

Revision ID: f0a1b2c3d424
Revises: d6a3b4c5e7f8
Create Date: 2026-11-27 21:30:00

A webhook may now send a Slack- or Teams-shaped message instead of storbench's signed JSON; the
webhooks there are keep their JSON ("storbench").
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "f0a1b2c3d424"
down_revision: str | None = "d6a3b4c5e7f8"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("webhooks", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("format", sa.String(length=16), server_default="storbench", nullable=False)
        )
    with op.batch_alter_table("change_points", schema=None) as batch_op:
        batch_op.add_column(sa.Column("step_id", sa.Integer(), nullable=True))
        batch_op.create_index(batch_op.f("ix_change_points_step_id"), ["step_id"], unique=False)
    op.execute(
        """
        UPDATE change_points SET step_id = (
            SELECT MIN(first.id) FROM change_points AS first
            WHERE first.team_id = change_points.team_id
              AND first.target_id = change_points.target_id
              AND first.job_name = change_points.job_name
              AND first.result_id = change_points.result_id
              AND first.kind = change_points.kind
        )
        """
    )


def downgrade() -> None:
    with op.batch_alter_table("change_points", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_change_points_step_id"))
        batch_op.drop_column("step_id")
    with op.batch_alter_table("webhooks", schema=None) as batch_op:
        batch_op.drop_column("format")
