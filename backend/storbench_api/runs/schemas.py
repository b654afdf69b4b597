"""Run request and response bodies, and the events of a run's live stream."""

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    GetCoreSchemaHandler,
    GetJsonSchemaHandler,
    RootModel,
    model_validator,
)
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema, core_schema

from storbench_api.errors import ErrorItem
from storbench_api.fio_tools.schemas import FioJobIn, FioJobOut
from storbench_api.hosts.mounts import MountOptions
from storbench_api.ids import IdField
from storbench_api.models import RunStatus, TargetKind
from storbench_api.results.schemas import ResultOut
from storbench_api.wire import JSON_INTEGER, NO_NUL, RequestBody
from storbench_protocol.progress import Direction, DirectionSample

SweepValue = Annotated[int, Field(ge=0, le=2**40, strict=False), JSON_INTEGER]


class SweepAxis(RequestBody):
    """One swept option: its values listed, or a geometric range from → to (included) × factor."""

    model_config = ConfigDict(populate_by_name=True)

    option: str = Field(
        min_length=1, max_length=40, description="iodepth, numjobs, bs (bytes), rwmixread, rate, rate_iops"
    )
    values: list[SweepValue] | None = Field(default=None, min_length=1, max_length=256)
    start: SweepValue | None = Field(default=None, alias="from", ge=1)
    to: SweepValue | None = None
    factor: Annotated[float, Field(gt=1, le=64, strict=False)] | None = None

    @model_validator(mode="after")
    def _values_or_range(self) -> "SweepAxis":
        ranged = (self.start, self.to, self.factor)
        if self.values is not None and any(v is not None for v in ranged):
            raise ValueError("give either values or from, to and factor, not both")
        if self.values is None and any(v is None for v in ranged):
            raise ValueError("give values, or all of from, to and factor")
        if self.start is not None and self.to is not None and self.to < self.start:
            raise ValueError("to must not be below from")
        return self


class SweepStop(RequestBody):
    """End a sweep early once a point's latency crosses a bound (the points measured are kept)."""

    # Read from the per-second samples as they land, held for STOP_AFTER_SECONDS (runs.early_stop):
    # lat_mean_ns is each second's mean latency; clat_p99_ns is fio's p99 completion latency of the
    # running point since it started.
    figure: Literal["lat_mean_ns", "clat_p99_ns"] = "lat_mean_ns"
    above_ns: Annotated[int, Field(ge=1, le=10**13, strict=False), JSON_INTEGER]


class RunCreate(RequestBody):
    """Start a run on a target from a saved plan, a preset, or inline jobs (exactly one)."""

    target_id: IdField
    plan_id: IdField | None = None
    preset_id: str | None = Field(default=None, max_length=80)
    jobs: list[FioJobIn] | None = Field(default=None, min_length=1, max_length=1000)
    # Writing to a block device destroys its data: the caller must say so explicitly.
    confirm_destructive: bool = False
    # More hosts that mount the target's path (a shared file system) and run the same jobs at
    # the same moment; by id and/or every host carrying a label.
    host_ids: list[IdField] = Field(default_factory=list, max_length=1000)
    host_label: str | None = Field(default=None, min_length=1, max_length=64)
    # All hosts use one set of files in the target directory instead of each writing its own;
    # unset: as the plan says (each host its own files when there is no plan).
    shared_files: bool | None = None
    # What the team calls this run ("after firmware 2.1", "nconnect=8"); editable later.
    label: str | None = Field(default=None, max_length=200, pattern=NO_NUL)
    note: str | None = Field(default=None, max_length=4000, pattern=NO_NUL)
    # Run the jobs this many times in a row (never overlapping); each result knows its repetition.
    repetitions: Annotated[int, Field(ge=1, le=100, strict=False), JSON_INTEGER] = 1
    # Run the jobs at every point of these options' values (the first axis slowest), one point after
    # the other; each result knows its point from its options.
    sweep: list[SweepAxis] | None = Field(default=None, min_length=1, max_length=3)
    # Visit the points in a random order (fixed by the seed) so a drift in time is not read as a trend.
    sweep_shuffle: bool = False
    sweep_seed: Annotated[int, Field(ge=0, le=2**31, strict=False), JSON_INTEGER] = 0
    sweep_stop: SweepStop | None = None
    # Fill the working set first (SNIA PTS: sequential 128 KiB writes, twice its size), not measured;
    # writes, so on a block device only where a destructive run is allowed.
    precondition: bool = False

    @model_validator(mode="after")
    def _exactly_one_source(self) -> "RunCreate":
        given = [n for n in ("plan_id", "preset_id", "jobs") if getattr(self, n) is not None]
        if len(given) != 1:
            raise ValueError("give exactly one of plan_id, preset_id or jobs")
        return self


