"""results' steady state; preconditioning on runs and plans; sweeps in saved plans

Revision ID: f0a1b2c3d428
Revises: f0a1b2c3d425
Create Date: 2026-11-28 00:30:00

results.steady_state keeps, per direction, whether its IOPS reached steady state by the SNIA PTS
rule and when (null: nothing to tell it by, as for imports). runs.precondition: the working set was
filled sequentially before measuring; progress_samples.phase says which seconds were that fill.
plans.sweep and plans.precondition: what a saved plan's runs sweep and whether they precondition
(null / false: plain runs, as before).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "f0a1b2c3d428"
down_revision: str | None = "f0a1b2c3d425"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("results", schema=None) as batch_op:
        batch_op.add_column(sa.Column("steady_state", sa.JSON(), nullable=True))
    with op.batch_alter_table("runs", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("precondition", sa.Boolean(), server_default=sa.false(), nullable=False)
        )
    with op.batch_alter_table("progress_samples", schema=None) as batch_op:
        batch_op.add_column(sa.Column("phase", sa.String(length=20), nullable=True))
    with op.batch_alter_table("plans", schema=None) as batch_op:
        batch_op.add_column(sa.Column("sweep", sa.JSON(), nullable=True))
        batch_op.add_column(
            sa.Column("precondition", sa.Boolean(), server_default=sa.false(), nullable=False)
        )


def downgrade() -> None:
    with op.batch_alter_table("plans", schema=None) as batch_op:
        batch_op.drop_column("precondition")
        batch_op.drop_column("sweep")
    with op.batch_alter_table("progress_samples", schema=None) as batch_op:
        batch_op.drop_column("phase")
    with op.batch_alter_table("runs", schema=None) as batch_op:
        batch_op.drop_column("precondition")
    with op.batch_alter_table("results", schema=None) as batch_op:
        batch_op.drop_column("steady_state")
