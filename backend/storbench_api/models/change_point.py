"""Changes found in a team's history, and the team's policy for finding them."""

from datetime import datetime

from sqlalchemy import Float, ForeignKey, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from storbench_api.db import Base, utcnow


class ChangePoint(Base):
    """A regression or improvement of one figure of one series, starting at `result_id`.

    A series is (team, target, job name, direction, metric, fingerprint); the figures come from
    result_directions. The same change (same first result, direction and metric) is stored once.
    """

    __tablename__ = "change_points"
    __table_args__ = (
        UniqueConstraint("result_id", "direction", "metric"),
        Index("ix_change_points_series", "team_id", "target_id", "job_name", "direction", "metric"),
        Index("ix_change_points_team_detected", "team_id", "detected_at", "id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    team_id: Mapped[int] = mapped_column(ForeignKey("teams.id", ondelete="CASCADE"))
    target_id: Mapped[int] = mapped_column(ForeignKey("targets.id", ondelete="CASCADE"))
    job_name: Mapped[str] = mapped_column(String(120))
    direction: Mapped[str] = mapped_column(String(8))
    metric: Mapped[str] = mapped_column(String(32))
    fingerprint: Mapped[str | None] = mapped_column(String(64))
    # The first result of the new level, and when it was measured (trend marks need no join).
    result_id: Mapped[int] = mapped_column(ForeignKey("results.id", ondelete="CASCADE"), index=True)
    measured_at: Mapped[datetime]
    kind: Mapped[str] = mapped_column(String(16))
    before_median: Mapped[float] = mapped_column(Float)
    after_median: Mapped[float] = mapped_column(Float)
    ratio: Mapped[float] = mapped_column(Float)
    p_value: Mapped[float | None] = mapped_column(Float)
    method: Mapped[str] = mapped_column(String(64))
    detected_at: Mapped[datetime] = mapped_column(default=utcnow)
    acknowledged_at: Mapped[datetime | None]
    acknowledged_by: Mapped[str | None] = mapped_column(String(254))
    comment: Mapped[str | None] = mapped_column(Text)
    # The step this change belongs to: the id of the first change found at the same result (same
    # target, job and kind). IOPS, bandwidth, mean and p99 latency falling at one step are one
    # regression to review: listed once, acknowledged together.
    step_id: Mapped[int | None] = mapped_column(Integer, index=True)


class ChangePointPolicy(Base):
    """How a team finds changes: E-divisive (default, no threshold) or a percent / z-score threshold."""

    __tablename__ = "change_point_policies"

    team_id: Mapped[int] = mapped_column(ForeignKey("teams.id", ondelete="CASCADE"), primary_key=True)
    method: Mapped[str] = mapped_column(String(16))
    threshold: Mapped[float | None] = mapped_column(Float)
    min_points_after: Mapped[int] = mapped_column(Integer)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)
    updated_by: Mapped[str | None] = mapped_column(String(254))
