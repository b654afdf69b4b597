"""webhooks: signing secrets sealed at rest

Revision ID: c5f2a3b4d6e7
Revises: b4e1f2a3c5d6
Create Date: 2026-11-24 12:00:00

Webhook signing secrets were stored in the clear, so a copy of the database (a backup, a read
replica) was enough to forge deliveries any receiver would trust. They are now sealed (Fernet) under
a key derived from STORBENCH_SECRET_KEY, read here through the app's settings: the column widens to
hold the token (164 characters for a 49-character secret), and every plain secret, recognisable by
its "whsec_" prefix (a Fernet token starts with "gAAAAA"), is sealed. Deliveries never held a copy.
Downgrade opens them again (it needs the same server key) and narrows the column back.
"""

from collections.abc import Callable, Sequence

import sqlalchemy as sa
from alembic import op

from storbench_api.security import seal, unseal
from storbench_api.webhooks.signing import SECRET_PREFIX

revision: str = "c5f2a3b4d6e7"
down_revision: str | None = "b4e1f2a3c5d6"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_WEBHOOKS = sa.table("webhooks", sa.column("id", sa.Integer), sa.column("secret", sa.String))


def _rewrite(*, plain: bool, change: Callable[[str], str]) -> None:
    """Apply change (seal or unseal) to every secret that is (plain) or is not (sealed) in the clear."""
    connection = op.get_bind()
    prefixed = _WEBHOOKS.c.secret.startswith(SECRET_PREFIX)
    rows = connection.execute(
        sa.select(_WEBHOOKS.c.id, _WEBHOOKS.c.secret).where(prefixed if plain else ~prefixed)
    ).all()
    for webhook_id, secret in rows:
        connection.execute(
            _WEBHOOKS.update().where(_WEBHOOKS.c.id == webhook_id).values(secret=change(secret))
        )


def upgrade() -> None:
    with op.batch_alter_table("webhooks") as batch:
        batch.alter_column(
            "secret",
            existing_type=sa.String(length=128),
            type_=sa.String(length=256),
            existing_nullable=False,
        )
    _rewrite(plain=True, change=seal)


def downgrade() -> None:
    _rewrite(plain=False, change=unseal)
    with op.batch_alter_table("webhooks") as batch:
        batch.alter_column(
            "secret",
            existing_type=sa.String(length=256),
            type_=sa.String(length=128),
            existing_nullable=False,
        )
