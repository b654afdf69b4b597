"""compare: the grouped-by-class rollup

Revision ID: a3d0e1f2b4c5
Revises: f2c9d0e1a3b4
Create Date: 2026-11-23 18:30:00
"""

from collections.abc import Sequence

revision: str = "a3d0e1f2b4c5"
down_revision: str | None = "f2c9d0e1a3b4"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
