"""Runs of a plan on a target, and each host's share of a run."""

from datetime import datetime
from typing import Any, Generic, TypeVar

from pydantic import BaseModel, TypeAdapter
from sqlalchemy import JSON, Enum, ForeignKey, Index, String, Text, false
from sqlalchemy.orm import Mapped, mapped_column, relationship
from sqlalchemy.types import TypeDecorator

from storbench_api.db import Base, TimestampMixin, utcnow
from storbench_api.models.host import Host
from storbench_api.models.target import Target
from storbench_protocol.common import RunStatus
from storbench_protocol.facts import HostMount
from storbench_protocol.progress import Direction, DirectionSample

__all__ = ["Assignment", "AssignmentStatus", "ProgressSample", "Run", "RunStatus", "WorkerInfo"]

# A host's share of a run moves through the same states as the run (one enum, shared with workers).
AssignmentStatus = RunStatus

Value = TypeVar("Value")


class TypedJSON(TypeDecorator[Value], Generic[Value]):
    """A JSON column read and written as a typed value (a pydantic model, or a dict of them)."""

    impl = JSON
    cache_ok = True

    def __init__(self, adapter: TypeAdapter[Value]) -> None:
        super().__init__()
        self.adapter = adapter

    def process_bind_param(self, value: Value | dict[str, Any] | None, dialect: object) -> Any:
        if value is None:
            return None
        return self.adapter.dump_python(
            self.adapter.validate_python(value), mode="json", exclude_defaults=True
        )

    def process_result_value(self, value: Any, dialect: object) -> Value:
        return self.adapter.validate_python(value or {})


class WorkerInfo(BaseModel):
    """What a host's worker reported about its share of a run."""

    # When fio started, in the server's clock as the host estimated it.
    fio_started_at: datetime | None = None
    # Server clock minus host clock when fio started: places the host's samples on the server's clock.
    clock_offset_ms: float | None = None
    # The worker's own CPU use while fio ran, in percent of one core.
    worker_cpu_percent: float | None = None
    # The host let go of the run's shared files (the last to do so removes them).
    files_released: bool = False
    # The file system the target path was on when the run started, with its mount options.
    mount: HostMount | None = None


DirectionFigures = dict[Direction, DirectionSample]


