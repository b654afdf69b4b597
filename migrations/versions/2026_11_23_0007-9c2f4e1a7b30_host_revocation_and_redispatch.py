"""host revocation, assignment redispatch, enrollment tokens that replace a host

Revision ID: 9c2f4e1a7b30
Revises: 5b1e0c7d9a42
Create Date: 2026-11-23 11:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "9c2f4e1a7b30"
down_revision: str | None = "5b1e0c7d9a42"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("hosts", schema=None) as batch_op:
        batch_op.add_column(sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True))

    with op.batch_alter_table("assignments", schema=None) as batch_op:
        batch_op.add_column(sa.Column("dispatched_at", sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column("fetched_at", sa.DateTime(timezone=True), nullable=True))

    with op.batch_alter_table("enrollment_tokens", schema=None) as batch_op:
        batch_op.add_column(sa.Column("replaces_host_id", sa.Integer(), nullable=True))
        batch_op.create_foreign_key(
            batch_op.f("fk_enrollment_tokens_replaces_host_id_hosts"),
            "hosts",
            ["replaces_host_id"],
            ["id"],
            ondelete="CASCADE",
        )


def downgrade() -> None:
    with op.batch_alter_table("enrollment_tokens", schema=None) as batch_op:
        batch_op.drop_constraint(
            batch_op.f("fk_enrollment_tokens_replaces_host_id_hosts"), type_="foreignkey"
        )
        batch_op.drop_column("replaces_host_id")

    with op.batch_alter_table("assignments", schema=None) as batch_op:
        batch_op.drop_column("fetched_at")
        batch_op.drop_column("dispatched_at")

    with op.batch_alter_table("hosts", schema=None) as batch_op:
        batch_op.drop_column("revoked_at")
