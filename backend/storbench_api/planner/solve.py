"""Solving a class's spec backwards: the smallest capacity whose published figures carry a workload.

Pure functions over a spec (storage_classes.schemas.SpecIn) and the workload's demands; the spec is
evaluated by storage_classes.expected, the one place that reads formulas.

The load a spec line must carry is the sum of every demand that line answers for, in the line's
own unit: a cloud disk's IOPS cap is shared by reads and writes, and 20,000 IOPS at 16 KiB is
also 328 MB/s against its throughput line (throughput = IOPS × block size). Spec formulas grow
with capacity (a bigger volume is never slower), so the smallest capacity meeting every line is
found by bisection over whole GiB, whatever the formula's shape.
"""

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from storbench_api.storage_classes.expected import Provisioned, expected_figures, figure_for
from storbench_api.storage_classes.schemas import ExpectedFigure, Metric, SpecIn, Workload

# A class sold without a largest volume (a NAS, a file system) is sized up to 1 PiB.
CAPACITY_CEILING_GIB = 1024 * 1024
# Floating point: 0.15 × 1000 is 150.00000000000003, 0.1 × 3 is 0.30000000000000004.
_TOLERANCE = 1e-9

WORKLOAD_WORDS = {
    Workload.random_read: "random reads",
    Workload.random_write: "random writes",
    Workload.sequential_read: "sequential reads",
    Workload.sequential_write: "sequential writes",
    Workload.any: "every kind of test",
}


@dataclass(frozen=True, slots=True)
class Demand:
    """One figure a workload needs: IOPS or MB/s of one kind of I/O at one block size."""

    metric: Metric  # iops or throughput (MB/s, 10^6 bytes as vendors publish it)
    value: float
    workload: Workload
    bs_bytes: int
    latency_ms: float | None = None
    latency_percentile: float | None = None

    @property
    def iops(self) -> float:
        """The demand in I/Os per second."""
        return self.value if self.metric == Metric.iops else self.value * 1e6 / self.bs_bytes

    @property
    def mbps(self) -> float:
        """The demand in MB/s."""
        return self.value if self.metric == Metric.throughput else self.value * self.bs_bytes / 1e6

    def load_in(self, metric: Metric) -> float:
        """The demand in a spec line's unit."""
        return self.iops if metric == Metric.iops else self.mbps


LineKey = tuple[Metric, Workload]


@dataclass(frozen=True, slots=True)
class Requirement:
    """A spec line and the load the workload puts on it."""

    metric: Metric
    workload: Workload
    unit: str
    load: float
    demands: tuple[int, ...]  # indexes into the workload's demands

    @property
    def key(self) -> LineKey:
        """The line's (metric, workload)."""
        return (self.metric, self.workload)


def figures_at(spec: SpecIn, capacity_gib: float, provisioned: Provisioned) -> list[ExpectedFigure]:
    """The spec's figures at a capacity (the provisioned IOPS/MB/s kept)."""
    at = Provisioned(capacity_gib=capacity_gib, iops=provisioned.iops, mbps=provisioned.mbps)
    figures, _ = expected_figures(spec, at)
    return figures


def requirements(figures: Sequence[ExpectedFigure], demands: Sequence[Demand]) -> list[Requirement]:
    """The load on each IOPS and throughput line that answers for one of the demands."""
    grouped: dict[LineKey, tuple[str, float, list[int]]] = {}
    for index, demand in enumerate(demands):
        for metric in (Metric.iops, Metric.throughput):
            line = figure_for(list(figures), metric, demand.workload)
            if line is None:
                continue
            unit, load, which = grouped.get((line.metric, line.workload), (line.unit, 0.0, []))
            grouped[(line.metric, line.workload)] = (unit, load + demand.load_in(metric), [*which, index])
    return [
        Requirement(metric=m, workload=w, unit=unit, load=load, demands=tuple(which))
        for (m, w), (unit, load, which) in grouped.items()
    ]


