"""History: a figure's trend over time, changes found in it as results arrive, and their review.

Detection runs inside the transaction that stores results (results.service.store_report calls
`detect_after_store`), in a savepoint: whatever goes wrong there is logged and the results are
stored all the same. Only the series the new results belong to are recomputed, over the points
since the series' last known change (at most DETECTION_WINDOW of them).
"""

import logging
import statistics
from collections.abc import Sequence
from typing import Any

from sqlalchemy import Row, select
from sqlalchemy.orm import Session

from storbench_api.advisor import service as advisor
from storbench_api.auth.service import Principal
from storbench_api.db import utcnow
from storbench_api.errors import Conflict, NotFound
from storbench_api.figures.definition import Figure
from storbench_api.history import repository
from storbench_api.history.changepoints import DEFAULT_ALPHA, Change, DetectionMethod, Policy, find_changes
from storbench_api.history.repository import SeriesKey
from storbench_api.history.schemas import (
    AcknowledgeIn,
    ChangeKind,
    ChangePointList,
    ChangePointOut,
    CheckOut,
    CheckSeries,
    CheckStatus,
    PolicyIn,
    PolicyOut,
    SeriesList,
    SeriesOut,
    SpecLine,
    TrendDirection,
    TrendOut,
    TrendPoint,
)
from storbench_api.models import ChangePoint, ChangePointPolicy, Result, Target
from storbench_api.plans import service as plans_service
from storbench_api.storage_classes.expected import expected_figures, figure_for
from storbench_api.storage_classes.schemas import Metric, SpecIn, Workload
from storbench_api.targets import service as targets_service
from storbench_api.webhooks import events as webhook_events
from storbench_api.webhooks import service as webhooks

log = logging.getLogger(__name__)

TREND_MAX_POINTS = 5000
DETECTION_WINDOW = 60
# The figures watched for changes on every new result (the others can be charted).
DETECTED_METRICS: tuple[Figure, ...] = (Figure.iops, Figure.bw_bytes, Figure.lat_mean_ns, Figure.clat_p99_ns)
# A spec line's unit → the trend's: MB/s as vendors publish it (10^6), latency in ms.
_SPEC_METRIC = {Figure.iops: (Metric.iops, 1.0), Figure.bw_bytes: (Metric.throughput, 1e6)}
_SPEC_METRIC[Figure.lat_mean_ns] = (Metric.latency, 1e6)


def kind_of(metric: str, ratio: float) -> ChangeKind:
    """Regression or improvement, by which way the figure moved."""
    went_up = ratio > 1
    return ChangeKind.improvement if went_up == Figure[metric].higher_is_better else ChangeKind.regression


# ---- policy ----------------------------------------------------------------------------


def policy_for(db: Session, team_id: int) -> Policy:
    """The team's detection policy (E-divisive when it set none)."""
    row = repository.get_policy(db, team_id)
    if row is None:
        return Policy()
    return Policy(
        method=DetectionMethod(row.method), threshold=row.threshold, min_points_after=row.min_points_after
    )


def describe_policy(db: Session, team_id: int) -> PolicyOut:
    """The team's policy as the API shows it."""
    row = repository.get_policy(db, team_id)
    policy = policy_for(db, team_id)
    return PolicyOut(
        method=policy.method,
        threshold=policy.threshold,
        min_points_after=policy.min_points_after,
        alpha=DEFAULT_ALPHA,
        updated_at=row.updated_at if row else None,
        updated_by=row.updated_by if row else None,
    )


def set_policy(db: Session, principal: Principal, body: PolicyIn) -> PolicyOut:
    """Replace the team's detection policy (owners); changes already found stay."""
    row = repository.get_policy(db, principal.team_id)
    if row is None:
        row = ChangePointPolicy(team_id=principal.team_id)
        db.add(row)
    row.method = body.method.value
    row.threshold = body.threshold
    row.min_points_after = body.min_points_after
    row.updated_by = principal.actor
    row.updated_at = utcnow()
    db.flush()
    return describe_policy(db, principal.team_id)