class RunUpdate(RequestBody):
    """Change a run's label or note (null clears it; a field left out stays as it is)."""

    label: str | None = Field(default=None, max_length=200, pattern=NO_NUL)
    note: str | None = Field(default=None, max_length=4000, pattern=NO_NUL)


class RunAgain(RequestBody):
    """Run a run's jobs again on its target and hosts, with its plan (the version it ran)."""

    label: str | None = Field(default=None, max_length=200, pattern=NO_NUL)
    note: str | None = Field(default=None, max_length=4000, pattern=NO_NUL)
    confirm_destructive: bool = False


class RunRefusal(BaseModel):
    """One reason POST /runs would refuse the run, as it would answer it."""

    # The HTTP status (422 for the request, 409 for the hosts' state) and the error body.
    status: int
    code: str
    message: str
    errors: list[ErrorItem] = Field(default_factory=list)


class RunCheckOut(BaseModel):
    """What a run would need of its hosts, and every reason it would be refused (none: it may start)."""

    ok: bool
    hosts: list[str]
    # The hosts' platform from their facts (None: not reported yet, or they differ).
    platform: Literal["linux", "windows", "other"] | None = None
    # Bytes the jobs' files take on a directory target (None on a block device).
    needs_bytes: int | None = None
    # The least free space the hosts reported for the target's path, and what a run may use of it.
    free_bytes: int | None = None
    usable_bytes: int | None = None
    # fio's buffers for the jobs running at once, and what the host allows them.
    memory_bytes: int
    memory_limit_bytes: int
    # The figures in words ("needs 160 GiB, the target has 40 GiB free (36 GiB usable …)").
    summary: list[str]
    # Every offending field or host of every refusal below, in their order.
    problems: list[ErrorItem]
    # Every reason POST /runs would refuse the run; it answers the first.
    refusals: list[RunRefusal] = Field(default_factory=list)


class RunHeadline(BaseModel):
    """A run's figure at a glance: its first job, all hosts together, the mean of its repetitions."""

    job_name: str
    # throughput when the job's measured blocks are 64 KiB or more (bytes/s), else IOPS.
    metric: Literal["iops", "throughput"]
    iops: float
    bw_bytes: float
    # The highest 99th percentile completion latency of its hosts and directions.
    p99_ns: float | None
    # How many jobs the run has (the headline shows the first).
    jobs: int
    partial: bool = False


class TargetRef(BaseModel):
    """The target a run used."""

    id: int
    name: str
    path: str
    kind: TargetKind


class HostRef(BaseModel):
    """The host a run used."""

    id: int
    name: str


class AssignmentOut(BaseModel):
    """One host's share of a run."""

    host: HostRef
    status: RunStatus
    ready_at: datetime | None
    started_at: datetime | None
    fio_started_at: datetime | None
    finished_at: datetime | None
    # The host's worker's own CPU use while fio ran, in percent of one core.
    worker_cpu_percent: float | None = None
    error: str | None
    # The file system the target path was on when the run started, and its mount options.
    mount: MountOptions | None = None


class AggregateDirection(BaseModel):
    """All hosts together, over the window in which every host was running."""

    iops: float
    bw_bytes: float
    # Latency percentile ("50", "90", "95", "99", "99.9", "99.99") → nanoseconds.
    clat_percentiles_ns: dict[str, float]
    clat_samples: int


class Aggregate(BaseModel):
    """The figure a shared file system delivered to all hosts at once."""

    hosts: int
    window_s: float
    start_skew_ms: float | None
    directions: dict[Direction, AggregateDirection]
    method: str


class SweepPointOut(BaseModel):
    """One point of a sweep, in the order run: its options' values and the results measured there."""

    values: dict[str, int]
    # measured: every repetition's results; partial: some, or cut short; pending: none (yet).
    status: Literal["measured", "partial", "pending"]
    result_ids: list[int] = Field(default_factory=list)