def unsized(figures: Sequence[ExpectedFigure], demands: Sequence[Demand]) -> list[int]:
    """Demands no IOPS or throughput line of the spec answers for."""
    return [
        i
        for i, d in enumerate(demands)
        if figure_for(list(figures), Metric.iops, d.workload) is None
        and figure_for(list(figures), Metric.throughput, d.workload) is None
    ]


def _value(figures: Sequence[ExpectedFigure], key: LineKey) -> float:
    for figure in figures:
        if (figure.metric, figure.workload) == key:
            return figure.expected
    return 0.0


@dataclass(frozen=True, slots=True)
class Shortfall:
    """A line the spec cannot lift to its load, even at the largest volume."""

    requirement: Requirement
    ceiling: float  # the line's figure at the largest volume, after any measured ratio
    at_capacity_gib: int


@dataclass(frozen=True, slots=True)
class Sizing:
    """The smallest capacity meeting every line, or the lines that cannot be met."""

    capacity_gib: int | None
    shortfalls: list[Shortfall] = field(default_factory=list)
    # Each line's figure ÷ its load at the capacity found (1.25: a quarter more than needed).
    headroom: dict[LineKey, float] = field(default_factory=dict)
    depends_on_capacity: bool = True


def capacity_bounds(spec: SpecIn, data_gib: float | None) -> tuple[int, int]:
    """The whole GiB a volume of the class may have, at least the data it must hold."""
    low = max(1, math.ceil(spec.min_capacity_gib or 0), math.ceil(data_gib or 0))
    high = math.floor(spec.max_capacity_gib) if spec.max_capacity_gib else CAPACITY_CEILING_GIB
    return low, high


def smallest_capacity(
    spec: SpecIn,
    needs: Sequence[Requirement],
    *,
    provisioned: Provisioned = Provisioned(),
    ratios: Mapping[LineKey, float] | None = None,
    data_gib: float | None = None,
) -> Sizing:
    """The smallest whole GiB whose spec (× measured ratio, per line) carries every load."""
    ratios = ratios or {}
    low, high = capacity_bounds(spec, data_gib)

    def delivered(capacity: int) -> dict[LineKey, float]:
        figures = figures_at(spec, capacity, provisioned)
        return {r.key: _value(figures, r.key) * ratios.get(r.key, 1.0) for r in needs}

    def meets(capacity: int) -> bool:
        got = delivered(capacity)
        return all(got[r.key] >= r.load * (1 - _TOLERANCE) for r in needs)

    if high < low:
        return Sizing(capacity_gib=None)
    at_high = delivered(high)
    grows = delivered(low) != at_high
    if not meets(high):
        short = [
            Shortfall(requirement=r, ceiling=at_high[r.key], at_capacity_gib=high)
            for r in needs
            if at_high[r.key] < r.load * (1 - _TOLERANCE)
        ]
        return Sizing(capacity_gib=None, shortfalls=short, depends_on_capacity=grows)
    found = low
    if not meets(low):
        below, above = low, high  # meets(below) is false, meets(above) true
        while above - below > 1:
            middle = (below + above) // 2
            below, above = (below, middle) if meets(middle) else (middle, above)
        found = above
    got = delivered(found)
    headroom = {r.key: got[r.key] / r.load for r in needs if r.load > 0}
    return Sizing(capacity_gib=found, headroom=headroom, depends_on_capacity=delivered(low) != at_high)


def hosts_needed(
    *, min_hosts: int, network_share: bool, total_mbps: float, host_nic_mbps: float | None
) -> tuple[int, int | None]:
    """Client hosts: the class's minimum, and for a share enough NICs for the throughput (the NIC count)."""
    by_nic = None
    if network_share and host_nic_mbps and total_mbps > 0:
        by_nic = math.ceil(total_mbps / host_nic_mbps * (1 - _TOLERANCE))
    return max(min_hosts, by_nic or 1), by_nic
