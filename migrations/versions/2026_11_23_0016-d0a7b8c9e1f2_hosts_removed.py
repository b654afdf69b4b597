"""hosts: removed hosts keep their history (helper: fleet)

Revision ID: d0a7b8c9e1f2
Revises: c9f6a7b8d0e1
Create Date: 2026-11-23 15:20:00
"""

from collections.abc import Sequence

revision: str = "d0a7b8c9e1f2"
down_revision: str | None = "c9f6a7b8d0e1"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
