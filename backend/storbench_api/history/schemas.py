"""History as the API shows it: trends, the changes found in them, the team's detection policy."""

import enum
from datetime import datetime
from typing import Annotated, Self

from pydantic import BaseModel, ConfigDict, Field, model_validator

from storbench_api.figures.definition import Figure, FigureUnit
from storbench_api.history.changepoints import DetectionMethod
from storbench_api.storage_classes.schemas import Workload
from storbench_api.wire import JSON_INTEGER, NO_NUL, RequestBody


class TrendDirection(enum.StrEnum):
    """fio's I/O directions."""

    read = "read"
    write = "write"
    trim = "trim"


class ChangeKind(enum.StrEnum):
    """Which way a change went for the user: latency up is a regression, IOPS up an improvement."""

    regression = "regression"
    improvement = "improvement"


class TrendPoint(BaseModel):
    """One result's figure in a series."""

    result_id: int
    measured_at: datetime
    value: float
    fingerprint: str | None
    run_id: int | None
    host_name: str
    repetition: int


class SpecLine(BaseModel):
    """What the target's storage class promises for this figure, in the figure's own unit."""

    storage_class_id: int
    storage_class: str
    spec_version: int
    workload: Workload
    value: float = Field(description="the promised figure in the trend's unit (IOPS, B/s or ns)")
    low: float | None = Field(description="the lower end of a published range, same unit")
    published: str = Field(description="the figure as published, e.g. '20,000 IOPS'")
    formula: str


class CauseOut(BaseModel):
    """One way the measurement differed between the result before a change and its first result."""

    component: str = Field(
        description="kernel, fio version, mount options, mount, operating system, host class, storage "
        "class, capacity, storage or job options"
    )
    key: str = Field(description="e.g. environment.kernel, job.bs, storage.capacity_gib")
    before: str | int | float | bool | None
    after: str | int | float | bool | None


class StepFigureOut(BaseModel):
    """One figure that changed at a step (a change point of its own, acknowledged with the step)."""

    id: int
    direction: str
    metric: str
    before_median: float
    after_median: float
    ratio: float


class ChangePointOut(BaseModel):
    """A regression or improvement found in a series, starting at `result_id`."""

    id: int
    target_id: int
    job_name: str
    direction: str
    metric: str
    fingerprint: str | None
    result_id: int
    measured_at: datetime
    kind: ChangeKind
    before_median: float
    after_median: float
    ratio: float = Field(description="after_median / before_median")
    p_value: float | None = Field(description="the split's permutation p-value (E-divisive only)")
    method: str
    detected_at: datetime
    acknowledged_at: datetime | None
    acknowledged_by: str | None
    comment: str | None
    step_id: int | None = Field(
        default=None,
        description="the first change found at the same result (same target, job and kind): the "
        "step's changes are one regression, listed once and acknowledged together",
    )
    step_figures: list[StepFigureOut] = Field(
        default_factory=list,
        description="every figure that changed at this step, this one included (in the list only)",
    )
    likely_causes: list[CauseOut] = Field(
        default_factory=list,
        description="what differed in how it was measured just before and at the change (listed, not "
        "on trend marks)",
    )
    what_changed: str | None = Field(
        default=None,
        description="the likely causes in words, or 'nothing in how it was measured changed: the "
        "storage itself did'",
    )


class TrendOut(BaseModel):
    """A figure over time for a target and job, oldest first, with the spec line and changes."""

    target_id: int
    job: str
    metric: Figure
    direction: TrendDirection
    fingerprint: str | None
    unit: FigureUnit
    points: list[TrendPoint]
    truncated: bool = Field(description="true when older points were left out (only the newest `limit`)")
    limit: int
    spec: SpecLine | None = Field(description="the target's storage class promise, if it has a class")
    change_points: list[ChangePointOut] = Field(description="changes found within the points shown")


class SeriesOut(BaseModel):
    """One job and direction measured on a target: a series whose figures can be charted."""

    job: str
    direction: str
    results: int
    last_measured_at: datetime


class SeriesList(BaseModel):
    """The series of a target, by job name and direction."""

    items: list[SeriesOut]
    total: int


class ChangePointList(BaseModel):
    """A page of the team's changes, newest first."""

    items: list[ChangePointOut]
    total: int
    unacknowledged_regressions: int = Field(description="regressions of the team nobody acknowledged")


class AcknowledgeIn(RequestBody):
    """Who looked at a change and what they concluded."""

    model_config = ConfigDict(extra="forbid")

    comment: Annotated[str, Field(min_length=1, max_length=2000, pattern=NO_NUL)]


class PolicyOut(BaseModel):
    """How the team finds changes in its history."""

    method: DetectionMethod
    threshold: float | None = Field(description="percent (method percent) or robust z-score (zscore)")
    min_points_after: int = Field(description="results at the new level before a change is reported")
    alpha: float = Field(description="significance level of E-divisive's permutation test")
    updated_at: datetime | None
    updated_by: str | None


class PolicyIn(RequestBody):
    """A team's detection policy; percent and zscore need a threshold, e_divisive takes none."""

    model_config = ConfigDict(extra="forbid")

    method: DetectionMethod = Field(strict=False)
    threshold: Annotated[float | None, Field(gt=0, le=1000)] = None
    min_points_after: Annotated[int, Field(ge=1, le=20, strict=False), JSON_INTEGER] = 3

    @model_validator(mode="after")
    def _threshold_fits_method(self) -> Self:
        if self.method == DetectionMethod.e_divisive and self.threshold is not None:
            raise ValueError(
                "e_divisive takes no threshold: leave threshold out, or choose percent or zscore"
            )
        if self.method != DetectionMethod.e_divisive and self.threshold is None:
            raise ValueError(
                f"method {self.method.value} needs a threshold (e.g. 10 for percent, 3 for zscore)"
            )
        return self


class CheckStatus(enum.StrEnum):
    """What `storbench check` concludes for one series or for the newest run."""

    regression = "regression"
    improvement = "improvement"
    ok = "ok"
    acknowledged = "acknowledged"


class CheckSeries(BaseModel):
    """One figure of the newest run against its series' history."""

    job_name: str
    direction: str
    metric: str
    fingerprint: str | None
    value: float = Field(description="the newest result's figure (the median over its repetitions)")
    history_median: float | None = Field(description="median of the series before the newest run")
    history_points: int
    status: CheckStatus
    change_point: ChangePointOut | None = Field(description="the change the newest run is part of")


class CheckOut(BaseModel):
    """Whether the newest run of a plan on a target is a regression against its history."""

    plan_id: int
    target_id: int
    run_id: int | None
    measured_at: datetime | None
    regression: bool
    message: str
    series: list[CheckSeries]
