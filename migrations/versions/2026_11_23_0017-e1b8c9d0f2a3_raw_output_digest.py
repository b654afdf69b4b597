"""raw outputs: content digest for duplicate imports (helper: results controls)

Revision ID: e1b8c9d0f2a3
Revises: d0a7b8c9e1f2
Create Date: 2026-11-23 15:20:00
"""

import gzip
import hashlib
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "e1b8c9d0f2a3"
down_revision: str | None = "d0a7b8c9e1f2"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_BATCH = 200


def upgrade() -> None:
    with op.batch_alter_table("raw_outputs", schema=None) as batch_op:
        batch_op.add_column(sa.Column("sha256", sa.String(length=64), nullable=True))
        batch_op.create_index("ix_raw_outputs_team_id_sha256", ["team_id", "sha256"], unique=False)
    # Outputs stored before this revision get their digest too, so re-importing them is recognised.
    bind = op.get_bind()
    raw = sa.table(
        "raw_outputs",
        sa.column("id", sa.Integer),
        sa.column("content_gz", sa.LargeBinary),
        sa.column("sha256", sa.String),
    )
    last = 0
    while True:
        rows = bind.execute(
            sa.select(raw.c.id, raw.c.content_gz).where(raw.c.id > last).order_by(raw.c.id).limit(_BATCH)
        ).all()
        if not rows:
            break
        for row_id, content in rows:
            digest = hashlib.sha256(gzip.decompress(content)).hexdigest()
            bind.execute(sa.update(raw).where(raw.c.id == row_id).values(sha256=digest))
        last = rows[-1][0]


def downgrade() -> None:
    with op.batch_alter_table("raw_outputs", schema=None) as batch_op:
        batch_op.drop_index("ix_raw_outputs_team_id_sha256")
        batch_op.drop_column("sha256")
