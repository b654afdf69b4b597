"""A sweep: the run's jobs at every point of a matrix of numeric options, one point after the other.

Every point is the planned jobs with the swept options set, behind a stonewall, so points never
overlap; the job names stay as planned, so each point reuses the files laid out for the first. The
whole matrix runs in one fio invocation, each point's repetitions one after the other before the next
point (so a cancelled or stopped sweep keeps whole points; `sweep_shuffle` guards against a drift in
time being read as a trend). A result knows its point from its options, which the sweep set
explicitly, and its repetition from fio's reporting group.
"""

import itertools
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from storbench_api.curves.axis import AXIS_OPTIONS, axis_value
from storbench_api.errors import DomainError, Invalid
from storbench_api.fio_tools.service import normalise_jobs
from storbench_api.models import Result
from storbench_api.runs.schemas import RunCreate, SweepAxis, SweepOut, SweepPointOut, SweepStop
from storbench_fio.models import FioReport
from storbench_fio.repetitions import groups_per_repetition

SWEEPABLE_OPTIONS = AXIS_OPTIONS
MAX_POINTS = 256

Point = dict[str, int]


@dataclass(frozen=True)
class PlannedSweep:
    """A sweep as planned: each point's jobs in the order run, what runs.sweep keeps, its problems."""

    points_jobs: list[list[dict[str, Any]]]
    record: dict[str, Any]
    problems: list[DomainError]

    repetitions: int = 1

    @property
    def jobs(self) -> list[dict[str, Any]]:
        """Every point's jobs in order, each repeated, as the hosts run them."""
        return expand_jobs(self.points_jobs, self.repetitions)


def plan_sweep(jobs: list[dict[str, Any]], body: RunCreate) -> PlannedSweep:
    """The sweep the body asks for over these (normalised) jobs."""
    assert body.sweep is not None
    problems = sweep_problems(body.sweep)
    if problems:
        return PlannedSweep([jobs], {}, problems)
    points = sweep_points(body.sweep, shuffle=body.sweep_shuffle, seed=body.sweep_seed)
    points_jobs: list[list[dict[str, Any]]] = []
    for point in points:
        try:
            points_jobs.append(point_jobs(jobs, point))
        except Invalid as exc:
            return PlannedSweep([jobs], {}, [exc])
    record = {
        "axes": [axis.option for axis in body.sweep],
        "points": points,
        "shuffled": body.sweep_shuffle,
        "seed": body.sweep_seed,
        "planned_jobs": jobs,
        "stop": body.sweep_stop.model_dump(mode="json") if body.sweep_stop else None,
    }
    return PlannedSweep(points_jobs, record, [], body.repetitions)


def sweep_request(record: Mapping[str, Any]) -> dict[str, Any]:
    """The fields of a run body that ask for the sweep a run recorded (to run it again)."""
    axes = [
        {"option": name, "values": sorted({int(point[name]) for point in record["points"]})}
        for name in record["axes"]
    ]
    return {
        "jobs": record["planned_jobs"],
        "sweep": axes,
        "sweep_shuffle": bool(record.get("shuffled")),
        "sweep_seed": int(record.get("seed") or 0),
        "sweep_stop": record.get("stop"),
    }


def axis_values(axis: SweepAxis) -> list[int]:
    """The axis's values: as listed, or from→to multiplying by factor (to included when reached)."""
    if axis.values is not None:
        return list(dict.fromkeys(axis.values))
    assert axis.start is not None and axis.to is not None and axis.factor is not None
    values: list[int] = []
    value = float(axis.start)
    # A hair over `to` is `to` (1.5**n accumulates rounding); past MAX_POINTS the sweep is refused.
    while value <= axis.to * (1 + 1e-9) and len(values) <= MAX_POINTS:
        values.append(round(value))
        value *= axis.factor
    return sorted(set(values))


def sweep_points(axes: Sequence[SweepAxis], *, shuffle: bool = False, seed: int = 0) -> list[Point]:
    """Every point of the matrix, the first axis slowest; shuffled when asked (with its seed)."""
    names = [axis.option for axis in axes]
    combos = itertools.product(*map(axis_values, axes))
    points = [dict(zip(names, combo, strict=True)) for combo in combos]
    if shuffle:
        random.Random(seed).shuffle(points)
    return points


