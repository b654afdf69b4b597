"""The verdict strip as the API answers it."""

import enum
from datetime import datetime

from pydantic import BaseModel, Field

from storbench_api.advisor.findings import Finding
from storbench_api.compare.schemas import VerdictOut as ComparisonVerdict
from storbench_api.figures.definition import Figure, FigureUnit
from storbench_api.history.schemas import ChangePointOut
from storbench_api.storage_classes.expected import Verdict as SpecVerdict
from storbench_api.storage_classes.schemas import Metric


class SpecStanding(BaseModel):
    """A figure against the spec line of its class for this kind of test, in the spec's unit."""

    metric: Metric
    expected: float
    low: float | None = Field(description="the low end of a published range")
    unit: str = Field(description="the spec's unit: IOPS, MB/s or ms")
    measured: float = Field(description="the figure in the spec's unit")
    percent: float = Field(description="measured as a percentage of expected")
    verdict: SpecVerdict


class PreviousStanding(BaseModel):
    """A figure against the same figure of the previous run of the same plan on the same target."""

    value: float | None = Field(description="the previous run's figure (median of its repetitions)")
    delta_pct: float | None = Field(description="this figure's change against it, in percent")
    verdict: ComparisonVerdict | None = Field(description="the comparison's verdict and its test")


class HeadlineFigure(BaseModel):
    """One headline figure of one job's direction on one host."""

    figure: Figure
    unit: FigureUnit
    higher_is_better: bool
    value: float | None = Field(description="median over the repetitions in view")
    spec: SpecStanding | None = Field(description="against the class's spec (on the figure its line judges)")
    previous: PreviousStanding | None


class VerdictLine(BaseModel):
    """The headline figures of one direction of one job on one host."""

    job_name: str
    host_name: str
    direction: str
    n: int = Field(description="results (repetitions) the figures are the median of")
    result_ids: list[int]
    figures: list[HeadlineFigure]


class PreviousRun(BaseModel):
    """The run compared with, and where the full comparison opens."""

    run_id: int
    measured_at: datetime | None
    compare_path: str = Field(description="the web UI path of the comparison with both runs' results")


class PreviousImport(BaseModel):
    """The import compared with: the previous one of the same host name and job, measured the same way."""

    result_id: int
    measured_at: datetime
    compare_path: str = Field(description="the web UI path of the comparison with both imports")


class RegressionState(enum.StrEnum):
    """Where the series these results belong to stand in the history."""

    regression = "regression"  # a regression nobody acknowledged yet
    acknowledged = "acknowledged"  # the last change was a regression, looked at
    improvement = "improvement"
    ok = "ok"  # no change found
    not_watched = "not_watched"  # no target: history watches a target's series


class RegressionStanding(BaseModel):
    """The regression state of the series these results belong to."""

    state: RegressionState
    message: str
    change_points: list[ChangePointOut] = Field(description="unacknowledged regressions of these series")


class WorstFinding(BaseModel):
    """The most serious methodology finding, with the result it was found in."""

    result_id: int
    finding: Finding
    total: int = Field(description="how many findings these results have in all")


class SpecSummary(enum.StrEnum):
    """The worst spec standing among the headline figures."""

    below = "below"
    above = "above"
    meets = "meets"
    no_spec = "no_spec"


class VerdictStrip(BaseModel):
    """What a run or result page opens with: each headline figure against the spec and the
    previous run, the regression state, and the worst finding with its fix."""

    run_id: int | None
    result_ids: list[int] = Field(description="the results the verdict is about")
    spec: SpecSummary
    lines: list[VerdictLine]
    previous_run: PreviousRun | None
    previous_import: PreviousImport | None = Field(
        default=None, description="an import's previous import (same host name, job and fingerprint)"
    )
    previous_note: str = Field(description="what the previous run's comparison is, or why there is none")
    regression: RegressionStanding
    worst_finding: WorstFinding | None
    text: list[str] = Field(description="the verdict as plain lines (for a terminal)")
