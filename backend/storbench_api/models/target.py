"""Storage targets: a directory or block device on one host."""

import enum

from sqlalchemy import Enum, Float, ForeignKey, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from storbench_api.db import Base, TimestampMixin
from storbench_api.models.host import Host


class TargetKind(enum.StrEnum):
    """What fio is pointed at."""

    directory = "directory"
    block_device = "block_device"


class Target(TimestampMixin, Base):
    """Where a run's fio jobs do their I/O."""

    __tablename__ = "targets"
    __table_args__ = (UniqueConstraint("team_id", "name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    team_id: Mapped[int] = mapped_column(ForeignKey("teams.id", ondelete="CASCADE"), index=True)
    host_id: Mapped[int] = mapped_column(ForeignKey("hosts.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(120))
    path: Mapped[str] = mapped_column(String(1024))
    kind: Mapped[TargetKind] = mapped_column(Enum(TargetKind, native_enum=False, length=16))
    # A free label, or the name of the storage class the target is judged by.
    storage_class: Mapped[str | None] = mapped_column(String(120))
    storage_class_id: Mapped[int | None] = mapped_column(
        ForeignKey("storage_classes.id", ondelete="SET NULL"), index=True
    )
    # What was provisioned: the spec's formulas are evaluated at these figures.
    capacity_gib: Mapped[float | None] = mapped_column(Float)
    provisioned_iops: Mapped[float | None] = mapped_column(Float)
    provisioned_mbps: Mapped[float | None] = mapped_column(Float)
    description: Mapped[str | None] = mapped_column(Text)
    # Only an owner may mark a block device as one whose data may be destroyed.
    destructive: Mapped[bool] = mapped_column(default=False)

    host: Mapped[Host] = relationship(lazy="raise")