class Run(TimestampMixin, Base):
    """One execution of a list of fio jobs against a target."""

    __tablename__ = "runs"
    __table_args__ = (
        # The previous run of a plan on a target (compare.repository.previous_run): a backward walk
        # from the run that stops at the first match, whether the plan is named by id, name or
        # neither (inline jobs); the last also lists a target's runs newest first (migration 0018).
        Index("ix_runs_team_target_plan", "team_id", "target_id", "plan_id", "id"),
        Index("ix_runs_team_target_plan_name", "team_id", "target_id", "plan_name", "id"),
        Index("ix_runs_team_target_id", "team_id", "target_id", "id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    team_id: Mapped[int] = mapped_column(ForeignKey("teams.id", ondelete="CASCADE"), index=True)
    target_id: Mapped[int] = mapped_column(ForeignKey("targets.id", ondelete="CASCADE"), index=True)
    plan_id: Mapped[int | None] = mapped_column(ForeignKey("plans.id", ondelete="SET NULL"))
    plan_name: Mapped[str | None] = mapped_column(String(120))
    # The version of the plan the run ran (the plan may have been edited since).
    plan_version: Mapped[int | None]
    created_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    # The normalised fio jobs (storbench_fio.job.FioJob dumped without unset options).
    jobs: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    # The starter confirmed that writes may destroy a block device's data.
    confirmed_destructive: Mapped[bool] = mapped_column(default=False)
    # Every host works on one set of files in the target directory (one host lays them out);
    # by default each host writes its own, so hosts never read what another one cached.
    shared_files: Mapped[bool] = mapped_column(default=False, server_default=false())
    status: Mapped[RunStatus] = mapped_column(
        Enum(RunStatus, native_enum=False, length=16), default=RunStatus.queued, index=True
    )
    started_at: Mapped[datetime | None]
    finished_at: Mapped[datetime | None]
    # The absolute time (server clock) every host starts fio, chosen once the last host is ready.
    start_at: Mapped[datetime | None]
    error: Mapped[str | None] = mapped_column(Text)
    # The jobs run this many times in a row; each result knows its repetition.
    repetitions: Mapped[int] = mapped_column(default=1, server_default="1")
    # A sweep's axes, points in the order run, jobs as planned (one point) and early stop
    # (runs.sweep.SweepRecord); jobs then hold every point's jobs. None: no sweep.
    sweep: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    # The working set was first filled sequentially (twice its size) before measuring; jobs then
    # start with that fill (runs.precondition), whose results are not kept.
    precondition: Mapped[bool] = mapped_column(default=False, server_default=false())
    # What the team calls this run ("after firmware 2.1", "nconnect=8"), set at start, editable.
    label: Mapped[str | None] = mapped_column(String(200))
    note: Mapped[str | None] = mapped_column(Text)
    # When the team's retention removed the per-second series of its hosts, and the multi-host
    # aggregate (runs.schemas.Aggregate) computed from them just before: a summary, kept forever.
    series_pruned_at: Mapped[datetime | None]
    kept_aggregate: Mapped[dict[str, Any] | None] = mapped_column(JSON)

    target: Mapped[Target] = relationship(lazy="raise")
    assignments: Mapped[list["Assignment"]] = relationship(
        back_populates="run", lazy="raise", order_by="Assignment.id"
    )


class Assignment(TimestampMixin, Base):
    """The part of a run one host executes; the worker fetches it by id."""

    __tablename__ = "assignments"

    id: Mapped[int] = mapped_column(primary_key=True)
    run_id: Mapped[int] = mapped_column(ForeignKey("runs.id", ondelete="CASCADE"), index=True)
    host_id: Mapped[int] = mapped_column(ForeignKey("hosts.id", ondelete="CASCADE"), index=True)
    status: Mapped[AssignmentStatus] = mapped_column(
        Enum(RunStatus, native_enum=False, length=16), default=RunStatus.queued, index=True
    )
    started_at: Mapped[datetime | None]
    finished_at: Mapped[datetime | None]
    # When the server gives up on this assignment if it has not finished.
    deadline_at: Mapped[datetime | None]
    # The host laid out its files and waits at the barrier.
    ready_at: Mapped[datetime | None]
    # When its message was last handed to the broker, and when the worker first fetched it: a queued
    # assignment never fetched is sent again (its message may have been lost).
    dispatched_at: Mapped[datetime | None]
    fetched_at: Mapped[datetime | None]
    error: Mapped[str | None] = mapped_column(Text)
    # Replaced, never changed in place (model_copy(update=...)), so the change is saved.
    worker_info: Mapped[WorkerInfo] = mapped_column(
        TypedJSON(TypeAdapter(WorkerInfo)), default=lambda: WorkerInfo()
    )

    run: Mapped[Run] = relationship(back_populates="assignments", lazy="raise")
    host: Mapped[Host] = relationship(lazy="raise")


class ProgressSample(Base):
    """One second of a running assignment as the worker measured it from fio's status reports."""

    __tablename__ = "progress_samples"

    id: Mapped[int] = mapped_column(primary_key=True)
    assignment_id: Mapped[int] = mapped_column(ForeignKey("assignments.id", ondelete="CASCADE"), index=True)
    elapsed_s: Mapped[float]
    # None while fio cannot estimate the end (e.g. a job bounded by size, not time).
    eta_s: Mapped[float | None]
    percent: Mapped[float | None]
    # Per direction: iops, bw_bytes, lat_mean_ns over that second.
    directions: Mapped[DirectionFigures] = mapped_column(TypedJSON(TypeAdapter(DirectionFigures)))
    # "preconditioning" while fio filled the working set before measuring; None while measuring.
    phase: Mapped[str | None] = mapped_column(String(20))
    # When fio wrote the report (converted by the worker to the server's clock), and when the
    # server stored it: their difference is how late live progress is.
    measured_at: Mapped[datetime | None]
    received_at: Mapped[datetime] = mapped_column(default=utcnow)
