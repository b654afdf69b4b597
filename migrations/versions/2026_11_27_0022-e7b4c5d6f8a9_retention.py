"""retention: how long each team keeps raw outputs and per-second series

Revision ID: e7b4c5d6f8a9
Revises: c5f2a3b4d6e7
Create Date: 2026-11-27 18:30:00

A team may keep fio's raw outputs and the per-second series of its runs for a number of days
(null: forever, what every team had so far); the summaries (results, their figures) are kept
forever. A pruned raw output keeps its row (size, digest: an identical output imported again is
still recognised) with its content emptied and the time it was pruned; a run whose series were
pruned says when, and keeps the multi-host aggregate those series gave.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "e7b4c5d6f8a9"
down_revision: str | None = "c5f2a3b4d6e7"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("teams") as batch:
        batch.add_column(sa.Column("raw_output_retention_days", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("series_retention_days", sa.Integer(), nullable=True))
    with op.batch_alter_table("raw_outputs") as batch:
        batch.add_column(sa.Column("pruned_at", sa.DateTime(timezone=True), nullable=True))
    with op.batch_alter_table("runs") as batch:
        batch.add_column(sa.Column("series_pruned_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("kept_aggregate", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("runs") as batch:
        batch.drop_column("kept_aggregate")
        batch.drop_column("series_pruned_at")
    with op.batch_alter_table("raw_outputs") as batch:
        batch.drop_column("pruned_at")
    with op.batch_alter_table("teams") as batch:
        batch.drop_column("series_retention_days")
        batch.drop_column("raw_output_retention_days")
