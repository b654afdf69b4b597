"""Curves from results: group them into series, combine clones and hosts, take each point's median.

A series is one run's job (or imported results with one label, each output one point, as bench-fio
writes them), identified by the job's shape without the axis. Within a repetition, results of one
host at one point (numjobs clones reported one by one) add up; hosts add up into the aggregate, whose
latency is the slowest host's (mean and p99), the figure a shared system gave every host at once.
"""

import statistics
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

from storbench_api.curves import repository
from storbench_api.curves.axis import AXIS_OPTIONS, axis_value
from storbench_api.curves.knee import LoadPoint, find_knee, highest_load_under
from storbench_api.curves.schemas import Curve, CurvePoint, CurvesOut, CurveSpecLine, KneeOut
from storbench_api.errors import Invalid, NotFound
from storbench_api.figures.definition import Figure, MeasuredPer
from storbench_api.figures.schemas import describe
from storbench_api.models import Result, ResultDirection
from storbench_fio.reported import job_shape

MAX_RESULTS = 5000


@dataclass(frozen=True)
class Measure:
    """One (host or aggregate, repetition, point) of a series: its figures combined."""

    figure: float | None
    iops: float
    lat_mean_ns: float | None
    clat_p99_ns: float | None


def curves(
    db: Session,
    team_id: int,
    *,
    result_ids: Sequence[int],
    run_ids: Sequence[int],
    axis: str,
    figure: Figure,
    direction: str | None,
    p99_bound_ns: float | None,
) -> CurvesOut:
    """The curves of `figure` along `axis` of the results asked for (and of the runs asked for)."""
    if axis not in AXIS_OPTIONS:
        raise Invalid(
            f"axis: a curve runs along one of {', '.join(AXIS_OPTIONS)}",
            [{"field": "axis", "value": axis, "reason": f"one of {', '.join(AXIS_OPTIONS)}"}],
        )
    if figure.per is not MeasuredPer.direction:
        raise Invalid(
            f"figure: {figure.value} is a figure of the whole job; a curve needs a figure of one direction",
            [{"field": "figure", "value": figure.value, "reason": "a direction figure (GET /figures)"}],
        )
    if not result_ids and not run_ids:
        raise Invalid("give ids (result ids) or run_ids", [{"field": "ids", "reason": "no result or run"}])
    results = repository.results_for_curves(db, team_id, result_ids, run_ids)
    missing = sorted(set(result_ids) - {r.id for r in results})
    if missing:
        raise NotFound(f"results {', '.join(map(str, missing[:10]))} not found in this team")
    if len(results) > MAX_RESULTS:
        raise Invalid(
            f"{len(results)} results; a curve takes at most {MAX_RESULTS}",
            [{"field": "ids", "reason": "fewer results"}],
        )
    chosen = _direction(results, direction)
    knee_figure = figure if figure.higher_is_better else (Figure.bw_bytes if axis == "bs" else Figure.iops)
    series: dict[str, list[Result]] = defaultdict(list)
    for result in results:
        row = _row(result, chosen)
        # A job fio never reached (a stopped sweep's later points) measured nothing: no point.
        if axis_value(result.options, axis) is not None and row is not None and row.iops > 0:
            series[_series_key(result, axis)].append(result)
    drawn: list[Curve] = []
    for key, members in series.items():
        hosts = sorted({r.host_name for r in members})
        drawn.append(_curve(key, members, None, hosts, axis, figure, knee_figure, chosen, p99_bound_ns))
        if len(hosts) > 1:
            for host in hosts:
                own = [r for r in members if r.host_name == host]
                drawn.append(_curve(key, own, host, hosts, axis, figure, knee_figure, chosen, p99_bound_ns))
    return CurvesOut(
        axis=axis,
        direction=chosen,  # type: ignore[arg-type]
        figure=describe(figure),
        knee_figure=describe(knee_figure),
        p99_bound_ns=p99_bound_ns,
        curves=drawn,
    )


