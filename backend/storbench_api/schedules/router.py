"""Schedule endpoints."""

from typing import Annotated

from fastapi import APIRouter, Query, Response, status

from storbench_api.deps import DB, ReadAccess, WriteAccess
from storbench_api.errors import Conflict
from storbench_api.ids import IdPath
from storbench_api.openapi import errors, rules_beyond_schema
from storbench_api.pagination import Page, page_params
from storbench_api.schedules import service
from storbench_api.schedules.schemas import (
    FiringList,
    ScheduleCreate,
    ScheduleList,
    ScheduleOut,
    ScheduleUpdate,
    SlotPreview,
)

router = APIRouter(prefix="/schedules", tags=["schedules"])

_CRON_RULES = (
    "cron must be 5 valid fields (minute hour day-of-month month day-of-week) and timezone an IANA "
    "name; the plan and target must be your team's"
)


@router.get("", response_model=ScheduleList, summary="The team's schedules")
def list_schedules(db: DB, principal: ReadAccess, page: Annotated[Page, page_params()]) -> ScheduleList:
    """Each with its next three slots, its latest firing and how many slots it missed."""
    rows, total = service.list_schedules(db, principal.team_id, page)
    return ScheduleList(items=service.describe(db, rows), total=total)


@router.get(
    "/next-slots",
    response_model=SlotPreview,
    summary="Preview a cron expression's next slots",
    openapi_extra=rules_beyond_schema(_CRON_RULES),
)
def next_slots(
    principal: ReadAccess,
    cron: Annotated[str, Query(min_length=1, max_length=120, description="5-field cron expression")],
    timezone: Annotated[str, Query(min_length=1, max_length=64, description="IANA timezone")] = "UTC",
    count: Annotated[int, Query(ge=1, le=20, description="how many slots")] = 3,
) -> SlotPreview:
    """When a schedule with this expression would fire next (422 naming the wrong field)."""
    return service.preview(cron, timezone, count)


@router.post(
    "",
    response_model=ScheduleOut,
    status_code=status.HTTP_201_CREATED,
    summary="Create a schedule",
    responses=errors(Conflict),
    openapi_extra=rules_beyond_schema(_CRON_RULES),
)
def create_schedule(body: ScheduleCreate, db: DB, principal: WriteAccess) -> ScheduleOut:
    """Slots are owed from now on; each run starts with your rights, checked at every slot."""
    schedule = service.create_schedule(db, principal, body)
    db.commit()
    return service.describe(db, [schedule])[0]


@router.get("/{schedule_id}", response_model=ScheduleOut, summary="One schedule")
def get_schedule(schedule_id: IdPath, db: DB, principal: ReadAccess) -> ScheduleOut:
    """The schedule with its next slots and latest firing."""
    return service.describe(db, [service.get_schedule(db, principal.team_id, schedule_id)])[0]


@router.patch(
    "/{schedule_id}",
    response_model=ScheduleOut,
    summary="Change, enable or disable a schedule",
    openapi_extra=rules_beyond_schema(_CRON_RULES),
)
def update_schedule(schedule_id: IdPath, body: ScheduleUpdate, db: DB, principal: WriteAccess) -> ScheduleOut:
    """A new cron or timezone, or enabling a disabled schedule, owes slots from now on."""
    schedule = service.update_schedule(db, principal, schedule_id, body)
    db.commit()
    return service.describe(db, [schedule])[0]


@router.delete("/{schedule_id}", status_code=204, summary="Delete a schedule")
def delete_schedule(schedule_id: IdPath, db: DB, principal: WriteAccess) -> Response:
    """The schedule and its firings are removed; the runs it started stay."""
    service.delete_schedule(db, principal, schedule_id)
    db.commit()
    return Response(status_code=204)


@router.get("/{schedule_id}/firings", response_model=FiringList, summary="A schedule's firings")
def list_firings(
    schedule_id: IdPath,
    db: DB,
    principal: ReadAccess,
    limit: Annotated[int, Query(ge=1, le=500, description="firings to return, latest slot first")] = 50,
) -> FiringList:
    """Every slot: started with its run, missed (storbench was down) or failed (the run was refused)."""
    return FiringList(items=service.firings(db, principal.team_id, schedule_id, limit))
