"""Changes found in a figure's series as results arrive: stored, and announced to webhooks.

Detection runs inside the transaction that stores results (results.service.store_report calls
`detect_after_store`), in a savepoint: whatever goes wrong there is logged and the results are
stored all the same. Only the series the new results belong to are recomputed, over the points
since the series' last known change (at most DETECTION_WINDOW of them).
"""

import logging
from collections.abc import Sequence

from sqlalchemy.orm import Session

from storbench_api.db import utcnow
from storbench_api.figures.definition import Figure
from storbench_api.history import repository
from storbench_api.history.changepoints import Change, Policy, find_changes
from storbench_api.history.policy import policy_for
from storbench_api.history.repository import SeriesKey
from storbench_api.history.schemas import ChangeKind
from storbench_api.history.service import describe_with_causes
from storbench_api.models import ChangePoint, Result
from storbench_api.webhooks import events as webhook_events
from storbench_api.webhooks import service as webhooks

log = logging.getLogger(__name__)

DETECTION_WINDOW = 60
# The figures watched for changes on every new result (the others can be charted).
DETECTED_METRICS: tuple[Figure, ...] = (Figure.iops, Figure.bw_bytes, Figure.lat_mean_ns, Figure.clat_p99_ns)


def kind_of(metric: str, ratio: float) -> ChangeKind:
    """Regression or improvement, by which way the figure moved."""
    went_up = ratio > 1
    return ChangeKind.improvement if went_up == Figure[metric].higher_is_better else ChangeKind.regression


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
        if _join_step(db, point):
            _announce(db, point)
        stored.append(point)
    return stored


def _join_step(db: Session, point: ChangePoint) -> bool:
    """Put the change in its step; True when it opens the step (then it is announced, once)."""
    lead = repository.step_lead(db, point)
    if lead is None or lead.id > point.id:
        point.step_id = point.id
        return True
    point.step_id = lead.step_id or lead.id
    if lead.acknowledged_at is not None:  # a step already reviewed stays reviewed
        point.acknowledged_at = lead.acknowledged_at
        point.acknowledged_by = lead.acknowledged_by
        point.comment = lead.comment
    db.flush()
    return False


def _announce(db: Session, point: ChangePoint) -> None:
    event = (
        webhook_events.CHANGE_POINT_REGRESSION
        if point.kind == ChangeKind.regression
        else webhook_events.CHANGE_POINT_IMPROVEMENT
    )
    payload = describe_with_causes(db, point).model_dump(mode="json")
    run_id = repository.run_of_result(db, point.result_id)
    if run_id is not None:
        payload["run"] = f"/runs/{run_id}"
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
