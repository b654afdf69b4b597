"""Per-second progress a worker sends while fio runs (POST /worker/assignments/{id}/progress)."""

from typing import Annotated, Literal

from pydantic import Field

from storbench_protocol.common import WholeNumber, WireModel, WireRequest

Direction = Literal["read", "write", "trim"]
# The last millisecond a timestamp can name (Python's datetime ends with the year 9999).
LAST_MS_OF_YEAR_9999 = 253_402_300_799_999


class DirectionSample(WireModel):
    """One direction over one second."""

    iops: float = Field(ge=0)
    bw_bytes: float = Field(ge=0)
    lat_mean_ns: float = Field(ge=0)
    # fio's 99th percentile completion latency of the running reporting group since it started (a
    # sweep's current point so far), the worst of its jobs; None from workers before this field.
    clat_p99_ns: float | None = Field(default=None, ge=0)


class WorkerProgressSample(WireRequest):
    """One second of fio's progress as the worker measured it from fio's status reports."""

    elapsed_s: float = Field(ge=0, le=10**7)
    # None while fio cannot estimate the end (a job bounded by size, not time).
    eta_s: float | None = Field(default=None, ge=0, le=10**7)
    percent: float | None = Field(default=None, ge=0, le=100)
    # When fio wrote the report, in the server's clock (epoch milliseconds).
    timestamp_ms: Annotated[int, Field(ge=0, le=LAST_MS_OF_YEAR_9999), WholeNumber] | None = None
    directions: dict[Direction, DirectionSample]
    # What fio was doing: filling the working set before measuring (a preconditioned run), or
    # measuring (None; workers before this field send nothing).
    phase: Literal["preconditioning"] | None = None


class ProgressReport(WireRequest):
    """Samples since the last report (may be empty: then it only asks whether to go on)."""

    samples: list[WorkerProgressSample] = Field(default_factory=list, max_length=600)
