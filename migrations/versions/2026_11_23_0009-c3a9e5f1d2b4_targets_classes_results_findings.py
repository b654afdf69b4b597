"""targets carry a storage class and provisioned figures; results their spec checks and findings

Revision ID: c3a9e5f1d2b4
Revises: b7d41c2e9f10
Create Date: 2026-11-23 14:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "c3a9e5f1d2b4"
down_revision: str | None = "b7d41c2e9f10"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

EMPTY_LIST = sa.text("'[]'")


def upgrade() -> None:
    with op.batch_alter_table("targets", schema=None) as batch_op:
        batch_op.add_column(sa.Column("storage_class_id", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("capacity_gib", sa.Float(), nullable=True))
        batch_op.add_column(sa.Column("provisioned_iops", sa.Float(), nullable=True))
        batch_op.add_column(sa.Column("provisioned_mbps", sa.Float(), nullable=True))
        batch_op.create_index(batch_op.f("ix_targets_storage_class_id"), ["storage_class_id"], unique=False)
        batch_op.create_foreign_key(
            batch_op.f("fk_targets_storage_class_id_storage_classes"),
            "storage_classes",
            ["storage_class_id"],
            ["id"],
            ondelete="SET NULL",
        )

    with op.batch_alter_table("results", schema=None) as batch_op:
        batch_op.add_column(sa.Column("error", sa.Integer(), server_default="0", nullable=False))
        batch_op.add_column(sa.Column("storage_class_spec_id", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("spec_checks", sa.JSON(), server_default=EMPTY_LIST, nullable=False))
        batch_op.add_column(sa.Column("findings", sa.JSON(), server_default=EMPTY_LIST, nullable=False))
        batch_op.create_index(
            batch_op.f("ix_results_storage_class_spec_id"), ["storage_class_spec_id"], unique=False
        )
        batch_op.create_foreign_key(
            batch_op.f("fk_results_storage_class_spec_id_storage_class_specs"),
            "storage_class_specs",
            ["storage_class_spec_id"],
            ["id"],
            ondelete="SET NULL",
        )


def downgrade() -> None:
    with op.batch_alter_table("results", schema=None) as batch_op:
        batch_op.drop_constraint(
            batch_op.f("fk_results_storage_class_spec_id_storage_class_specs"), type_="foreignkey"
        )
        batch_op.drop_index(batch_op.f("ix_results_storage_class_spec_id"))
        batch_op.drop_column("findings")
        batch_op.drop_column("spec_checks")
        batch_op.drop_column("storage_class_spec_id")
        batch_op.drop_column("error")

    with op.batch_alter_table("targets", schema=None) as batch_op:
        batch_op.drop_constraint(
            batch_op.f("fk_targets_storage_class_id_storage_classes"), type_="foreignkey"
        )
        batch_op.drop_index(batch_op.f("ix_targets_storage_class_id"))
        batch_op.drop_column("provisioned_mbps")
        batch_op.drop_column("provisioned_iops")
        batch_op.drop_column("capacity_gib")
        batch_op.drop_column("storage_class_id")
