"""history: change points, webhooks and their deliveries (helper: history)

Revision ID: e5b2c3d4f6a7
Revises: d4a1b2c3e5f6
Create Date: 2026-11-23 15:20:00
"""

from collections.abc import Sequence

revision: str = "e5b2c3d4f6a7"
down_revision: str | None = "d4a1b2c3e5f6"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
