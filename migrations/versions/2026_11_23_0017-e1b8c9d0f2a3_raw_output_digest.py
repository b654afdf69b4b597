"""raw outputs: content digest for duplicate imports (helper: results controls)

Revision ID: e1b8c9d0f2a3
Revises: d0a7b8c9e1f2
Create Date: 2026-11-23 15:20:00
"""

from collections.abc import Sequence

revision: str = "e1b8c9d0f2a3"
down_revision: str | None = "d0a7b8c9e1f2"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
