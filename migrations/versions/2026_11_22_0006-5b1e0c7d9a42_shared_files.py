"""shared files: hosts of a run may share one set of files

Revision ID: 5b1e0c7d9a42
Revises: 3626d8c5b971
Create Date: 2026-11-22 08:05:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "5b1e0c7d9a42"
down_revision: str | None = "3626d8c5b971"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("plans", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("shared_files", sa.Boolean(), server_default=sa.false(), nullable=False)
        )

    with op.batch_alter_table("runs", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("shared_files", sa.Boolean(), server_default=sa.false(), nullable=False)
        )


def downgrade() -> None:
    with op.batch_alter_table("runs", schema=None) as batch_op:
        batch_op.drop_column("shared_files")

    with op.batch_alter_table("plans", schema=None) as batch_op:
        batch_op.drop_column("shared_files")