# ---- trend -----------------------------------------------------------------------------


def describe_change_point(change: ChangePoint | Row[Any]) -> ChangePointOut:
    """A stored change (an object, or a row of its columns) as the API shows it."""
    return ChangePointOut.model_validate(change, from_attributes=True)


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
        checks = db.scalar(select(Result.spec_checks).where(Result.id == newest_id)) or []
        for check in checks:
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
        for job, direction, count, last in repository.jobs_of_target(db, team_id, target.id)
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


# ---- detection -------------------------------------------------------------------------


def detect_series(db: Session, key: SeriesKey, policy: Policy) -> list[ChangePoint]:
    """New changes in one series since its last known one; stored (flushed) and announced."""
    known = repository.series_change_points(db, key)
    since = (known[-1].measured_at, known[-1].result_id) if known else None
    rows = list(
        reversed(repository.trend_points(db, key, limit=DETECTION_WINDOW, since=since, complete_only=True))
    )
    values = [float(r[2]) for r in rows]
    # A fixed seed: the same history always gives the same answer, whoever asks and when.
    found: list[Change] = find_changes(values, policy, seed=0)
    known_results = {c.result_id for c in known}
    stored = []
    for change in found:
        first = rows[change.index]
        if first[0] in known_results or change.after_median == change.before_median:
            continue
        point = ChangePoint(
            team_id=key.team_id,
            target_id=key.target_id,
            job_name=key.job_name,
            direction=key.direction,
            metric=key.metric,
            fingerprint=key.fingerprint,
            result_id=first[0],
            measured_at=first[1],
            kind=kind_of(key.metric, change.ratio).value,
            before_median=change.before_median,
            after_median=change.after_median,
            ratio=change.ratio,
            p_value=change.p_value,
            method=change.method,
            detected_at=utcnow(),
        )
        db.add(point)
        db.flush()
        _announce(db, point)
        stored.append(point)
    return stored


def _announce(db: Session, point: ChangePoint) -> None:
    event = (
        webhook_events.CHANGE_POINT_REGRESSION
        if point.kind == ChangeKind.regression
        else webhook_events.CHANGE_POINT_IMPROVEMENT
    )
    payload = describe_change_point(point).model_dump(mode="json")
    payload["trend"] = (
        f"/history?target_id={point.target_id}&job={point.job_name}"
        f"&metric={point.metric}&direction={point.direction}"
    )
    webhooks.enqueue_event(db, point.team_id, event, payload)


def _series_of(results: Sequence[Result]) -> list[SeriesKey]:
    keys: dict[SeriesKey, None] = {}
    for result in results:
        if result.target_id is None or result.partial or result.error:
            continue
        for direction in result.directions:
            if not direction.iops and not direction.bw_bytes:
                continue
            for metric in DETECTED_METRICS:
                key = SeriesKey(
                    result.team_id,
                    result.target_id,
                    result.job_name,
                    direction.direction,
                    metric.value,
                    result.fingerprint,
                    exact_fingerprint=True,
                )
                keys[key] = None
    return list(keys)


def detect_after_store(db: Session, results: Sequence[Result]) -> list[ChangePoint]:
    """Look for changes in the series the new results belong to; never fails the caller's store."""
    stored: list[ChangePoint] = []
    try:
        keys = _series_of(results)
        if not keys:
            return stored
        policy = policy_for(db, keys[0].team_id)
        with db.begin_nested():
            for key in keys:
                stored.extend(detect_series(db, key, policy))
    except Exception:  # a failed detection must never lose the results it was looking at
        log.exception("change-point detection failed; the results are stored without it")
        return []
    return stored


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
    return ChangePointList(
        items=[describe_change_point(r) for r in rows],
        total=total,
        unacknowledged_regressions=repository.count_unacknowledged(db, team_id),
    )


