"""The grouped view's rollup: per team, target, class, job and figure, counts and a histogram.

Kept up to date in the transaction that stores or deletes results (storbench_api/rollup), so the common
grouped question ("by class, by vendor, by block size…") reads a few thousand small rows instead of
every result. Absent values are stored as sentinels so the unique key never holds NULL (NULLs are
distinct in a unique index): target_id 0, storage_class '', storage_class_spec_id 0 and
capacity_gib -1 (the result's comparability stored no capacity: the target's is read at query time).
"""

from typing import Any

from sqlalchemy import JSON, Float, ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from storbench_api.db import Base


class GroupRollup(Base):
    """n, exact min and max, and a log-binned histogram of one figure of one kind of result."""

    __tablename__ = "group_rollups"
    __table_args__ = (
        Index(
            "uq_group_rollups_key",
            "team_id",
            "direction",
            "figure",
            "target_id",
            "storage_class",
            "storage_class_spec_id",
            "capacity_gib",
            "job_name",
            "imported",
            "rw",
            "bs",
            "iodepth",
            "numjobs",
            unique=True,
        ),
        Index("ix_group_rollups_team_target", "team_id", "target_id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    team_id: Mapped[int] = mapped_column(ForeignKey("teams.id", ondelete="CASCADE"))
    direction: Mapped[str] = mapped_column(String(8))  # read, write, trim; "job" for CPU figures
    figure: Mapped[str] = mapped_column(String(24))
    target_id: Mapped[int] = mapped_column(Integer)  # 0: no target
    storage_class: Mapped[str] = mapped_column(String(120))  # '': none
    storage_class_spec_id: Mapped[int] = mapped_column(Integer)  # 0: none
    capacity_gib: Mapped[float] = mapped_column(Float)  # -1: not stored on the result
    job_name: Mapped[str] = mapped_column(String(120))
    imported: Mapped[bool] = mapped_column()
    rw: Mapped[str] = mapped_column(Text)
    bs: Mapped[str] = mapped_column(Text)
    iodepth: Mapped[str] = mapped_column(Text)
    numjobs: Mapped[str] = mapped_column(Text)
    n: Mapped[int] = mapped_column(Integer)
    zeros: Mapped[int] = mapped_column(Integer)  # values ≤ 0 (no logarithmic bin)
    low: Mapped[float] = mapped_column(Float)
    high: Mapped[float] = mapped_column(Float)
    # Sparse histogram, ascending: value v > 0 falls in bin floor(ln v / ln 1.01); counts[i] of bins[i].
    bins: Mapped[list[Any]] = mapped_column(JSON)
    counts: Mapped[list[Any]] = mapped_column(JSON)
