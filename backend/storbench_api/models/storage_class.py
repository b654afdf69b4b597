"""Storage classes (a vendor's disk class, NAS type or file-system tier) and their versioned specs."""

import enum
from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Enum, Float, ForeignKey, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from storbench_api.db import Base, TimestampMixin, utcnow


class Protocol(enum.StrEnum):
    """How a client reaches the storage."""

    block = "block"
    nfs = "nfs"
    smb = "smb"
    cfs = "cfs"


class Medium(enum.StrEnum):
    """What stores the bytes, as the vendor describes it."""

    ssd = "ssd"
    hdd = "hdd"
    hybrid = "hybrid"
    unknown = "unknown"


class StorageClass(TimestampMixin, Base):
    """A class of storage one can buy; team_id NULL for the published catalogue."""

    __tablename__ = "storage_classes"
    __table_args__ = (UniqueConstraint("team_id", "name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    team_id: Mapped[int | None] = mapped_column(ForeignKey("teams.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(120))
    vendor: Mapped[str] = mapped_column(String(120))
    product: Mapped[str] = mapped_column(String(120))
    # The class or tier within the product ("SSD", "capacity type", "turbo standard").
    tier: Mapped[str] = mapped_column(String(120))
    protocol: Mapped[Protocol] = mapped_column(Enum(Protocol, native_enum=False, length=16))
    medium: Mapped[Medium] = mapped_column(Enum(Medium, native_enum=False, length=16))
    # Where the figures come from (a vendor guide, a practitioner's measurement).
    source: Mapped[str] = mapped_column(Text)
    current_version: Mapped[int] = mapped_column(default=1)

    specs: Mapped[list["StorageClassSpec"]] = relationship(
        back_populates="storage_class", lazy="raise", order_by="StorageClassSpec.version"
    )


class StorageClassSpec(Base):
    """One version of a class's spec; never changed once written, so results keep theirs."""

    __tablename__ = "storage_class_specs"
    __table_args__ = (UniqueConstraint("storage_class_id", "version"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    storage_class_id: Mapped[int] = mapped_column(
        ForeignKey("storage_classes.id", ondelete="CASCADE"), index=True
    )
    version: Mapped[int] = mapped_column()
    # [{metric, workload, formula, low_formula?, note?}]: see storage_classes.schemas.Expectation.
    expectations: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    min_capacity_gib: Mapped[float | None] = mapped_column(Float)
    max_capacity_gib: Mapped[float | None] = mapped_column(Float)
    # Hosts needed at once to reach the published figures (shared block, file systems).
    min_hosts: Mapped[int] = mapped_column(default=1)
    price_per_gib_month: Mapped[float | None] = mapped_column(Float)
    notes: Mapped[str | None] = mapped_column(Text)
    created_by: Mapped[str] = mapped_column(String(255))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    storage_class: Mapped[StorageClass] = relationship(back_populates="specs", lazy="raise")
