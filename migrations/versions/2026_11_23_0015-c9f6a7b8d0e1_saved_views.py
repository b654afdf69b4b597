"""saved comparison views (helper: compare)

Revision ID: c9f6a7b8d0e1
Revises: b8e5f6a7c9d0
Create Date: 2026-11-23 15:20:00
"""

from collections.abc import Sequence

revision: str = "c9f6a7b8d0e1"
down_revision: str | None = "b8e5f6a7c9d0"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
