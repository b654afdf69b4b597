"""Normalised fio results: every latency in nanoseconds, every rate per second."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict

Direction = Literal["read", "write", "trim", "mixed"]
SourceFormat = Literal["json", "json+", "text", "client_server"]


class LatencyStats(BaseModel):
    """One latency figure (total, completion or submission) in nanoseconds."""

    model_config = ConfigDict(frozen=True)

    min_ns: float
    max_ns: float
    mean_ns: float
    stddev_ns: float
    samples: int | None = None
    # Keys like "50", "99.9"; values are latencies in ns.
    percentiles: dict[str, float] = {}
    # json+ only: latency (ns) -> number of I/Os in that bin.
    histogram: dict[int, int] | None = None


class RateSpread(BaseModel):
    """How a rate (IOPS, or bandwidth in bytes/s) varied over a job, from fio's own samples."""

    model_config = ConfigDict(frozen=True)

    min: float
    max: float
    mean: float
    stddev: float
    samples: int


class DirectionResult(BaseModel):
    """What one I/O direction of one job did."""

    model_config = ConfigDict(frozen=True)

    iops: float
    bw_bytes: float
    io_bytes: int
    runtime_ms: int
    total_ios: int | None = None
    short_ios: int | None = None
    dropped_ios: int | None = None
    lat_ns: LatencyStats | None = None
    clat_ns: LatencyStats | None = None
    slat_ns: LatencyStats | None = None
    # fio 3 JSON: iops_min/max/mean/stddev/samples and bw_min/max/mean/dev/samples (KiB/s there).
    iops_spread: RateSpread | None = None
    bw_spread: RateSpread | None = None


class CpuResult(BaseModel):
    """CPU use of the fio job itself."""

    model_config = ConfigDict(frozen=True)

    usr_pct: float
    sys_pct: float
    ctx: int
    majf: int
    minf: int


LatencyUnit = Literal["ns", "us", "ms"]
_UNIT_NS = {"ns": 1, "us": 1_000, "ms": 1_000_000}


class LatencyBucket(BaseModel):
    """One bucket of fio's latency table, its bound read the way fio means it.

    fio's key "2000" (msec) is the bucket of latencies up to 2000 ms (above the previous key);
    ">=2000" is the open bucket of latencies of 2000 ms or more. They are different buckets.
    """

    model_config = ConfigDict(frozen=True)

    unit: LatencyUnit
    bound: int  # in unit: the upper bound, or the lower bound of an open bucket
    at_least: bool  # fio's ">=bound" bucket: every latency from bound up
    percent: float

    @property
    def bound_ns(self) -> int:
        """The bound in nanoseconds."""
        return self.bound * _UNIT_NS[self.unit]


class LatencyDistribution(BaseModel):
    """Share of I/Os (percent) per latency bucket, as fio's latency_ns/us/ms tables.

    Keys are fio's own: "250" (up to 250) and ">=2000" (2000 and more) stay distinct.
    """

    model_config = ConfigDict(frozen=True)

    ns: dict[str, float] = {}
    us: dict[str, float] = {}
    ms: dict[str, float] = {}

    def buckets(self) -> list[LatencyBucket]:
        """Every bucket, shortest latencies first; an open ">=" bucket after its bound's."""
        found = []
        for unit in ("ns", "us", "ms"):
            for key, percent in getattr(self, unit).items():
                at_least = key.startswith(">=")
                digits = key[2:] if at_least else key
                if digits.isdigit():
                    found.append(
                        LatencyBucket(
                            unit=unit, bound=int(digits), at_least=at_least, percent=percent
                        )
                    )
        return sorted(found, key=lambda b: (b.bound_ns, b.at_least))


class JobResult(BaseModel):
    """One job (or reporting group, or client aggregate) of a fio run."""

    model_config = ConfigDict(frozen=True)

    name: str
    hostname: str | None = None
    port: int | None = None
    groupid: int | None = None
    job_options: dict[str, str] = {}
    error: int = 0
    directions: dict[Direction, DirectionResult] = {}
    sync_lat_ns: LatencyStats | None = None
    cpu: CpuResult | None = None
    iodepth_distribution: dict[str, float] | None = None
    latency_distribution: LatencyDistribution | None = None
    elapsed_s: float | None = None


class FioReport(BaseModel):
    """A whole fio run, whatever format it was read from."""

    model_config = ConfigDict(frozen=True)

    fio_version: str | None = None
    # When fio reported, in seconds since the epoch (JSON outputs' "timestamp").
    timestamp: int | None = None
    # The date line of a text output: the host's local time, without a zone (fio prints none).
    local_time: datetime | None = None
    jobs: list[JobResult]
    source_format: SourceFormat
    global_options: dict[str, str] = {}
