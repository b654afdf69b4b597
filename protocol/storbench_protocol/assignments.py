"""A host's share of a run: fetching it, the barrier, start, failure, files and restart reports."""

from datetime import datetime
from typing import Annotated, Literal

from pydantic import AwareDatetime, Field

from storbench_protocol.common import Id, NonNegativeInt, RunStatus, WholeNumber, WireModel, WireRequest

TargetKind = Literal["directory", "block_device"]
# One fio option's value as the API normalised it (sizes in bytes, times in seconds, flags as
# booleans, percentile_list as numbers); the worker validates every job again before running it.
FioOptionValue = str | int | float | bool | list[float]
FioJobOptions = dict[str, FioOptionValue]


class AssignmentTarget(WireModel):
    """Where the worker runs fio."""

    path: str
    kind: TargetKind
    destructive: bool
    confirmed_destructive: bool


class WorkerAssignment(WireModel):
    """The work a host must do for one run (GET /worker/assignments/{id})."""

    id: Id
    run_id: Id
    status: RunStatus = Field(strict=False)
    target: AssignmentTarget
    jobs: list[FioJobOptions]
    # All hosts of the run use one set of files, in one run directory.
    shared_files: bool = False
    # This host lays the files out before the barrier (with shared files, only one host does).
    lays_out: bool = True
    # The run directory the worker makes fresh inside a directory target (a name, never a path).
    scratch_name: str
    # How many hosts run the jobs at once (a block device is only ever one host's).
    host_count: Annotated[int, Field(ge=1), WholeNumber] = 1
    # The jobs run this many times in a row in one fio invocation (storbench_fio.repetitions).
    repetitions: Annotated[int, Field(ge=1, le=100), WholeNumber] = 1


class AssignmentState(WireModel):
    """Whether the worker should go on: the assignment's status now."""

    id: Id
    status: RunStatus = Field(strict=False)


class BarrierState(AssignmentState):
    """The start time (server clock) once every host of the run is ready, and the server's clock now."""

    start_at: datetime | None = Field(strict=False)
    server_time: datetime = Field(strict=False)


class StartReport(WireRequest):
    """fio has started: when, in the server's clock as the host estimated it."""

    fio_started_at: AwareDatetime | None = Field(default=None, strict=False)
    clock_offset_ms: float | None = Field(default=None, ge=-86_400_000, le=86_400_000)


class FailureReport(WireRequest):
    """Why the worker could not run an assignment."""

    reason: str = Field(min_length=1, max_length=8000)


class FilesReleased(WireModel):
    """Whether the host that let go of the run's files should remove them."""

    remove: bool


class RestartReport(WireRequest):
    """A worker that just started, with the assignments whose output waits in its spool."""

    spooled: list[Id] = Field(default_factory=list, max_length=1000)


class Interrupted(WireModel):
    """How many of the host's begun assignments were failed because its worker restarted."""

    failed: NonNegativeInt