def sweep_problems(axes: Sequence[SweepAxis]) -> list[DomainError]:
    """Why the sweep cannot be planned (options it may not vary, too many points)."""
    problems: list[DomainError] = []
    names = [axis.option for axis in axes]
    for index, name in enumerate(names):
        if name not in SWEEPABLE_OPTIONS:
            problems.append(
                Invalid(
                    f"a sweep cannot vary '{name}'",
                    [
                        {
                            "field": f"sweep.{index}.option",
                            "value": name,
                            "reason": f"sweepable options: {', '.join(SWEEPABLE_OPTIONS)}",
                        }
                    ],
                )
            )
        elif names.index(name) != index:
            problems.append(
                Invalid(
                    f"'{name}' is swept twice",
                    [{"field": f"sweep.{index}.option", "value": name, "reason": "sweep each option once"}],
                )
            )
    count = 1
    for axis in axes:
        count *= len(axis_values(axis))
    if count > MAX_POINTS:
        problems.append(
            Invalid(
                f"the sweep has {count} points; a run may sweep at most {MAX_POINTS}",
                [{"field": "sweep", "value": str(count), "reason": f"at most {MAX_POINTS} points"}],
            )
        )
    return problems


def point_jobs(jobs: Sequence[Mapping[str, Any]], point: Point) -> list[dict[str, Any]]:
    """The jobs at one point, validated and normalised (Invalid naming the point's axis otherwise)."""
    try:
        return normalise_jobs([{**job, **point} for job in jobs])
    except Invalid as exc:
        where = ", ".join(f"{k}={v}" for k, v in point.items())
        axes = list(point)
        errors = [
            {**error, "field": f"sweep.{axes.index(error['option'])}.values"}
            if error.get("option") in axes
            else error
            for error in exc.errors
        ]
        raise Invalid(f"at the sweep's point {where}: {exc.message}", errors) from exc


def expand_jobs(
    points_jobs: Sequence[Sequence[dict[str, Any]]], repetitions: int = 1
) -> list[dict[str, Any]]:
    """The jobs of every point in order, each repetition of a point behind a stonewall."""
    expanded: list[dict[str, Any]] = []
    for jobs in points_jobs:
        for _ in range(repetitions):
            expanded.append({**jobs[0], "stonewall": True})
            expanded.extend(jobs[1:])
    return expanded


def repetition_of_sweep_results(report: FioReport, record: Mapping[str, Any], repetitions: int) -> list[int]:
    """The 0-based repetition of each job result of a sweep's report, from fio's group ids."""
    first, *rest = record["planned_jobs"]
    groups = groups_per_repetition([{**first, "stonewall": True}, *rest])
    return [((job.groupid or 0) // groups) % repetitions for job in report.jobs]


def point_of(options: Mapping[str, Any], axes: Sequence[str]) -> dict[str, float] | None:
    """A result's point: its swept options' values as numbers (None when one is missing)."""
    point = {}
    for name in axes:
        value = axis_value(options, name)
        if value is None:
            return None
        point[name] = value
    return point


def _did_io(result: Result) -> bool:
    return any(int(d.get("io_bytes") or 0) > 0 for d in (result.detail or {}).values())


def describe_sweep(record: Mapping[str, Any], results: Sequence[Result], repetitions: int) -> SweepOut:
    """The sweep with each point's results: measured once every repetition has whole results there."""
    axes: list[str] = list(record["axes"])
    found: dict[tuple[float, ...], list[Result]] = {}
    for result in results:
        if not _did_io(result):
            continue  # a point fio never reached before it was stopped: still pending
        point = point_of(result.options, axes)
        if point is not None:
            found.setdefault(tuple(point[name] for name in axes), []).append(result)
    points = []
    for values in record["points"]:
        here = found.get(tuple(float(values[name]) for name in axes), [])
        complete = len({r.repetition for r in here}) >= repetitions and not any(r.partial for r in here)
        status: Literal["measured", "partial", "pending"] = (
            "pending" if not here else "measured" if complete else "partial"
        )
        points.append(SweepPointOut(values=values, status=status, result_ids=sorted(r.id for r in here)))
    return SweepOut(
        axes=axes,
        shuffled=bool(record.get("shuffled")),
        stop=SweepStop.model_validate(record["stop"]) if record.get("stop") else None,
        points=points,
        measured_points=sum(1 for p in points if p.status == "measured"),
    )
