"""plan versions, removed hosts, raw output digests (helper: everyday)

Revision ID: b8e5f6a7c9d0
Revises: a7d4e5f6b8c9
Create Date: 2026-11-23 15:20:00
"""

from collections.abc import Sequence

revision: str = "b8e5f6a7c9d0"
down_revision: str | None = "a7d4e5f6b8c9"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
