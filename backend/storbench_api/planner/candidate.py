"""One class sized for a workload: capacity by spec and by the team's measurements, hosts, cost, reasons.

Pure: the service loads the classes, measurements and host facts and hands them here.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from storbench_api.models.storage_class import Protocol
from storbench_api.planner.host_measurements import HostMeasurement, hosts_by_iops, measured_latency_reasons
from storbench_api.planner.measurements import RatioSummary, ratios_by_line
from storbench_api.planner.schemas import Candidate, Constraints, HostIops, LineLoad, MeasuredRatio
from storbench_api.planner.solve import (
    WORKLOAD_WORDS,
    Demand,
    LineKey,
    Requirement,
    Sizing,
    capacity_bounds,
    figures_at,
    hosts_needed,
    requirements,
    smallest_capacity,
    unsized,
)
from storbench_api.planner.verification import recipes_for
from storbench_api.storage_classes.expected import Provisioned, figure_for
from storbench_api.storage_classes.formula import parse_formula
from storbench_api.storage_classes.schemas import Metric, SpecIn, StorageClassOut

# Protocols whose clients reach the storage over their own network: a client never moves more
# than its NIC (METHODOLOGY.md §3, "1 Gbps → 125 MB/s").
NETWORK_SHARES = {Protocol.nfs, Protocol.smb, Protocol.cfs}


def _words(requirement: Requirement) -> str:
    return WORKLOAD_WORDS[requirement.workload]


def _figure(value: float, unit: str) -> str:
    return f"{value:,.0f} {unit}" if value >= 100 else f"{value:,.3g} {unit}"


def _provisioned(spec: SpecIn, demands: Sequence[Demand]) -> Provisioned:
    """Volumes sold by IOPS or MB/s are provisioned at what the workload asks in total."""
    names: set[str] = set()
    for line in spec.expectations:
        for text in (line.formula, line.low_formula):
            if text:
                names |= parse_formula(text).variables
    return Provisioned(
        iops=sum(d.iops for d in demands) if "provisioned_iops" in names else None,
        mbps=sum(d.mbps for d in demands) if "provisioned_mbps" in names else None,
    )


def _shortfall_reasons(name: str, sizing: Sizing, ratios: Mapping[LineKey, float]) -> list[str]:
    reasons = []
    for short in sizing.shortfalls:
        need = short.requirement
        where = (
            f"at its largest volume ({short.at_capacity_gib:,} GiB)"
            if sizing.depends_on_capacity
            else "at any capacity"
        )
        measured = ratios.get(need.key)
        caps = f"measured at {measured:.2f}× its spec, tops out" if measured else "caps"
        reasons.append(
            f"{name} {caps} at {_figure(short.ceiling, need.unit)} for {_words(need)} {where}; "
            f"the workload needs {_figure(need.load, need.unit)}"
        )
    return reasons


def _ratio_out(summary: RatioSummary) -> MeasuredRatio:
    rounded = (None if v is None else round(v, 3) for v in (summary.median, summary.low, summary.high))
    median, low, high = rounded
    return MeasuredRatio(
        metric=summary.metric,
        workload=summary.workload,
        median=median,
        low=low,
        high=high,
        n=summary.n,
        above_spec=summary.above_spec,
        trusted=summary.trusted,
    )


def _measurement_reasons(
    needs: Sequence[Requirement], summaries: Mapping[LineKey, RatioSummary]
) -> list[str]:
    reasons = []
    for need in needs:
        summary = summaries.get(need.key)
        metric = "IOPS" if need.metric == Metric.iops else "throughput"
        if summary is None:
            reasons.append(
                f"no measurements by the team of {metric} for {_words(need)}: sized by the spec alone"
            )
        elif not summary.trusted:
            reasons.append(
                f"{metric} for {_words(need)} measured only above its spec ({summary.above_spec} results: "
                "a cache answered): not trusted for the sustained figure"
            )
        elif summary.median is not None:
            reasons.append(
                f"{metric} for {_words(need)} measured at {summary.median:.2f}× its spec "
                f"({summary.low:.2f}–{summary.high:.2f}, n={summary.n})"
            )
    return reasons


def _latency_reasons(spec: SpecIn, demands: Sequence[Demand], capacity: float) -> tuple[bool, list[str]]:
    """Whether every latency bound can hold by the published latency, and what to know."""
    figures = figures_at(spec, capacity, Provisioned())
    ok, reasons = True, []
    for demand in demands:
        if demand.latency_ms is None:
            continue
        pct = f"p{demand.latency_percentile:g}" if demand.latency_percentile else "latency"
        bound = f"{pct} under {demand.latency_ms:g} ms for {WORKLOAD_WORDS[demand.workload]}"
        line = figure_for(figures, Metric.latency, demand.workload)
        if line is None:
            reasons.append(f"publishes no latency: the verification plan measures the {bound}")
            continue
        fastest = line.low if line.low is not None else line.expected
        shown = f"{line.low:g}–{line.expected:g}" if line.low is not None else f"{line.expected:g}"
        if fastest > demand.latency_ms:
            ok = False
            reasons.append(f"its single-stream latency is {shown} ms: {bound} is out of reach")
        elif line.expected > demand.latency_ms:
            reasons.append(f"its single-stream latency is {shown} ms: {bound} is not assured")
    return ok, reasons


def _lines(
    spec: SpecIn,
    needs: Sequence[Requirement],
    capacity: int | None,
    provisioned: Provisioned,
    ratios: Mapping[LineKey, float],
) -> list[LineLoad]:
    figures = figures_at(spec, capacity, provisioned) if capacity is not None else []
    out = []
    for need in needs:
        value = next((f.expected for f in figures if (f.metric, f.workload) == need.key), None)
        headroom = (
            value * ratios.get(need.key, 1.0) / need.load if value is not None and need.load > 0 else None
        )
        out.append(
            LineLoad(
                metric=need.metric,
                workload=need.workload,
                unit=need.unit,
                load=round(need.load, 3),
                spec_at_capacity=value,
                headroom=None if headroom is None else round(headroom, 4),
            )
        )
    return out


@dataclass(frozen=True, slots=True)
class Hosts:
    """Client hosts needed and why."""

    count: int
    by_nic: int | None
    by_iops: int | None
    per_host: list[HostIops]
    reasons: list[str]


def _hosts(
    info: StorageClassOut,
    demands: Sequence[Demand],
    host_nic_mbps: float | None,
    measured: Sequence[HostMeasurement],
) -> Hosts:
    spec, total_mbps = info.spec, sum(d.mbps for d in demands)
    share = info.protocol in NETWORK_SHARES
    count, by_nic = hosts_needed(
        min_hosts=spec.min_hosts, network_share=share, total_mbps=total_mbps, host_nic_mbps=host_nic_mbps
    )
    by_iops = hosts_by_iops(measured, demands)
    count = max(count, by_iops.count or 1)
    per_host = [
        HostIops(
            workload=m.workload,
            bs_bytes=m.bs_bytes,
            iops=round(m.iops, 1),
            result_id=m.result_id,
            host_name=m.host_name,
            job_name=m.job_name,
            measured_at=m.measured_at,
        )
        for _, m in by_iops.used
    ]
    reasons = list(by_iops.reasons)
    if spec.min_hosts > 1:
        reasons.append(f"its published figures need at least {spec.min_hosts} client hosts at once")
    if by_nic is not None and host_nic_mbps is not None and by_nic > 1:
        reasons.append(
            f"{_figure(total_mbps, 'MB/s')} at {_figure(host_nic_mbps, 'MB/s')} per client NIC "
            f"needs {by_nic} hosts"
        )
    elif share and host_nic_mbps is None and total_mbps > 0:
        reasons.append("no client NIC speed known: hosts not sized for throughput")
    return Hosts(count=count, by_nic=by_nic, by_iops=by_iops.count, per_host=per_host, reasons=reasons)


def _cost(
    spec: SpecIn, capacity: int | None, constraints: Constraints
) -> tuple[float | None, bool, list[str]]:
    """Monthly cost, whether it is within the budget, and what to know."""
    if spec.price_per_gib_month is None:
        note = "no price: the budget cannot be checked" if constraints.budget is not None else "no price"
        return None, True, [note]
    if capacity is None:
        return None, True, []
    cost = round(spec.price_per_gib_month * capacity, 2)
    if constraints.budget is not None and cost > constraints.budget:
        return cost, False, [f"costs {cost:,.2f} a month, above the budget of {constraints.budget:,.2f}"]
    return cost, True, []


def size_class(
    info: StorageClassOut,
    demands: Sequence[Demand],
    constraints: Constraints,
    checks: Sequence[Mapping[str, Any]],
    host_nic_mbps: float | None,
    measured: Sequence[HostMeasurement] = (),
) -> Candidate:
    """Can the class carry the workload, at what capacity, with how many hosts, for how much, and why."""
    spec = info.spec
    provisioned = _provisioned(spec, demands)
    low, _ = capacity_bounds(spec, constraints.data_gib)
    figures = figures_at(spec, low, provisioned)
    needs = requirements(figures, demands)
    feasible, reasons = True, []
    for index in unsized(figures, demands):
        feasible = False
        reasons.append(
            f"{info.name} publishes no IOPS or throughput for {WORKLOAD_WORDS[demands[index].workload]}: "
            "only a measurement can size it"
        )
    by_spec = smallest_capacity(spec, needs, provisioned=provisioned, data_gib=constraints.data_gib)
    reasons += _shortfall_reasons(info.name, by_spec, {})
    if by_spec.capacity_gib is None and not by_spec.shortfalls:
        reasons.append(f"{constraints.data_gib:,.0f} GiB of data is more than its largest volume")
    feasible = feasible and by_spec.capacity_gib is not None
    summaries = ratios_by_line(checks)
    ratios = {n.key: s.median for n in needs if (s := summaries.get(n.key)) and s.median is not None}
    reasons += _measurement_reasons(needs, summaries)
    by_measure = by_spec
    if ratios and feasible:
        by_measure = smallest_capacity(
            spec, needs, provisioned=provisioned, ratios=ratios, data_gib=constraints.data_gib
        )
        reasons += _shortfall_reasons(info.name, by_measure, ratios)
        feasible = by_measure.capacity_gib is not None
    sizes = [c for c in (by_spec.capacity_gib, by_measure.capacity_gib) if c is not None]
    proposed = max(sizes) if feasible and sizes else None
    if feasible and proposed is not None:
        latency_ok, latency_notes = _latency_reasons(spec, demands, proposed)
        feasible, reasons = latency_ok, reasons + latency_notes
    hosts = _hosts(info, demands, host_nic_mbps, measured)
    reasons += hosts.reasons + measured_latency_reasons(measured, demands, hosts.count)
    if constraints.max_hosts is not None and hosts.count > constraints.max_hosts:
        feasible = False
        reasons.append(f"needs {hosts.count} client hosts, more than the {constraints.max_hosts} allowed")
    cost, affordable, cost_notes = _cost(spec, proposed, constraints)
    feasible, reasons = feasible and affordable, reasons + cost_notes
    lines = _lines(spec, needs, proposed, provisioned, ratios)
    headrooms = [line.headroom for line in lines if line.headroom is not None]
    binding = min(
        (summaries[n.key] for n in needs if n.key in ratios), key=lambda s: s.median or 0, default=None
    )
    return Candidate(
        storage_class_id=info.id,
        name=info.name,
        vendor=info.vendor,
        protocol=info.protocol,
        tier=info.tier,
        published=info.published,
        feasible=feasible,
        capacity_gib=by_spec.capacity_gib,
        measured_capacity_gib=by_measure.capacity_gib if ratios else None,
        proposed_capacity_gib=proposed,
        provisioned_iops=provisioned.iops,
        provisioned_mbps=provisioned.mbps,
        hosts=hosts.count,
        min_hosts=spec.min_hosts,
        hosts_by_nic=hosts.by_nic,
        hosts_by_iops=hosts.by_iops,
        host_iops=hosts.per_host,
        price_per_gib_month=spec.price_per_gib_month,
        monthly_cost=cost,
        headroom=min(headrooms) if headrooms else None,
        lines=lines,
        measured_ratio=_ratio_out(binding) if binding else None,
        measurements=[_ratio_out(summaries[n.key]) for n in needs if n.key in summaries],
        reasons=reasons,
        verification_presets=[p.id for p in recipes_for(info.protocol, demands)],
    )


def ranked(candidates: Sequence[Candidate]) -> list[Candidate]:
    """Feasible first; then cheapest (priced before unpriced); then most headroom; then by name."""
    return sorted(
        candidates,
        key=lambda c: (
            not c.feasible,
            c.monthly_cost is None,
            c.monthly_cost or 0.0,
            -(c.headroom or 0.0),
            c.name,
        ),
    )
