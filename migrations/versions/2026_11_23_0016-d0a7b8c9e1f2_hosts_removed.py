"""hosts: removed hosts keep their history (helper: fleet)

A removed host disappears from lists and pickers; its runs and results stay. Its name is free
again for a new host, so a host's name is unique among the team's hosts that are not removed.

Revision ID: d0a7b8c9e1f2
Revises: c9f6a7b8d0e1
Create Date: 2026-11-23 15:20:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "d0a7b8c9e1f2"
down_revision: str | None = "c9f6a7b8d0e1"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_ACTIVE = sa.text("removed_at IS NULL")


def upgrade() -> None:
    with op.batch_alter_table("hosts", schema=None) as batch_op:
        batch_op.add_column(sa.Column("removed_at", sa.DateTime(timezone=True), nullable=True))
        batch_op.drop_constraint("uq_hosts_team_id", type_="unique")
    op.create_index(
        "uq_hosts_team_id_name_active",
        "hosts",
        ["team_id", "name"],
        unique=True,
        postgresql_where=_ACTIVE,
        sqlite_where=_ACTIVE,
    )


def downgrade() -> None:
    op.drop_index("uq_hosts_team_id_name_active", table_name="hosts")
    # Removed hosts whose name a later host took are renamed, so the old constraint holds again.
    op.execute("UPDATE hosts SET name = name || '~' || CAST(id AS VARCHAR) WHERE removed_at IS NOT NULL")
    with op.batch_alter_table("hosts", schema=None) as batch_op:
        batch_op.create_unique_constraint("uq_hosts_team_id", ["team_id", "name"])
        batch_op.drop_column("removed_at")
