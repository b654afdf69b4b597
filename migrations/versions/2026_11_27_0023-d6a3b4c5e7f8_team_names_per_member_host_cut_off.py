"""teams: names no longer unique across the instance; hosts: why one was revoked

Revision ID: d6a3b4c5e7f8
Revises: e7b4c5d6f8a9
Create Date: 2026-11-27 18:00:00

A team name unique across the instance told anyone allowed to create teams which names other teams
had (409 "already exists"). Names are now unique only among the teams one user belongs to, checked
by the service, so the constraint goes. Downgrade puts it back, and fails if two teams share a name.

A host cut off by the service (it wrote past its broker budget) says why in revoked_reason; one
revoked by an owner has none.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "d6a3b4c5e7f8"
down_revision: str | None = "e7b4c5d6f8a9"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("teams", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("uq_teams_name"), type_="unique")
    with op.batch_alter_table("hosts", schema=None) as batch_op:
        batch_op.add_column(sa.Column("revoked_reason", sa.String(length=300), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("hosts", schema=None) as batch_op:
        batch_op.drop_column("revoked_reason")
    with op.batch_alter_table("teams", schema=None) as batch_op:
        batch_op.create_unique_constraint(batch_op.f("uq_teams_name"), ["name"])
