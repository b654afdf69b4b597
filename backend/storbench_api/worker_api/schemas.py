"""Bodies exchanged with storbench workers."""

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, Field

from storbench_api.ids import IdField
from storbench_api.models import RunStatus, TargetKind


class WorkerIdentity(BaseModel):
    """Who a worker is, its queue and the broker URL with its own broker user; nothing else.

    The worker fixes every other Celery setting itself (JSON only, no remote control).
    server_time lets it measure its clock offset.
    """

    host_id: IdField
    name: str
    queue: str
    broker_url: str
    heartbeat_interval_s: float
    server_time: datetime


class Heartbeat(BaseModel):
    """A worker's periodic sign of life with the facts of its host."""

    fio_version: str | None = Field(default=None, max_length=64)
    facts: dict[str, Any] | None = None


class AssignmentTarget(BaseModel):
    """Where the worker runs fio."""

    path: str
    kind: TargetKind
    destructive: bool
    confirmed_destructive: bool


class AssignmentOut(BaseModel):
    """The work a host must do for one run."""

    id: int
    run_id: IdField
    status: RunStatus
    target: AssignmentTarget
    jobs: list[dict[str, Any]]
    # All hosts of the run use one set of files, in one run directory.
    shared_files: bool = False
    # This host lays the files out before the barrier (with shared files, only one host does).
    lays_out: bool = True
    # The run directory the worker makes fresh inside a directory target (a name, never a path).
    scratch_name: str
    # How many hosts run the jobs at once (a block device is only ever one host's).
    host_count: int = Field(ge=1)


class AssignmentState(BaseModel):
    """Whether the worker should go on."""

    id: int
    status: RunStatus


class BarrierState(AssignmentState):
    """The start time (server clock) once every host of the run is ready, and the server's clock now."""

    start_at: datetime | None
    server_time: datetime


class StartIn(BaseModel):
    """When fio was started, in the server's clock as the host estimated it."""

    fio_started_at: datetime | None = None
    clock_offset_ms: float | None = Field(default=None, ge=-86_400_000, le=86_400_000)


class FioOutputIn(BaseModel):
    """fio's complete output for an assignment."""

    fio_output: str = Field(min_length=1, max_length=64 * 1024 * 1024)
    # Set when fio was stopped before the end: what was measured is kept, marked partial.
    stopped_early: str | None = Field(default=None, max_length=2000)
    # The worker's own CPU use while fio ran (percent of one core): how much it could disturb fio.
    worker_cpu_percent: float | None = Field(default=None, ge=0, le=100_000)


class FilesReleased(BaseModel):
    """Whether the host that let go of the run's files should remove them."""

    remove: bool


class FailureIn(BaseModel):
    """Why the worker could not run an assignment."""

    reason: str = Field(min_length=1, max_length=8000)


class RestartIn(BaseModel):
    """A worker that just started, with the assignments whose output waits in its spool."""

    spooled: list[IdField] = Field(default_factory=list, max_length=1000)


class Interrupted(BaseModel):
    """How many of the host's begun assignments were failed because its worker restarted."""

    failed: int


class Stored(BaseModel):
    """Acknowledgement of an upload."""

    results: int


class EnrollIn(BaseModel):
    """A new host presenting an enrollment token."""

    token: str = Field(min_length=10, max_length=200)
    name: str = Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9._-]{0,119}$")


class Enrolled(BaseModel):
    """The host's own credential: keep it, the enrollment token is not needed again."""

    host_id: IdField
    name: str
    worker_token: str


class DirectionSample(BaseModel):
    """One direction over one second."""

    iops: float = Field(ge=0)
    bw_bytes: float = Field(ge=0)
    lat_mean_ns: float = Field(ge=0)


class ProgressSampleIn(BaseModel):
    """One second of fio's progress."""

    elapsed_s: float = Field(ge=0, le=10**7)
    eta_s: float | None = Field(default=None, ge=0, le=10**7)
    percent: float | None = Field(default=None, ge=0, le=100)
    timestamp_ms: int | None = Field(default=None, ge=0)
    directions: dict[Literal["read", "write", "trim"], DirectionSample]


class ProgressIn(BaseModel):
    """Samples since the last report (may be empty: then it only asks whether to go on)."""

    samples: list[ProgressSampleIn] = Field(default_factory=list, max_length=600)