def _direction(results: Sequence[Result], asked: str | None) -> str:
    """The direction asked for, else the one direction the results did I/O in."""
    measured = sorted({d.direction for r in results for d in r.directions if d.iops > 0})
    if asked is not None:
        if measured and asked not in measured:
            raise Invalid(
                f"direction: these results did no {asked} I/O (they did {', '.join(measured)})",
                [{"field": "direction", "value": asked, "reason": f"one of {', '.join(measured)}"}],
            )
        return asked
    if len(measured) > 1:
        raise Invalid(
            f"direction: these results did {' and '.join(measured)} I/O; say which curve to draw",
            [{"field": "direction", "reason": f"one of {', '.join(measured)}"}],
        )
    return measured[0] if measured else "read"


def _row(result: Result, direction: str) -> ResultDirection | None:
    return next((d for d in result.directions if d.direction == direction), None)


def _series_key(result: Result, axis: str) -> str:
    shape = {k: v for k, v in job_shape(result.options).items() if k != axis}
    source = (
        f"run {result.run_id}"
        if result.run_id is not None
        else result.label or result.storage_class or "imported"
    )
    return source + " · " + " ".join(f"{k}={v}" for k, v in sorted(shape.items()))


_RATES = (Figure.iops, Figure.bw_bytes)


def _host_measure(results: Sequence[Result], figure: Figure, direction: str) -> Measure:
    """One host's clones at one point: rates add up, mean latency is IOPS-weighted, percentiles the worst."""
    rows = [row for r in results if (row := _row(r, direction)) is not None]
    iops = sum(row.iops for row in rows)
    weighted = [(row.lat_mean_ns, row.iops) for row in rows if row.lat_mean_ns is not None]
    weight = sum(w for _, w in weighted)
    lat_mean = sum(m * w for m, w in weighted) / weight if weight else None
    p99s = [row.clat_p99_ns for row in rows if row.clat_p99_ns is not None]
    if figure in _RATES:
        value: float | None = sum(float(getattr(row, figure.key)) for row in rows)
    elif figure is Figure.lat_mean_ns:
        value = lat_mean
    else:
        known = [float(v) for row in rows if (v := getattr(row, figure.key)) is not None]
        value = max(known) if known else None
    return Measure(value, iops, lat_mean, max(p99s) if p99s else None)


def _all_hosts(measures: Sequence[Measure], figure: Figure) -> Measure:
    """Hosts at once: rates add up, latency is the slowest host's."""

    def worst(values: Sequence[float | None]) -> float | None:
        known = [v for v in values if v is not None]
        return max(known) if known else None

    if figure in _RATES:
        value: float | None = sum(m.figure or 0.0 for m in measures)
    else:
        value = worst([m.figure for m in measures])
    return Measure(
        value,
        sum(m.iops for m in measures),
        worst([m.lat_mean_ns for m in measures]),
        worst([m.clat_p99_ns for m in measures]),
    )


def _median(values: Sequence[float | None]) -> float | None:
    known = [v for v in values if v is not None]
    return statistics.median(known) if known else None


def _by_point(members: Sequence[Result], axis: str) -> dict[float, dict[int, dict[str, list[Result]]]]:
    """The results at each value of the swept option, by repetition, then by host."""
    grouped: dict[float, dict[int, dict[str, list[Result]]]] = defaultdict(
        lambda: defaultdict(lambda: defaultdict(list))
    )
    for result in members:
        value = axis_value(result.options, axis)
        assert value is not None
        grouped[value][_repetition(result)][result.host_name].append(result)
    return grouped


