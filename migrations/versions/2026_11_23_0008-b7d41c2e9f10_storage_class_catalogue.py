"""storage classes with versioned specs, seeded with the published catalogue

Revision ID: b7d41c2e9f10
Revises: 9c2f4e1a7b30
Create Date: 2026-11-23 13:30:00

The published figures (METHODOLOGY.md §3, as of this date) are data of this revision: a later
correction adds a new spec version in a new revision, so results keep the version they were
judged by.
"""

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from alembic import op

revision: str = "b7d41c2e9f10"
down_revision: str | None = "9c2f4e1a7b30"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_BLOCK_GUIDE = "cloud block-storage service's published disk specifications"
_PRACTITIONER = "practitioner's guide to disk testing"
_NAS_NOTES = (
    "Capacity here is the used capacity. Requests above the ceiling are throttled (latency rises). "
    "Official figures need several hosts."
)


def _line(
    metric: str, formula: str, workload: str = "any", low: str | None = None, note: str | None = None
) -> dict[str, Any]:
    line: dict[str, Any] = {"metric": metric, "workload": workload, "formula": formula}
    if low is not None:
        line["low_formula"] = low
    if note is not None:
        line["note"] = note
    return line


# name, vendor, product, tier, protocol, medium, source, spec
CATALOGUE: list[tuple[str, str, str, str, str, str, str, dict[str, Any]]] = [
    (
        "SSD cloud disk",
        "Cloud provider",
        "Cloud disk",
        "SSD",
        "block",
        "ssd",
        _BLOCK_GUIDE,
        {
            "expectations": [
                _line(
                    "iops",
                    "min(1200 + 30 * C, 20000)",
                    note="4-8 KiB blocks; ~17,200 at 16 KiB, ~9,600 at 32 KiB, ~4,800 at 64 KiB",
                ),
                _line("throughput", "min(80 + 0.5 * C, 300)"),
                _line("latency", "2", low="0.5", note="single stream"),
            ],
            "max_capacity_gib": 32768,
            "notes": "Worked check: 800 GiB gives min(1200 + 24000, 20000) = 20,000 IOPS; measured 20,126.",
        },
    ),
    (
        "Efficiency cloud disk",
        "Cloud provider",
        "Cloud disk",
        "efficiency",
        "block",
        "hybrid",
        _BLOCK_GUIDE,
        {
            "expectations": [
                _line("iops", "min(1000 + 6 * C, 3000)"),
                _line("throughput", "min(50 + 0.1 * C, 80)"),
                _line("latency", "3", low="1", note="single stream"),
            ],
            "max_capacity_gib": 32768,
        },
    ),
    (
        "Basic cloud disk",
        "Cloud provider",
        "Cloud disk",
        "basic",
        "block",
        "hdd",
        _BLOCK_GUIDE,
        {
            "expectations": [
                _line("throughput", "40", low="30"),
                _line("latency", "10", low="5", note="single stream"),
            ],
            "max_capacity_gib": 2000,
            "notes": "IOPS: 'a few hundred' (no exact figure published).",
        },
    ),
    (
        "Enhanced SSD (ESSD) cloud disk",
        "Cloud provider",
        "Cloud disk",
        "enhanced SSD",
        "block",
        "ssd",
        _BLOCK_GUIDE,
        {
            "expectations": [
                _line("iops", "min(1200 + 100 * C, 1000000)"),
                _line("throughput", "min(80 + 1 * C, 4000)"),
                _line("latency", "0.1", note="about 0.1 ms, single stream"),
            ],
            "max_capacity_gib": 32768,
        },
    ),
    (
        "Shared SSD block",
        "Cloud provider",
        "Shared block storage",
        "shared SSD",
        "block",
        "ssd",
        _BLOCK_GUIDE,
        {
            "expectations": [
                _line("iops", "min(40 * C, 30000)"),
                _line("throughput", "min(50 + 0.5 * C, 512)"),
                _line("latency", "0.5", note="single stream"),
            ],
            "max_capacity_gib": 32768,
            "min_hosts": 2,
            "notes": "32,768 GiB per disk, 128 TiB per instance; the figures need at least 2 hosts "
            "on the raw device.",
        },
    ),
    (
        "Shared efficiency block",
        "Cloud provider",
        "Shared block storage",
        "shared efficiency",
        "block",
        "hybrid",
        _BLOCK_GUIDE,
        {
            "expectations": [
                _line("iops", "min(1000 + 6 * C, 5000)"),
                _line("throughput", "min(50 + 0.15 * C, 160)"),
                _line("latency", "1", note="single stream"),
            ],
            "max_capacity_gib": 32768,
            "min_hosts": 2,
            "notes": "The figures need at least 2 hosts on the raw device.",
        },
    ),
    (
        "NAS capacity type",
        "Cloud provider",
        "NAS service",
        "capacity type",
        "nfs",
        "hdd",
        "general-purpose NAS service's performance guide",
        {
            "expectations": [
                _line(
                    "throughput",
                    "0.15 * C",
                    note="ceiling grows with used capacity (+1000 GiB adds ~150 MB/s); "
                    "one host ~150 MB/s, never above its NIC",
                ),
                _line("iops", "14000", workload="random_read", note="one host, 4 KiB, iodepth 128"),
                _line("iops", "10000", workload="random_write", note="one host, 4 KiB, iodepth 128"),
            ],
            "notes": _NAS_NOTES,
        },
    ),
    (
        "NAS performance type",
        "Cloud provider",
        "NAS service",
        "performance type",
        "nfs",
        "ssd",
        "general-purpose NAS service's performance guide",
        {
            "expectations": [
                _line(
                    "throughput",
                    "0.6 * C",
                    note="ceiling grows with used capacity (+1000 GiB adds ~600 MB/s); "
                    "one host ~300 MB/s, never above its NIC",
                ),
                _line("iops", "14000", workload="random_read", note="one host, 4 KiB, iodepth 128"),
                _line("iops", "10000", workload="random_write", note="one host, 4 KiB, iodepth 128"),
            ],
            "notes": _NAS_NOTES,
        },
    ),
    (
        "Cloud file system standard",
        "Cloud provider",
        "Cloud file system",
        "standard",
        "cfs",
        "unknown",
        "cloud file system service's performance guide",
        {
            "expectations": [
                _line(
                    "latency",
                    "7",
                    workload="random_write",
                    note="4 KiB write, single stream, client in the same zone",
                ),
            ],
            "notes": "Figures other than latency need many client hosts.",
        },
    ),
    (
        "Cloud file system turbo standard",
        "Cloud provider",
        "Cloud file system",
        "turbo standard",
        "cfs",
        "ssd",
        "cloud file system service's performance guide",
        {
            "expectations": [
                _line(
                    "throughput",
                    "2 * 1073.741824",
                    note="a 20 TiB turbo standard file system starts at 2 GiB/s",
                ),
            ],
            "min_capacity_gib": 20480,
            "min_hosts": 8,
            "notes": "A 2 Gbps client reaches ~0.25 GiB/s, so 2 GiB/s needs ~8 such clients at once.",
        },
    ),
    (
        "HDD 7,200 rpm",
        "Generic",
        "Hard disk",
        "7,200 rpm",
        "block",
        "hdd",
        _PRACTITIONER,
        {
            "expectations": [
                _line(
                    "iops",
                    "1000 / (9 + 4.17)",
                    workload="random_read",
                    note="1000 ms / (seek + half a revolution)",
                ),
                _line(
                    "iops",
                    "1000 / (9 + 4.17)",
                    workload="random_write",
                    note="1000 ms / (seek + half a revolution)",
                ),
                _line("latency", "9 + 4.17", note="typical seek + rotational latency"),
            ],
        },
    ),
    (
        "HDD 10,000 rpm",
        "Generic",
        "Hard disk",
        "10,000 rpm",
        "block",
        "hdd",
        _PRACTITIONER,
        {
            "expectations": [
                _line(
                    "iops",
                    "1000 / (6 + 3)",
                    workload="random_read",
                    note="1000 ms / (seek + half a revolution)",
                ),
                _line(
                    "iops",
                    "1000 / (6 + 3)",
                    workload="random_write",
                    note="1000 ms / (seek + half a revolution)",
                ),
                _line("latency", "6 + 3", note="typical seek + rotational latency"),
            ],
        },
    ),
    (
        "HDD 15,000 rpm",
        "Generic",
        "Hard disk",
        "15,000 rpm",
        "block",
        "hdd",
        _PRACTITIONER,
        {
            "expectations": [
                _line(
                    "iops",
                    "1000 / (4 + 2)",
                    workload="random_read",
                    note="1000 ms / (seek + half a revolution)",
                ),
                _line(
                    "iops",
                    "1000 / (4 + 2)",
                    workload="random_write",
                    note="1000 ms / (seek + half a revolution)",
                ),
                _line("latency", "4 + 2", note="typical seek + rotational latency"),
            ],
        },
    ),
    (
        "SATA HDD (measured)",
        "Generic",
        "Hard disk",
        "SATA",
        "block",
        "hdd",
        _PRACTITIONER,
        {
            "expectations": [
                _line("throughput", "124", workload="sequential_read", note="4 KiB, iodepth 32 (31k IOPS)"),
                _line("iops", "114", workload="random_read", note="4 KiB, iodepth 32"),
                _line("iops", "134", workload="random_write", note="4 KiB, iodepth 32"),
            ],
            "notes": "4 KiB random write stays ~332 IOPS from QD 1 to 256 while mean latency "
            "doubles with each doubling of QD.",
        },
    ),
    (
        "SAS HDD (measured)",
        "Generic",
        "Hard disk",
        "SAS",
        "block",
        "hdd",
        _PRACTITIONER,
        {
            "expectations": [
                _line("throughput", "190", workload="sequential_read", note="4 KiB, iodepth 32"),
                _line("iops", "456", workload="random_read", note="4 KiB, iodepth 32"),
                _line("iops", "512", workload="random_write", note="4 KiB, iodepth 32"),
            ],
        },
    ),
    (
        "SSD (measured)",
        "Generic",
        "Solid-state drive",
        "SATA/SAS SSD",
        "block",
        "ssd",
        _PRACTITIONER,
        {
            "expectations": [
                _line("iops", "129000", workload="random_read", note="4 KiB, iodepth 32 (505 MB/s)"),
                _line("iops", "140000", workload="random_write", note="4 KiB, iodepth 32"),
            ],
        },
    ),
]


