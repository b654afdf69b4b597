"""saved comparison views (helper: compare)

Revision ID: c9f6a7b8d0e1
Revises: b8e5f6a7c9d0
Create Date: 2026-11-23 15:20:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "c9f6a7b8d0e1"
down_revision: str | None = "b8e5f6a7c9d0"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "saved_views",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("team_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=120), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("query", sa.JSON(), nullable=False),
        sa.Column("created_by_id", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["created_by_id"],
            ["users.id"],
            name=op.f("fk_saved_views_created_by_id_users"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["team_id"], ["teams.id"], name=op.f("fk_saved_views_team_id_teams"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_saved_views")),
        sa.UniqueConstraint("team_id", "name", name=op.f("uq_saved_views_team_id")),
    )
    with op.batch_alter_table("saved_views", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_saved_views_team_id"), ["team_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("saved_views", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_saved_views_team_id"))
    op.drop_table("saved_views")