def acknowledge(
    db: Session, principal: Principal, change_point_id: int, body: AcknowledgeIn
) -> ChangePointOut:
    """Mark a change as looked at, with what was concluded; once."""
    point = repository.get_change_point(db, principal.team_id, change_point_id)
    if point is None:
        raise NotFound(f"change point {change_point_id} not found")
    if point.acknowledged_at is not None:
        raise Conflict(
            f"change point {change_point_id} was already acknowledged by {point.acknowledged_by} "
            f"at {point.acknowledged_at.isoformat(timespec='seconds')}"
        )
    point.acknowledged_at = utcnow()
    point.acknowledged_by = principal.actor
    point.comment = body.comment
    db.flush()
    return describe_change_point(point)


# ---- check (for CI) ---------------------------------------------------------------------


def _check_series(db: Session, key: SeriesKey, newest: list[tuple[int, float]]) -> CheckSeries:
    newest_ids = {result_id for result_id, _ in newest}
    rows = repository.trend_points(db, key, limit=DETECTION_WINDOW + len(newest), complete_only=True)
    history = [float(r[2]) for r in rows if r[0] not in newest_ids]
    history_median = statistics.median(history) if history else None
    changes = repository.series_change_points(db, key)
    last = changes[-1] if changes else None
    status = CheckStatus.ok
    if last is not None:
        if last.kind == ChangeKind.regression:
            status = CheckStatus.acknowledged if last.acknowledged_at else CheckStatus.regression
        else:
            status = CheckStatus.improvement
    return CheckSeries(
        job_name=key.job_name,
        direction=key.direction,
        metric=key.metric,
        fingerprint=key.fingerprint,
        value=statistics.median(v for _, v in newest),
        history_median=history_median,
        history_points=len(history),
        status=status,
        change_point=describe_change_point(last) if last else None,
    )


def check(db: Session, team_id: int, *, plan_id: int, target_id: int) -> CheckOut:
    """Is the newest run of a plan on a target a regression against its history?"""
    targets_service.get_target(db, team_id, target_id)
    plans_service.get_plan(db, team_id, plan_id)
    results = repository.newest_run_results(db, team_id, plan_id, target_id)
    if not results:
        return CheckOut(
            plan_id=plan_id,
            target_id=target_id,
            run_id=None,
            measured_at=None,
            regression=False,
            message="no results of this plan on this target yet: nothing to check",
            series=[],
        )
    figures: dict[SeriesKey, list[tuple[int, float]]] = {}
    for direction in repository.result_directions(db, [r.id for r in results]):
        result = next(r for r in results if r.id == direction.result_id)
        if not direction.iops and not direction.bw_bytes:
            continue
        for metric in DETECTED_METRICS:
            value = getattr(direction, metric.value)
            if value is None:
                continue
            key = SeriesKey(
                team_id,
                target_id,
                result.job_name,
                direction.direction,
                metric.value,
                result.fingerprint,
                True,
            )
            figures.setdefault(key, []).append((result.id, float(value)))
    series = [_check_series(db, key, newest) for key, newest in figures.items()]
    regressed = [s for s in series if s.status == CheckStatus.regression]
    if regressed:
        message = "; ".join(
            f"{s.job_name} {s.direction} {s.metric}: {s.change_point.before_median:,.6g} → "
            f"{s.change_point.after_median:,.6g} ({(s.change_point.ratio - 1) * 100:+.1f}%), "
            f"regression since result {s.change_point.result_id}, not acknowledged"
            for s in regressed
            if s.change_point is not None
        )
    else:
        message = f"no unacknowledged regression in {len(series)} series of the newest run"
    return CheckOut(
        plan_id=plan_id,
        target_id=target_id,
        run_id=results[0].run_id,
        measured_at=max(r.measured_at for r in results),
        regression=bool(regressed),
        message=message,
        series=series,
    )
