"""Comparison, grouped-view and saved-view bodies."""

import enum
from datetime import datetime
from typing import Annotated, Literal

from pydantic import BaseModel, Field, StringConstraints

from storbench_api.compare.stats import SignificanceTest, VerdictKind
from storbench_api.figures.definition import Figure, FigureUnit
from storbench_api.wire import KnownFieldsOnly

MAX_COMPARE_IDS = 200

# A value a comparability component takes (a job option's text, a CPU count, a NIC speed…).
ComponentValue = str | int | float | bool | None


class CompareDirection(enum.StrEnum):
    """Which way the I/O went."""

    read = "read"
    write = "write"
    trim = "trim"


class GroupBy(enum.StrEnum):
    """What a grouped view groups results by."""

    storage_class = "storage_class"
    vendor = "vendor"
    tier = "tier"
    protocol = "protocol"
    medium = "medium"
    host = "host"
    label = "label"
    bs = "bs"
    iodepth = "iodepth"
    numjobs = "numjobs"
    rw = "rw"


class Pooling(enum.StrEnum):
    """How results become sides of a comparison."""

    measured = "measured"
    run = "run"


class VerdictOut(BaseModel):
    """Whether a side differs from its reference beyond noise, and by how much."""

    kind: VerdictKind = Field(
        description="better or worse (as the figure reads), no_change (the interval is inside ±5 %), "
        "cant_tell (the test could not resolve it at this n: repeat), too_few (one repetition on a side)"
    )
    test: SignificanceTest | None = Field(description="the test that decided (null with too few repetitions)")
    test_reason: str = Field(description="why this test was chosen, in words")
    p_value: float | None
    ratio: float | None = Field(
        description="this side / its reference: ratio of geometric means under welch_t_log, else of medians"
    )
    ci_low: float | None = Field(
        description="95 % interval of the ratio, low end (t-interval on logs or bootstrap)"
    )
    ci_high: float | None
    n_reference: int = Field(description="repetitions on the reference's side")
    n: int = Field(description="repetitions on this side")
    text: str = Field(description="the verdict in words, naming the test, p and the ratio with its interval")


class SideOut(BaseModel):
    """One column of a comparison: the repetitions of one job, measured one way, in one series."""

    index: int
    title: str = Field(description="how the side is named in tables (series, job and host)")
    series: str = Field(
        description="the run's label, the plan (every run of it on the target), the run (pooled by run), "
        "or an import's label"
    )
    job_name: str
    host_name: str
    fingerprint: str | None
    result_ids: list[int]
    n: int = Field(description="repetitions: results on this side")
    storage_class: str | None
    target_id: int | None
    run_ids: list[int]
    measured_from: datetime
    measured_to: datetime
    reference: int = Field(description="index of the side its deltas and verdicts are against")
    is_baseline: bool


class Difference(BaseModel):
    """One comparability component whose value is not the same on every side."""

    component: str = Field(
        description="job, fio_version, host, mount, storage or environment (kernel, os, mount options)"
    )
    key: str = Field(description="e.g. job.bs, host.memory_gib, mount.nconnect")
    values: list[ComponentValue] = Field(description="per side, in side order (null: not known)")


class Cell(BaseModel):
    """One side's figure: the median of its repetitions, and the change against its reference."""

    value: float | None
    samples: list[float]
    delta: float | None = Field(description="value minus the reference's value")
    delta_pct: float | None = Field(description="delta as a percentage of the reference's value")
    verdict: VerdictOut | None = Field(description="null on the reference itself")


class FigureRow(BaseModel):
    """One figure of one direction across every side."""

    direction: str = Field(description="read, write, trim, or job for CPU figures")
    figure: Figure
    unit: FigureUnit
    higher_is_better: bool
    cells: list[Cell]


class ComparisonOut(BaseModel):
    """Results side by side: what differs in how they were measured first, then every figure."""

    baseline_result_id: int
    result_ids: list[int]
    pooling: Pooling = Field(
        description="measured: results of the same plan, job, target and fingerprint pool into one side "
        "across runs (a label splits them off); run: each run is a side of its own"
    )
    identical: bool = Field(description="every side has the same comparability (no differences)")
    differences: list[Difference]
    sides: list[SideOut]
    rows: list[FigureRow]
    permalink: str = Field(description="the web UI path that opens this comparison")


class ShapeOut(BaseModel):
    """The job shape a group holds (the option grouped by is left out)."""

    rw: str | None = None
    bs: str | None = None
    iodepth: str | None = None
    numjobs: str | None = None


class GroupOut(BaseModel):
    """One group's spread, and its figure per provisioned GiB and per dollar where known."""

    key: str = Field(description="the value grouped by ('(none)' when a result has none)")
    shape: ShapeOut
    n: int
    targets: int | None = Field(
        default=None, description="how many targets its results measured (null from the rollup)"
    )
    targets_disagree: str | None = Field(
        default=None,
        description="set when the group mixes targets whose results clearly differ (quartile ranges apart "
        "and medians more than 10 % apart): which targets and their medians; null when they agree or "
        "from the rollup",
    )
    median: float
    p25: float
    p75: float
    min: float
    max: float
    result_ids: list[int] = Field(
        description="up to 100 of the group's results, newest first (none when answered from the rollup)"
    )
    capacity_gib: float | None = Field(description="median provisioned capacity of its results")
    per_gib: float | None = Field(description="median of figure / provisioned GiB")
    price_per_gib_month: float | None
    dollars_per_1000_iops: float | None = Field(description="monthly price per 1,000 IOPS (IOPS figure)")
    dollars_per_mbps: float | None = Field(description="monthly price per MB/s (bandwidth figure)")


class GroupSource(enum.StrEnum):
    """What answered a grouped view."""

    rollup = "rollup"
    results = "results"


class GroupsOut(BaseModel):
    """Results grouped by one property, never mixing job shapes unless grouped by a shape option."""

    by: GroupBy
    figure: Figure
    direction: CompareDirection
    unit: FigureUnit
    higher_is_better: bool
    note: str = Field(description="how results were kept apart, and how precise the figures are")
    source: GroupSource = Field(
        description="rollup: every result of the team, from the rollup kept as results are stored (n, min "
        "and max exact, quantiles within ±0.5 %, no result ids); results: read result by result (the newest "
        "100,000), needed for filters on ids, label, host, run or time and for grouping by host or label"
    )
    truncated: bool = Field(description="only the newest rows were grouped (a filter narrows it)")
    groups: list[GroupOut]


class ExportFormat(enum.StrEnum):
    """How an export is written."""

    csv = "csv"
    json = "json"


ViewName = Annotated[str, StringConstraints(min_length=1, max_length=120, pattern=r"^[^\x00]*$")]
QueryText = Annotated[str, StringConstraints(max_length=2000, pattern=r"^[^\x00]*$")]


class SavedViewIn(KnownFieldsOnly):
    """A comparison or grouped view to keep under a name for the team."""

    name: ViewName
    kind: Literal["compare", "groups"]
    query: dict[Annotated[str, StringConstraints(max_length=40)], QueryText] = Field(
        description="compare: ids (comma-separated), baseline; groups: by, figure, direction and filters",
        max_length=20,
    )


class SavedViewOut(BaseModel):
    """A saved view and the path in the web UI that opens it."""

    id: int
    name: str
    kind: str
    query: dict[str, str]
    path: str = Field(description="the web UI path (permalink) of the view")
    created_at: datetime
    created_by: str | None


class SavedViewList(BaseModel):
    """The team's saved views, newest first."""

    items: list[SavedViewOut]
    total: int
