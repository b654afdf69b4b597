"""results: when fio measured them, repetition, comparability fingerprint; runs: repetitions, label, note

Revision ID: d4a1b2c3e5f6
Revises: c3a9e5f1d2b4
Create Date: 2026-11-23 15:20:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "d4a1b2c3e5f6"
down_revision: str | None = "c3a9e5f1d2b4"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("results", schema=None) as batch_op:
        batch_op.add_column(sa.Column("measured_at", sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column("repetition", sa.Integer(), server_default="0", nullable=False))
        batch_op.add_column(sa.Column("fingerprint", sa.String(length=64), nullable=True))
        batch_op.add_column(
            sa.Column("comparability", sa.JSON(), server_default=sa.text("'{}'"), nullable=False)
        )
        batch_op.create_index(batch_op.f("ix_results_fingerprint"), ["fingerprint"], unique=False)
    op.execute("UPDATE results SET measured_at = created_at WHERE measured_at IS NULL")
    with op.batch_alter_table("results", schema=None) as batch_op:
        batch_op.alter_column("measured_at", existing_type=sa.DateTime(timezone=True), nullable=False)

    with op.batch_alter_table("runs", schema=None) as batch_op:
        batch_op.add_column(sa.Column("repetitions", sa.Integer(), server_default="1", nullable=False))
        batch_op.add_column(sa.Column("label", sa.String(length=200), nullable=True))
        batch_op.add_column(sa.Column("note", sa.Text(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("runs", schema=None) as batch_op:
        batch_op.drop_column("note")
        batch_op.drop_column("label")
        batch_op.drop_column("repetitions")
    with op.batch_alter_table("results", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_results_fingerprint"))
        batch_op.drop_column("comparability")
        batch_op.drop_column("fingerprint")
        batch_op.drop_column("repetition")
        batch_op.drop_column("measured_at")
