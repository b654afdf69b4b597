"""Result response bodies."""

from datetime import datetime
from typing import Annotated, Literal

from fastapi import UploadFile
from pydantic import BaseModel, Field

from storbench_api.advisor.findings import Finding
from storbench_api.advisor.service import SpecCheck
from storbench_api.ids import MAX_ID, IdField
from storbench_api.wire import NO_NUL, KnownFieldsOnly, RequestBody


class LatencyOut(BaseModel):
    """Latency statistics in nanoseconds; percentiles keyed "50", "99.9", …."""

    min_ns: float
    max_ns: float
    mean_ns: float
    stddev_ns: float
    percentiles: dict[str, float]


class HistogramBucketOut(BaseModel):
    """The I/Os whose completion latency was at least low_ns and below high_ns."""

    low_ns: int
    high_ns: int
    count: int


class RateSpreadOut(BaseModel):
    """How a rate varied over the run, from fio's own samples (about one a second)."""

    min: float
    max: float
    mean: float
    stddev: float
    samples: int


class DirectionOut(BaseModel):
    """What one direction (read, write, trim) measured."""

    iops: float
    bw_bytes: float
    io_bytes: int
    runtime_ms: int
    total_ios: int | None
    lat_ns: LatencyOut | None
    clat_ns: LatencyOut | None
    slat_ns: LatencyOut | None
    clat_histogram: list[HistogramBucketOut] | None = Field(
        default=None,
        description="json+ outputs: completion latencies in power-of-two buckets (ns), from fio's bins",
    )
    iops_spread: RateSpreadOut | None = Field(
        default=None, description="IOPS over the run as fio sampled it (fio 3 outputs)"
    )
    bw_spread: RateSpreadOut | None = Field(
        default=None, description="bandwidth (bytes/s) over the run as fio sampled it (fio 3 outputs)"
    )


class CpuOut(BaseModel):
    """fio's own CPU use while measuring."""

    usr_pct: float
    sys_pct: float
    ctx: int
    majf: int | None = None
    minf: int | None = None


class SteadyStateOut(BaseModel):
    """Whether a direction's IOPS reached steady state (SNIA PTS: 5 rounds within 20 % and trending
    under 10 % of their mean), over its per-second samples or its run's repetitions."""

    basis: Literal["per_second", "repetitions"] = Field(
        description="the rounds: the result's per-second samples, or its job's repetitions in the run"
    )
    figure: Literal["iops"] = "iops"
    status: Literal["steady", "not_steady", "too_short"] = Field(
        description="too_short: fewer rounds than the 5-round window"
    )
    rounds: int
    window: int = Field(description="rounds in the measurement window (5)")
    reached_at: int | None = Field(description="the first round (1-based) of the first steady window")
    round: int | None = Field(default=None, description="repetitions: this result's round (1-based)")
    range_share: float | None = Field(
        description="max − min over the steady window (else the last window) as a share of its mean"
    )
    excursion_share: float | None = Field(
        description="the least-squares line's change across that window as a share of its mean"
    )
    reason: str


class ResultOut(BaseModel):
    """One job's result on one host."""

    id: int
    run_id: int | None
    target_id: int | None
    storage_class: str | None
    label: str | None
    created_at: datetime = Field(description="when storbench stored it")
    measured_at: datetime = Field(
        description="when fio measured it: the end of the run, or the date an imported output carries"
    )
    job_name: str
    # Which repetition of its run's jobs (0-based; 0 for a run without repetitions and imports).
    repetition: int = 0
    host_name: str
    fio_version: str | None
    imported: bool
    partial: bool
    directions: dict[str, DirectionOut]
    cpu: CpuOut | None
    # The job's options as fio printed them in its output (global options merged in).
    options: dict[str, str]
    error: int = Field(description="fio's error number for the job (0: none)")
    storage_class_spec_id: int | None = Field(description="the storage class spec version it was judged by")
    spec_checks: list[SpecCheck] = Field(
        description="each direction against the spec line for its kind of test"
    )
    findings: list[Finding] = Field(description="the methodology advisor's findings, most serious first")
    steady_state: dict[str, SteadyStateOut] | None = Field(
        default=None, description="per direction, whether its IOPS reached steady state (null: unknown)"
    )


class ResultList(BaseModel):
    """A page of the team's results, newest first by measured_at."""

    items: list[ResultOut]
    next_cursor: str | None = Field(
        description="pass as `cursor` (with the same filters) for the next page; null on the last page"
    )
    total: int = Field(description="how many results match the filters (all pages)")
    total_is_estimate: bool = Field(
        description="total is PostgreSQL's estimate: beyond 10,000 matches results are not counted one by one"
    )


class ImportForm(KnownFieldsOnly):
    """An fio output to import, and what to file it under (multipart/form-data)."""

    file: UploadFile = Field(description="fio's output as produced or pasted")
    # A form field is text: "12" is the id 12 here (JSON bodies take only numbers).
    target_id: Annotated[int | None, Field(ge=1, le=MAX_ID)] = None
    storage_class: Annotated[str | None, Field(max_length=120)] = None
    host_name: Annotated[str | None, Field(max_length=255)] = None
    label: Annotated[str | None, Field(max_length=200)] = None


class ImportOut(BaseModel):
    """What an uploaded fio output became (or, for an output imported before, what it became then)."""

    source_format: str
    fio_version: str | None
    results: list[ResultOut]
    duplicate: bool = Field(
        default=False,
        description="the team already holds this exact output: nothing stored, results are the earlier ones",
    )
    first_stored_at: datetime | None = Field(
        default=None, description="a duplicate: when the team's copy of this output was stored"
    )
    notices: list[str] = Field(
        default_factory=list,
        description="what was changed to be stored, e.g. a label from a file name too long for it, cut",
    )


class ResultLabelIn(RequestBody):
    """A result's new label (null or blank clears it)."""

    label: str | None = Field(max_length=200, pattern=NO_NUL)


class ResultsLabelIn(RequestBody):
    """One label for several results at once (null or blank clears it)."""

    ids: list[IdField] = Field(min_length=1, max_length=1000, description="the results to relabel")
    label: str | None = Field(max_length=200, pattern=NO_NUL)


class RelabelledOut(BaseModel):
    """The results as they are now labelled."""

    items: list[ResultOut]
