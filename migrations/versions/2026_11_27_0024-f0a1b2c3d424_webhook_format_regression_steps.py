"""webhooks: the shape of the message (storbench, slack, teams)

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


def downgrade() -> None:
    with op.batch_alter_table("webhooks", schema=None) as batch_op:
        batch_op.drop_column("format")
