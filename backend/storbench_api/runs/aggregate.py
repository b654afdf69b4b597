"""What several hosts measured together: throughput over their common window, merged latency.

Totals come from the per-second series inside the window where every host was running, not from
bytes over the longest runtime; percentiles come from the summed json+ latency histograms, never
from averaging per-host percentiles.
"""

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import get_args

from storbench_api.figures.definition import CLAT_PERCENTILES
from storbench_api.models import Assignment, ProgressSample, Result
from storbench_api.runs.schemas import Aggregate, AggregateDirection
from storbench_protocol.progress import Direction


def percentiles_from_histogram(histogram: dict[int, int]) -> dict[str, float]:
    """Latency percentiles (ns) of a histogram of latency → count."""
    total = sum(histogram.values())
    if total == 0:
        return {}
    found: dict[str, float] = {}
    cumulative = 0
    wanted = [(key, float(key) / 100 * total) for key in CLAT_PERCENTILES]
    for latency, count in sorted(histogram.items()):
        cumulative += count
        while wanted and cumulative >= wanted[0][1]:
            found[wanted.pop(0)[0]] = float(latency)
    for key, _ in wanted:
        found[key] = float(max(histogram))
    return found


def merged_histogram(results: Sequence[Result], direction: str) -> dict[int, int]:
    """clat histograms of one direction summed over results (json+ bins)."""
    merged: dict[int, int] = {}
    for result in results:
        clat = (result.detail.get(direction) or {}).get("clat_ns") or {}
        for latency, count in (clat.get("histogram") or {}).items():
            merged[int(latency)] = merged.get(int(latency), 0) + int(count)
    return merged


def _offset(assignment: Assignment) -> timedelta:
    """Server clock minus host clock, as the host measured it when it started fio."""
    return timedelta(milliseconds=assignment.worker_info.clock_offset_ms or 0)


def aggregate_run(
    assignments: Sequence[Assignment],
    results: Sequence[Result],
    samples: Sequence[ProgressSample],
) -> Aggregate | None:
    """The aggregate of a run measured on more than one host, or None."""
    by_assignment: dict[int, list[Result]] = {}
    for result in results:
        if result.assignment_id is not None:
            by_assignment.setdefault(result.assignment_id, []).append(result)
    measured = [a for a in assignments if by_assignment.get(a.id)]
    if len(measured) < 2:
        return None
    starts = {a.id: a.worker_info.fio_started_at for a in measured}
    known_starts = [s for s in starts.values() if s is not None]
    skew_ms = (
        (max(known_starts) - min(known_starts)).total_seconds() * 1000
        if len(known_starts) == len(measured)
        else None
    )
    ends = {}
    for a in measured:
        runtime_ms = max(
            (float(d.get("runtime_ms") or 0) for r in by_assignment[a.id] for d in r.detail.values()),
            default=0.0,
        )
        start = starts[a.id]
        ends[a.id] = start + timedelta(milliseconds=runtime_ms) if start else None
    window_start = max(known_starts) if known_starts else None
    window_end = min((e for e in ends.values() if e is not None), default=None)
    window_s = (window_end - window_start).total_seconds() if window_start and window_end else 0.0

    measured_directions = {d for a in measured for r in by_assignment[a.id] for d in r.detail}
    directions = [d for d in get_args(Direction) if d in measured_directions]
    out: dict[Direction, AggregateDirection] = {}
    method = "per-second samples inside the window where every host was running"
    for direction in directions:
        iops = bw = 0.0
        for a in measured:
            inside = _samples_inside(a, samples, direction, window_start, window_end)
            if inside:
                iops += sum(s[0] for s in inside) / len(inside)
                bw += sum(s[1] for s in inside) / len(inside)
            else:
                # Too short for a full second inside the window: the host's own average.
                method = "per-host averages where a host had no full second inside the common window"
                iops += sum(
                    float((r.detail.get(direction) or {}).get("iops") or 0) for r in by_assignment[a.id]
                )
                bw += sum(
                    float((r.detail.get(direction) or {}).get("bw_bytes") or 0) for r in by_assignment[a.id]
                )
        histogram = merged_histogram([r for a in measured for r in by_assignment[a.id]], direction)
        out[direction] = AggregateDirection(
            iops=iops,
            bw_bytes=bw,
            clat_percentiles_ns=percentiles_from_histogram(histogram),
            clat_samples=sum(histogram.values()),
        )
    return Aggregate(
        hosts=len(measured), window_s=max(window_s, 0.0), start_skew_ms=skew_ms, directions=out, method=method
    )


def _samples_inside(
    assignment: Assignment,
    samples: Sequence[ProgressSample],
    direction: Direction,
    window_start: datetime | None,
    window_end: datetime | None,
) -> list[tuple[float, float]]:
    """(iops, bw) of this host's seconds that lie wholly inside the common window."""
    if window_start is None or window_end is None:
        return []
    inside = []
    for sample in samples:
        if sample.assignment_id != assignment.id or sample.measured_at is None:
            continue
        end = sample.measured_at + _offset(assignment)
        if end - timedelta(seconds=1) >= window_start and end <= window_end:
            figures = sample.directions.get(direction)
            inside.append((figures.iops, figures.bw_bytes) if figures is not None else (0.0, 0.0))
    return inside
