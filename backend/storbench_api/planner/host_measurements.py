"""What one client host has done on a class, by the team's results: its most IOPS, and its latency.

A result is one fio job on one host in one repetition. Clones of a job without group_reporting are
results of the same name run at once, so their IOPS are added up (and their latency is the slowest
clone's). Only single-direction jobs count: a mixed job's reads are only part of what its host
moved. A demand is matched by kind of I/O and block size, because 4 KiB and 8 KiB random reads
are not the same load on a host, nor the same latency.
"""

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from storbench_api.advisor.job_facts import job_facts
from storbench_api.planner.solve import WORKLOAD_WORDS, Demand
from storbench_api.storage_classes.schemas import Workload
from storbench_fio.units import format_size

# Per-direction latency percentiles stored as columns (ResultDirection.clat_p*_ns).
PERCENTILES = (50.0, 90.0, 95.0, 99.0, 99.9, 99.99)
_SINGLE_DIRECTION = {"read", "write", "randread", "randwrite"}
# Floating point: 20,000 ÷ 10,000 must be 2 hosts, not 3.
_TOLERANCE = 1e-9


@dataclass(frozen=True, slots=True)
class DirectionRow:
    """One direction of one stored result, as the repository reads it."""

    result_id: int
    source: tuple[str, int]  # the run, or the imported output, the result came from
    repetition: int
    host_name: str
    job_name: str
    measured_at: datetime
    options: dict[str, Any]
    direction: str
    iops: float
    clat_ns: dict[float, float | None]  # by percentile


@dataclass(frozen=True, slots=True)
class HostMeasurement:
    """What one host did in one job: its IOPS (clones added up) and its completion latency."""

    result_id: int  # the first of the job's results on that host
    host_name: str
    job_name: str
    measured_at: datetime
    workload: Workload
    bs_bytes: int
    iops: float
    clat_ns: dict[float, float]  # by percentile: the slowest clone's

    def source(self) -> str:
        """Which measurement this is, in words a person can look up."""
        return (
            f"result {self.result_id}: job {self.job_name} on {self.host_name}, {self.measured_at:%Y-%m-%d}"
        )


def _kind(row: DirectionRow) -> tuple[Workload, int] | None:
    try:
        facts = job_facts(row.options)
    except (KeyError, ValueError):
        return None  # options stored by an older version, or damaged: not evidence
    block = facts.block_size.get(row.direction)
    workload = facts.workload(row.direction)
    if (
        facts.rw not in _SINGLE_DIRECTION
        or block is None
        or workload is None
        or not facts.moves(row.direction)
    ):
        return None
    return workload, block


def host_measurements(rows: Iterable[DirectionRow]) -> list[HostMeasurement]:
    """Each job's figures per host and repetition, clones added up."""
    groups: dict[tuple[Any, ...], list[DirectionRow]] = {}
    kinds: dict[tuple[Any, ...], tuple[Workload, int]] = {}
    for row in rows:
        kind = _kind(row)
        if kind is None:
            continue
        key = (row.source, row.repetition, row.host_name, row.job_name, row.direction, kind)
        groups.setdefault(key, []).append(row)
        kinds[key] = kind
    found = []
    for key, clones in groups.items():
        first = min(clones, key=lambda r: r.result_id)
        latency = {
            p: max(values)
            for p in PERCENTILES
            if (values := [v for c in clones if (v := c.clat_ns.get(p)) is not None])
        }
        found.append(
            HostMeasurement(
                result_id=first.result_id,
                host_name=first.host_name,
                job_name=first.job_name,
                measured_at=first.measured_at,
                workload=kinds[key][0],
                bs_bytes=kinds[key][1],
                iops=sum(c.iops for c in clones),
                clat_ns=latency,
            )
        )
    return found


def _matching(measurements: Sequence[HostMeasurement], demand: Demand) -> list[HostMeasurement]:
    return [
        m
        for m in measurements
        if m.workload == demand.workload and m.bs_bytes == demand.bs_bytes and m.iops > 0
    ]


def _shape(demand: Demand) -> str:
    return f"{format_size(demand.bs_bytes)} {WORKLOAD_WORDS[demand.workload]}"


def best_per_host(measurements: Sequence[HostMeasurement], demand: Demand) -> HostMeasurement | None:
    """The most IOPS one host reached in the demand's shape (newest first among equals)."""
    matching = _matching(measurements, demand)
    return max(matching, key=lambda m: (m.iops, m.measured_at), default=None)


@dataclass(frozen=True, slots=True)
class HostsByIops:
    """Client hosts the demands need at what one host has reached, and the measurements used."""

    count: int | None
    reasons: list[str]
    used: list[tuple[Demand, HostMeasurement]]


def hosts_by_iops(measurements: Sequence[HostMeasurement], demands: Sequence[Demand]) -> HostsByIops:
    """Each demand takes its share of a host (its IOPS ÷ the most one host reached in its shape)."""
    used = [(d, best) for d in demands if (best := best_per_host(measurements, d)) is not None]
    if not used:
        return HostsByIops(count=None, reasons=[], used=[])
    count = max(1, math.ceil(sum(d.iops / best.iops for d, best in used) * (1 - _TOLERANCE)))
    reasons = [
        f"one client host reached at most {best.iops:,.0f} IOPS of {_shape(d)} on this class "
        f"({best.source()}); {d.iops:,.0f} IOPS take {d.iops / best.iops:.2f} of such hosts"
        for d, best in used
    ]
    if count > 1:
        reasons.append(f"at what one host has reached, the workload needs {count} client hosts")
    return HostsByIops(count=count, reasons=reasons, used=used)


def _percentile(demand: Demand) -> float:
    return demand.latency_percentile or 99.0


def measured_latency_reasons(
    measurements: Sequence[HostMeasurement], demands: Sequence[Demand], hosts: int
) -> list[str]:
    """Each latency bound against the team's measured latency in its shape, beside the published line."""
    reasons = []
    for demand in demands:
        if demand.latency_ms is None:
            continue
        pct = _percentile(demand)
        known = [m for m in _matching(measurements, demand) if pct in m.clat_ns]
        if not known:
            continue
        bound = f"p{pct:g} under {demand.latency_ms:g} ms"
        per_host = demand.iops / max(hosts, 1)
        held = [m for m in known if m.clat_ns[pct] / 1e6 <= demand.latency_ms]
        if held:
            best = max(held, key=lambda m: (m.iops, m.measured_at))
            reason = (
                f"measured p{pct:g} {best.clat_ns[pct] / 1e6:.3g} ms for {_shape(demand)} at "
                f"{best.iops:,.0f} IOPS on one host ({best.source()}): {bound} held"
            )
            if best.iops < per_host * (1 - _TOLERANCE):
                reason += f" below the {per_host:,.0f} IOPS each host would carry: verify at that load"
        else:
            best = min(known, key=lambda m: (m.clat_ns[pct], -m.iops))
            reason = (
                f"measured p{pct:g} never under {demand.latency_ms:g} ms for {_shape(demand)}: "
                f"at best {best.clat_ns[pct] / 1e6:.3g} ms at {best.iops:,.0f} IOPS on one host "
                f"({best.source()})"
            )
        reasons.append(reason)
    return reasons
