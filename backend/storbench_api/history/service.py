"""History: a figure's trend over time, and the review of the changes found in it.

Changes are found as results arrive (detection.py) by the team's policy (policy.py); CI asks
whether the newest run of a plan regressed (regression_check.py).
"""

from typing import Any

from sqlalchemy import Row
from sqlalchemy.orm import Session

from storbench_api.advisor import service as advisor
from storbench_api.auth.service import Principal
from storbench_api.db import utcnow
from storbench_api.errors import Conflict, NotFound
from storbench_api.figures.definition import Figure
from storbench_api.history import causes, repository
from storbench_api.history.repository import SeriesKey
from storbench_api.history.schemas import (
    AcknowledgeIn,
    ChangeKind,
    ChangePointList,
    ChangePointOut,
    SeriesList,
    SeriesOut,
    SpecLine,
    StepFigureOut,
    TrendDirection,
    TrendOut,
    TrendPoint,
)
from storbench_api.models import ChangePoint, Target
from storbench_api.rollup import repository as rollup_repository
from storbench_api.storage_classes.expected import expected_figures, figure_for
from storbench_api.storage_classes.schemas import Metric, SpecIn, Workload
from storbench_api.targets import service as targets_service

TREND_MAX_POINTS = 5000
# A spec line's unit → the trend's: MB/s as vendors publish it (10^6), latency in ms.
_SPEC_METRIC = {Figure.iops: (Metric.iops, 1.0), Figure.bw_bytes: (Metric.throughput, 1e6)}
_SPEC_METRIC[Figure.lat_mean_ns] = (Metric.latency, 1e6)


# ---- trend -----------------------------------------------------------------------------


def describe_change_point(change: ChangePoint | Row[Any]) -> ChangePointOut:
    """A stored change (an object, or a row of its columns) as the API shows it."""
    return ChangePointOut.model_validate(change, from_attributes=True)


def describe_with_causes(db: Session, point: ChangePoint) -> ChangePointOut:
    """A stored change with what differed in how it was measured around it."""
    found, words = causes.likely_causes(db, point)
    return describe_change_point(point).model_copy(update={"likely_causes": found, "what_changed": words})


def _spec_line(
    db: Session, target: Target, metric: Figure, direction: str, newest_id: int | None
) -> SpecLine | None:
    """The target's class promise for this figure, for the kind of test the newest result was judged as."""
    if metric not in _SPEC_METRIC:
        return None
    context = advisor.spec_context(db, target)
    if context is None:
        return None
    spec_metric, factor = _SPEC_METRIC[metric]
    workload = Workload.any
    if newest_id is not None:
        for check in repository.spec_checks_of(db, newest_id):
            if check.get("direction") == direction:
                workload = Workload(check.get("workload", Workload.any))
    figures, _ = expected_figures(
        SpecIn.model_validate(context.spec, from_attributes=True), context.provisioned
    )
    line = figure_for(figures, spec_metric, workload)
    if line is None:
        return None
    return SpecLine(
        storage_class_id=context.spec.storage_class_id,
        storage_class=target.storage_class or "",
        spec_version=context.spec.version,
        workload=line.workload,
        value=line.expected * factor,
        low=line.low * factor if line.low is not None else None,
        published=f"{line.expected:,.6g} {line.unit}",
        formula=line.formula,
    )


def series_of_target(db: Session, team_id: int, target_id: int) -> SeriesList:
    """Every job and direction measured on a target, with how many results each has."""
    target = targets_service.get_target(db, team_id, target_id)
    items = [
        SeriesOut(job=job, direction=direction, results=count, last_measured_at=last)
        for job, direction, count, last in rollup_repository.jobs_of_target(db, team_id, target.id)
    ]
    return SeriesList(items=items, total=len(items))


def trend(
    db: Session,
    team_id: int,
    *,
    target_id: int,
    job: str,
    metric: Figure,
    direction: TrendDirection,
    fingerprint: str | None = None,
    limit: int = TREND_MAX_POINTS,
) -> TrendOut:
    """The newest `limit` points of a figure, oldest first, with the spec line and the changes among them."""
    target = targets_service.get_target(db, team_id, target_id)
    key = SeriesKey(team_id, target.id, job, direction.value, metric.value, fingerprint)
    rows = repository.trend_points(db, key, limit=limit + 1)
    truncated = len(rows) > limit
    rows = list(reversed(rows[:limit]))
    points = [
        TrendPoint(
            result_id=r[0],
            measured_at=r[1],
            value=r[2],
            fingerprint=r[3],
            run_id=r[4],
            host_name=r[5],
            repetition=r[6],
        )
        for r in rows
    ]
    shown = {p.result_id for p in points}
    changes = repository.series_change_points(db, key, since=points[0].measured_at if points else None)
    return TrendOut(
        target_id=target.id,
        job=job,
        metric=metric,
        direction=direction,
        fingerprint=fingerprint,
        unit=metric.unit,
        points=points,
        truncated=truncated,
        limit=limit,
        spec=_spec_line(db, target, metric, direction.value, points[-1].result_id if points else None),
        change_points=[describe_change_point(c) for c in changes if c.result_id in shown],
    )


# ---- review ----------------------------------------------------------------------------


def list_regressions(
    db: Session,
    team_id: int,
    *,
    limit: int,
    offset: int,
    acknowledged: bool | None = None,
    kind: ChangeKind | None = None,
    target_id: int | None = None,
) -> ChangePointList:
    """A page of the team's changes, newest first, and how many regressions await review."""
    rows, total = repository.list_change_points(
        db,
        team_id,
        limit=limit,
        offset=offset,
        acknowledged=acknowledged,
        kind=kind.value if kind else None,
        target_id=target_id,
    )
    members: dict[int, list[StepFigureOut]] = {}
    for member in repository.steps_members(db, [r.id for r in rows]):
        if member.step_id is not None:
            members.setdefault(member.step_id, []).append(
                StepFigureOut.model_validate(member, from_attributes=True)
            )
    return ChangePointList(
        items=[
            describe_with_causes(db, r).model_copy(update={"step_figures": members.get(r.id, [])})
            for r in rows
        ],
        total=total,
        unacknowledged_regressions=repository.count_unacknowledged(db, team_id),
    )


def acknowledge(
    db: Session, principal: Principal, change_point_id: int, body: AcknowledgeIn
) -> ChangePointOut:
    """Mark a change and the rest of its step as looked at, with what was concluded; once."""
    point = repository.get_change_point(db, principal.team_id, change_point_id)
    if point is None:
        raise NotFound(f"change point {change_point_id} not found")
    if point.acknowledged_at is not None:
        raise Conflict(
            f"change point {change_point_id} was already acknowledged by {point.acknowledged_by} "
            f"at {point.acknowledged_at.isoformat(timespec='seconds')}"
        )
    step = repository.steps_members(db, [point.step_id]) if point.step_id is not None else []
    now = utcnow()
    for member in [point, *step]:
        if member.acknowledged_at is None:
            member.acknowledged_at = now
            member.acknowledged_by = principal.actor
            member.comment = body.comment
    db.flush()
    return describe_with_causes(db, point)
