"""result history indexes for filters and keyset pages (helper: scale)

Revision ID: a7d4e5f6b8c9
Revises: f6c3d4e5a7b8
Create Date: 2026-11-23 15:20:00
"""

from collections.abc import Sequence

revision: str = "a7d4e5f6b8c9"
down_revision: str | None = "f6c3d4e5a7b8"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
