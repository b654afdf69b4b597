"""Recurring runs of a plan on a target, and every slot they fired (or missed)."""

import enum
from datetime import datetime

from sqlalchemy import JSON, Enum, ForeignKey, String, Text, UniqueConstraint, true
from sqlalchemy.orm import Mapped, mapped_column

from storbench_api.db import Base, TimestampMixin, utcnow


class FiringStatus(enum.StrEnum):
    """What became of one slot of a schedule."""

    started = "started"  # a run was started
    missed = "missed"  # the slot passed while nothing could fire it (scheduler down, superseded)
    failed = "failed"  # the slot fired but the run was refused (target gone, creator removed, …)
    run_failed = "run_failed"  # the run started, then failed (fio, the host); the reason is the run's


class Schedule(TimestampMixin, Base):
    """Runs a plan on a target at every slot of a cron expression in a timezone."""

    __tablename__ = "schedules"

    id: Mapped[int] = mapped_column(primary_key=True)
    team_id: Mapped[int] = mapped_column(ForeignKey("teams.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(120))
    plan_id: Mapped[int] = mapped_column(ForeignKey("plans.id", ondelete="CASCADE"), index=True)
    target_id: Mapped[int] = mapped_column(ForeignKey("targets.id", ondelete="CASCADE"), index=True)
    # Five-field cron ("minute hour day-of-month month day-of-week") read in `timezone` (IANA).
    cron: Mapped[str] = mapped_column(String(120))
    timezone: Mapped[str] = mapped_column(String(64))
    enabled: Mapped[bool] = mapped_column(default=True, server_default=true())
    label: Mapped[str | None] = mapped_column(String(200))
    repetitions: Mapped[int] = mapped_column(default=1, server_default="1")
    host_ids: Mapped[list[int] | None] = mapped_column(JSON)
    # The run starts with this user's rights, checked at every slot.
    created_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    # Slots before this instant are not owed (set at creation and when re-enabled).
    active_since: Mapped[datetime] = mapped_column(default=utcnow)
    # The next slot due, kept so the scheduler reads only due schedules.
    next_fire_at: Mapped[datetime | None] = mapped_column(index=True)


class ScheduleFiring(Base):
    """One slot of a schedule: started, missed or failed, with the reason."""

    __tablename__ = "schedule_firings"
    # The lock that makes a slot fire once whatever the number of schedulers: only the process
    # whose insert succeeds starts the run.
    __table_args__ = (UniqueConstraint("schedule_id", "slot_at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    schedule_id: Mapped[int] = mapped_column(ForeignKey("schedules.id", ondelete="CASCADE"), index=True)
    team_id: Mapped[int] = mapped_column(ForeignKey("teams.id", ondelete="CASCADE"), index=True)
    slot_at: Mapped[datetime]
    status: Mapped[FiringStatus] = mapped_column(Enum(FiringStatus, native_enum=False, length=16))
    reason: Mapped[str | None] = mapped_column(Text)
    # A "missed" row may stand for several earlier slots after a long outage (listed up to a bound).
    missed_count: Mapped[int] = mapped_column(default=1, server_default="1")
    run_id: Mapped[int | None] = mapped_column(ForeignKey("runs.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