def upgrade() -> None:
    classes = op.create_table(
        "storage_classes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("team_id", sa.Integer(), nullable=True),
        sa.Column("name", sa.String(length=120), nullable=False),
        sa.Column("vendor", sa.String(length=120), nullable=False),
        sa.Column("product", sa.String(length=120), nullable=False),
        sa.Column("tier", sa.String(length=120), nullable=False),
        sa.Column(
            "protocol",
            sa.Enum("block", "nfs", "smb", "cfs", name="protocol", native_enum=False, length=16),
            nullable=False,
        ),
        sa.Column(
            "medium",
            sa.Enum("ssd", "hdd", "hybrid", "unknown", name="medium", native_enum=False, length=16),
            nullable=False,
        ),
        sa.Column("source", sa.Text(), nullable=False),
        sa.Column("current_version", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["team_id"], ["teams.id"], name=op.f("fk_storage_classes_team_id_teams"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_storage_classes")),
        sa.UniqueConstraint("team_id", "name", name=op.f("uq_storage_classes_team_id")),
    )
    op.create_index(op.f("ix_storage_classes_team_id"), "storage_classes", ["team_id"], unique=False)
    specs = op.create_table(
        "storage_class_specs",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("storage_class_id", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("expectations", sa.JSON(), nullable=False),
        sa.Column("min_capacity_gib", sa.Float(), nullable=True),
        sa.Column("max_capacity_gib", sa.Float(), nullable=True),
        sa.Column("min_hosts", sa.Integer(), nullable=False),
        sa.Column("price_per_gib_month", sa.Float(), nullable=True),
        sa.Column("notes", sa.Text(), nullable=True),
        sa.Column("created_by", sa.String(length=255), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["storage_class_id"],
            ["storage_classes.id"],
            name=op.f("fk_storage_class_specs_storage_class_id_storage_classes"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_storage_class_specs")),
        sa.UniqueConstraint(
            "storage_class_id", "version", name=op.f("uq_storage_class_specs_storage_class_id")
        ),
    )
    op.create_index(
        op.f("ix_storage_class_specs_storage_class_id"),
        "storage_class_specs",
        ["storage_class_id"],
        unique=False,
    )

    published = datetime(2026, 11, 23, tzinfo=UTC)
    op.bulk_insert(
        classes,
        [
            {
                "id": number,
                "team_id": None,
                "name": name,
                "vendor": vendor,
                "product": product,
                "tier": tier,
                "protocol": protocol,
                "medium": medium,
                "source": source,
                "current_version": 1,
                "created_at": published,
                "updated_at": published,
            }
            for number, (name, vendor, product, tier, protocol, medium, source, _) in enumerate(
                CATALOGUE, start=1
            )
        ],
    )
    op.bulk_insert(
        specs,
        [
            {
                "id": number,
                "storage_class_id": number,
                "version": 1,
                "expectations": spec["expectations"],
                "min_capacity_gib": spec.get("min_capacity_gib"),
                "max_capacity_gib": spec.get("max_capacity_gib"),
                "min_hosts": spec.get("min_hosts", 1),
                "price_per_gib_month": None,
                "notes": spec.get("notes"),
                "created_by": "storbench published catalogue",
                "created_at": published,
            }
            for number, (*_, spec) in enumerate(CATALOGUE, start=1)
        ],
    )
    if op.get_bind().dialect.name == "postgresql":
        # Rows were inserted with explicit ids: move the sequences past them.
        for table in ("storage_classes", "storage_class_specs"):
            op.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), (SELECT max(id) FROM {table}))"
            )


def downgrade() -> None:
    op.drop_index(op.f("ix_storage_class_specs_storage_class_id"), table_name="storage_class_specs")
    op.drop_table("storage_class_specs")
    op.drop_index(op.f("ix_storage_classes_team_id"), table_name="storage_classes")
    op.drop_table("storage_classes")
