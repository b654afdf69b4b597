"""The check CI runs: is the newest run of a plan on a target a regression against its history?"""

import statistics
from collections.abc import Sequence
from typing import Protocol

from sqlalchemy.orm import Session

from storbench_api.history import repository
from storbench_api.history.detection import DETECTED_METRICS, DETECTION_WINDOW
from storbench_api.history.repository import SeriesKey
from storbench_api.history.schemas import ChangeKind, CheckOut, CheckSeries, CheckStatus
from storbench_api.history.service import describe_change_point
from storbench_api.plans import service as plans_service
from storbench_api.targets import service as targets_service


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


class MeasuredResult(Protocol):
    """What the check needs of a result: a row of newest_run_results or a Result."""

    @property
    def id(self) -> int: ...
    @property
    def job_name(self) -> str: ...
    @property
    def fingerprint(self) -> str | None: ...


def _newest_figures(
    db: Session, team_id: int, target_id: int, results: Sequence[MeasuredResult]
) -> dict[SeriesKey, list[tuple[int, float]]]:
    """Each watched series these results measured, with its (result id, value) points."""
    by_id = {r.id: r for r in results}
    figures: dict[SeriesKey, list[tuple[int, float]]] = {}
    for direction in repository.result_directions(db, list(by_id)):
        result = by_id[direction.result_id]
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
    return figures


def _message(series: Sequence[CheckSeries]) -> str:
    """What a person reads: each unacknowledged regression, or that there is none."""
    regressed = [s for s in series if s.status == CheckStatus.regression]
    if not regressed:
        return f"no unacknowledged regression in {len(series)} series of the newest run"
    return "; ".join(
        f"{s.job_name} {s.direction} {s.metric}: {s.change_point.before_median:,.6g} → "
        f"{s.change_point.after_median:,.6g} ({(s.change_point.ratio - 1) * 100:+.1f}%), "
        f"regression since result {s.change_point.result_id}, not acknowledged"
        for s in regressed
        if s.change_point is not None
    )


def series_states(
    db: Session, team_id: int, target_id: int, results: Sequence[MeasuredResult]
) -> list[CheckSeries]:
    """Each watched series these results are part of, and where it stands (regression, ok…)."""
    figures = _newest_figures(db, team_id, target_id, results)
    return [_check_series(db, key, newest) for key, newest in figures.items()]


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
    series = series_states(db, team_id, target_id, results)
    return CheckOut(
        plan_id=plan_id,
        target_id=target_id,
        run_id=results[0].run_id,
        measured_at=max(r.measured_at for r in results),
        regression=any(s.status == CheckStatus.regression for s in series),
        message=_message(series),
        series=series,
    )