class SweepOut(BaseModel):
    """The sweep a run executes: its axes, its points in the order run, and its early stop."""

    axes: list[str]
    shuffled: bool = False
    stop: SweepStop | None = None
    points: list[SweepPointOut]
    measured_points: int


class RunOut(BaseModel):
    """A run with its status and, once measured, its results."""

    id: int
    status: RunStatus
    plan_id: int | None
    plan_name: str | None
    # The plan's version the run ran (the plan may have been edited or deleted since).
    plan_version: int | None = None
    label: str | None = None
    note: str | None = None
    target: TargetRef
    host: HostRef
    # The normalised jobs (sizes in bytes, times in seconds), as the hosts ran them.
    jobs: list[FioJobOut]
    # All hosts worked on one set of files (otherwise each host wrote its own).
    shared_files: bool = False
    # The jobs ran this many times in a row; each result has its repetition (0-based).
    repetitions: int = 1
    # The options swept and the points in the order run, each with its results (None: no sweep).
    sweep: SweepOut | None = None
    # The working set was filled sequentially (twice its size) before measuring; not in the results.
    precondition: bool = False
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    error: str | None
    start_at: datetime | None = None
    assignments: list[AssignmentOut] = Field(default_factory=list)
    results: list[ResultOut]
    aggregate: Aggregate | None = None
    series_pruned_at: datetime | None = Field(
        default=None,
        description="when the team's retention removed its per-second series (its figures are kept)",
    )
    headline: RunHeadline | None = None
    # Its results' ids (also in lists, which leave the results out): to compare runs.
    result_ids: list[int] = Field(default_factory=list)


class RunList(BaseModel):
    """A page of runs, newest first."""

    items: list[RunOut]
    total: int


class ProgressSampleOut(BaseModel):
    """One second of one host's progress."""

    # Increasing over the whole run (all hosts): the order samples landed.
    id: int
    elapsed_s: float
    eta_s: float | None
    percent: float | None
    measured_at: datetime | None
    received_at: datetime
    directions: dict[Direction, DirectionSample]
    # "preconditioning": fio was filling the working set (not measured); null: measuring.
    phase: Literal["preconditioning"] | None = None


class HostProgress(BaseModel):
    """The per-second series of one host of a run."""

    host_name: str
    assignment_id: int
    status: RunStatus
    samples: list[ProgressSampleOut]


class RunProgress(BaseModel):
    """Per-second series of every host of a run, as stored with the result."""

    run_id: int
    status: RunStatus
    hosts: list[HostProgress]


# ---- GET /runs/{id}/events: Server-Sent Events ----------------------------------------------


class _JsonText:
    """A model carried as JSON text (an SSE `data:` line): read from that text or a model, written as it."""

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: GetCoreSchemaHandler) -> CoreSchema:
        model = handler(source)
        return core_schema.union_schema(
            [core_schema.json_schema(model), model],
            serialization=core_schema.plain_serializer_function_ser_schema(_as_json_text),
        )

    @classmethod
    def __get_pydantic_json_schema__(
        cls, schema: CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        model = schema["choices"][1] if schema["type"] == "union" else schema
        return {"type": "string", "contentMediaType": "application/json", "contentSchema": handler(model)}


def _as_json_text(value: BaseModel) -> str:
    return value.model_dump_json()


class RunStatusData(BaseModel):
    """The run's status now ('gone' if it no longer exists); the last one sent ends the stream."""

    run_id: int
    status: RunStatus | Literal["gone"]


class RunProgressData(ProgressSampleOut):
    """One host-second as it lands: a stored sample and its host's name."""

    host_name: str


class RunStatusEvent(BaseModel):
    """`event: status`: sent first, on every change of the run's status, and last."""

    event: Literal["status"]
    data: Annotated[RunStatusData, _JsonText]


class RunProgressEvent(BaseModel):
    """`event: progress`: one host-second of progress, in the order the samples landed."""

    event: Literal["progress"]
    data: Annotated[RunProgressData, _JsonText]


class RunEvent(RootModel[Annotated[RunStatusEvent | RunProgressEvent, Field(discriminator="event")]]):
    """One event of a run's live stream: its `event:` name and its `data:` line (JSON)."""
