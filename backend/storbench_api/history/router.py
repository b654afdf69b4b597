"""History endpoints: trends, the changes found in them, their review, and the check CI runs."""

from typing import Annotated

from fastapi import APIRouter, Query

from storbench_api.deps import DB, OwnerAccess, ReadAccess, WriteAccess
from storbench_api.errors import Conflict, NotFound
from storbench_api.figures.definition import Figure
from storbench_api.figures.schemas import DirectionFigure
from storbench_api.history import policy, regression_check, service
from storbench_api.history.schemas import (
    AcknowledgeIn,
    ChangeKind,
    ChangePointList,
    ChangePointOut,
    CheckOut,
    PolicyIn,
    PolicyOut,
    SeriesList,
    TrendDirection,
    TrendOut,
)
from storbench_api.ids import MAX_ID, IdPath, OptionalIdQuery
from storbench_api.openapi import errors, rules_beyond_schema
from storbench_api.pagination import Page, page_params
from storbench_api.wire import NO_NUL

router = APIRouter(tags=["history"])

RequiredId = Annotated[int, Query(ge=1, le=MAX_ID)]


@router.get(
    "/history/trend", response_model=TrendOut, summary="A figure over time", responses=errors(NotFound)
)
def get_trend(
    db: DB,
    principal: ReadAccess,
    target_id: RequiredId,
    job: Annotated[str, Query(min_length=1, max_length=120, pattern=NO_NUL)],
    metric: DirectionFigure = Figure.iops,
    direction: TrendDirection = TrendDirection.read,
    fingerprint: Annotated[str | None, Query(min_length=1, max_length=64, pattern=NO_NUL)] = None,
    limit: Annotated[
        int, Query(ge=1, le=service.TREND_MAX_POINTS, description="newest points to return")
    ] = service.TREND_MAX_POINTS,
) -> TrendOut:
    """A figure of one job on one target over time (by when fio measured), with its class's spec line
    and the changes found; only the newest `limit` points (at most 5,000), `truncated` says so."""
    return service.trend(
        db,
        principal.team_id,
        target_id=target_id,
        job=job,
        metric=metric,
        direction=direction,
        fingerprint=fingerprint,
        limit=limit,
    )


@router.get(
    "/history/series",
    response_model=SeriesList,
    summary="What a target's trends can show",
    responses=errors(NotFound),
)
def list_series(db: DB, principal: ReadAccess, target_id: RequiredId) -> SeriesList:
    """Every job name and direction measured on a target, with its number of results."""
    return service.series_of_target(db, principal.team_id, target_id)


@router.get(
    "/history/check",
    response_model=CheckOut,
    summary="Is the newest run of a plan on a target a regression?",
    responses=errors(NotFound),
)
def check(db: DB, principal: ReadAccess, plan_id: RequiredId, target_id: RequiredId) -> CheckOut:
    """What `storbench check` asks: each figure of the newest run against the changes found in its series."""
    return regression_check.check(db, principal.team_id, plan_id=plan_id, target_id=target_id)


@router.get("/history/policy", response_model=PolicyOut, summary="How the team finds changes")
def get_policy(db: DB, principal: ReadAccess) -> PolicyOut:
    """E-divisive means (no threshold) unless the team's owner chose a percent or z-score threshold."""
    return policy.describe_policy(db, principal.team_id)


@router.put(
    "/history/policy",
    response_model=PolicyOut,
    summary="Choose how the team finds changes",
    openapi_extra=rules_beyond_schema("percent and zscore need a threshold; e_divisive takes none"),
)
def put_policy(body: PolicyIn, db: DB, principal: OwnerAccess) -> PolicyOut:
    """Owners: e_divisive (default), or percent / zscore with a threshold; applies to new results."""
    chosen = policy.set_policy(db, principal, body)
    db.commit()
    return chosen


@router.get("/regressions", response_model=ChangePointList, summary="Changes found in the team's history")
def list_regressions(
    db: DB,
    principal: ReadAccess,
    page: Annotated[Page, page_params(default_limit=50, max_limit=500)],
    acknowledged: bool | None = None,
    kind: ChangeKind | None = None,
    target_id: OptionalIdQuery = None,
) -> ChangePointList:
    """Regressions and improvements, newest first, with how many regressions await acknowledgement."""
    return service.list_regressions(
        db,
        principal.team_id,
        limit=page.limit,
        offset=page.offset,
        acknowledged=acknowledged,
        kind=kind,
        target_id=target_id,
    )


@router.post(
    "/regressions/{change_point_id}/acknowledge",
    response_model=ChangePointOut,
    summary="Acknowledge a change with a comment",
    responses=errors(NotFound, Conflict),
)
def acknowledge(
    change_point_id: IdPath, body: AcknowledgeIn, db: DB, principal: WriteAccess
) -> ChangePointOut:
    """Mark a change as looked at (once), saying what was concluded; `storbench check` then passes it."""
    acknowledged = service.acknowledge(db, principal, change_point_id, body)
    db.commit()
    return acknowledged