def _curve(
    key: str,
    members: Sequence[Result],
    host_name: str | None,
    hosts: list[str],
    axis: str,
    figure: Figure,
    knee_figure: Figure,
    direction: str,
    p99_bound_ns: float | None,
) -> Curve:
    """One curve: each point's repetitions (hosts combined unless one host is asked), knee and bound."""
    grouped = _by_point(members, axis)
    points: list[CurvePoint] = []
    load: list[LoadPoint] = []
    for value in sorted(grouped):
        shown, knee_side = [], []
        for by_host in grouped[value].values():
            shown.append(
                _all_hosts([_host_measure(rs, figure, direction) for rs in by_host.values()], figure)
            )
            knee_side.append(
                _all_hosts(
                    [_host_measure(rs, knee_figure, direction) for rs in by_host.values()], knee_figure
                )
            )
        figures = [m.figure for m in shown if m.figure is not None]
        if not figures:
            continue
        here = [r for by_host in grouped[value].values() for rs in by_host.values() for r in rs]
        point = CurvePoint(
            value=value,
            median=statistics.median(figures),
            low=min(figures),
            high=max(figures),
            n=len(figures),
            lat_mean_ns=_median([m.lat_mean_ns for m in shown]),
            clat_p99_ns=_median([m.clat_p99_ns for m in shown]),
            partial=any(r.partial for r in here),
            steady=_steady(here, direction),
            result_ids=sorted(r.id for r in here),
        )
        points.append(point)
        knee_value = _median([m.figure for m in knee_side])
        if knee_value is not None and point.lat_mean_ns is not None:
            load.append(LoadPoint(value, knee_value, point.lat_mean_ns, point.clat_p99_ns))
    knee = find_knee(load)
    first = members[0]
    return Curve(
        key=key if host_name is None else f"{key} · {host_name}",
        title=_title(first, key, host_name),
        run_id=first.run_id,
        host_name=host_name,
        hosts=hosts,
        job_names=sorted({r.job_name for r in members}),
        storage_class=first.storage_class,
        label=first.label,
        fixed={
            name: held
            for name in AXIS_OPTIONS
            if name != axis and (held := axis_value(first.options, name)) is not None
        },
        points=points,
        knee=KneeOut(
            value=knee.value,
            next_value=knee.next_value or knee.value,
            gain=knee.gain or 0.0,
            latency_rise=knee.latency_rise or 0.0,
        )
        if knee.value is not None
        else None,
        knee_reason=knee.reason,
        spec_line=_spec_line(members, figure, direction),
        highest_load_under_bound=highest_load_under(load, p99_bound_ns) if p99_bound_ns else None,
    )


# A spec's metric and the factor from its published unit (IOPS, MB/s, ms) to the figure's.
_SPEC_METRICS = {
    Figure.iops: ("iops", 1.0),
    Figure.bw_bytes: ("throughput", 1e6),
    Figure.lat_mean_ns: ("latency", 1e6),
}


def _spec_line(members: Sequence[Result], figure: Figure, direction: str) -> CurveSpecLine | None:
    """The spec line the newest result of the series was judged by, for this figure and direction."""
    if figure not in _SPEC_METRICS:
        return None
    metric, factor = _SPEC_METRICS[figure]
    for result in sorted(members, key=lambda r: r.id, reverse=True):
        for check in result.spec_checks or []:
            if check.get("direction") == direction and check.get("metric") == metric:
                low = check.get("low")
                return CurveSpecLine(
                    storage_class=result.storage_class or "",
                    value=float(check["expected"]) * factor,
                    low=float(low) * factor if low is not None else None,
                    formula=str(check.get("formula") or ""),
                )
    return None


def _steady(results: Sequence[Result], direction: str) -> bool | None:
    """Whether the point was measured in steady state (runs.steadiness), None when unknown."""
    verdicts = [(r.steady_state or {}).get(direction) or {} for r in results]

    def outside(verdict: dict[str, Any]) -> bool:
        early = verdict.get("round") is not None and int(verdict["round"]) < int(verdict["reached_at"] or 0)
        return verdict.get("status") == "not_steady" or early

    if any(outside(v) for v in verdicts):
        return False
    return True if all(v.get("status") == "steady" for v in verdicts) else None


def _repetition(result: Result) -> int:
    """Which repetition: a run's, or (imports) each result its own."""
    return result.repetition if result.run_id is not None else result.id


def _title(result: Result, key: str, host_name: str | None) -> str:
    what = result.label or result.storage_class or key.split(" · ")[0]
    if result.run_id is not None:
        what = f"run {result.run_id}" + (f" ({result.label})" if result.label else "")
    who = host_name or "all hosts"
    return f"{what} · {result.job_name} · {who}"
