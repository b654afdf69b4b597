"""history: covering indexes for the trend and the previous-run query

Revision ID: f2c9d0e1a3b4
Revises: e1b8c9d0f2a3
Create Date: 2026-11-23 18:30:00
"""

from collections.abc import Sequence

revision: str = "f2c9d0e1a3b4"
down_revision: str | None = "e1b8c9d0f2a3"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
