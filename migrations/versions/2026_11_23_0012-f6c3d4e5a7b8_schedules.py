"""schedules and their firings (helper: schedules)

Revision ID: f6c3d4e5a7b8
Revises: e5b2c3d4f6a7
Create Date: 2026-11-23 15:20:00
"""

from collections.abc import Sequence

revision: str = "f6c3d4e5a7b8"
down_revision: str | None = "e5b2c3d4f6a7"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
