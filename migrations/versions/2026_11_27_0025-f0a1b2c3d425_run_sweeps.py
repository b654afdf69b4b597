"""runs: the sweep a run executes (its axes, points in order, and early stop)

Revision ID: f0a1b2c3d425
Revises: f0a1b2c3d424
Create Date: 2026-11-27 21:20:00

A sweep run keeps its jobs expanded (every point, in the order run) in runs.jobs, as the hosts ran
them; runs.sweep keeps what was asked for: the axes, the points in order, the jobs as planned (one
point's worth), and the bound that stops it early. Null for a run without a sweep.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "f0a1b2c3d425"
down_revision: str | None = "f0a1b2c3d424"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("runs", schema=None) as batch_op:
        batch_op.add_column(sa.Column("sweep", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("runs", schema=None) as batch_op:
        batch_op.drop_column("sweep")
