"""Schedules: create, change, delete, list, and their firings."""

from datetime import datetime

from sqlalchemy.orm import Session

from storbench_api.audit import service as audit
from storbench_api.auth.service import Principal
from storbench_api.db import utcnow
from storbench_api.errors import Invalid, NotFound
from storbench_api.models.schedule import Schedule, ScheduleFiring
from storbench_api.pagination import Page
from storbench_api.plans import repository as plans_repository
from storbench_api.schedules import cron, repository
from storbench_api.schedules.schemas import (
    FiringOut,
    LocalSlot,
    NamedRef,
    ScheduleCreate,
    ScheduleOut,
    ScheduleUpdate,
    SlotPreview,
)
from storbench_api.settings import get_settings
from storbench_api.targets import repository as targets_repository
from storbench_api.teams import quotas

NEXT_SHOWN = 3


def _expression(text: str) -> str:
    """The normalised expression, if it reads and its slots are far enough apart (else 422)."""
    expression = cron.normalise_cron(text)
    cron.ensure_spaced(expression, get_settings().schedule_min_interval)
    return expression


def local_slots(times: list[datetime], timezone: str) -> list[LocalSlot]:
    """Slots (UTC) as the zone reads them, with its offset and abbreviation at each instant."""
    place = cron.zone(timezone)
    out = []
    for moment in times:
        local = moment.astimezone(place)
        offset = local.strftime("%z")
        out.append(
            LocalSlot(
                at=local,
                timezone=timezone,
                abbreviation=local.tzname() or timezone,
                utc_offset=f"{offset[:3]}:{offset[3:]}",
            )
        )
    return out


def preview(cron_text: str, timezone: str, count: int = NEXT_SHOWN) -> SlotPreview:
    """The next slots of an expression (422 naming cron or timezone if either is wrong)."""
    expression = _expression(cron_text)
    cron.zone(timezone)
    times = cron.next_slots(expression, timezone, utcnow(), count)
    return SlotPreview(
        cron=expression,
        timezone=timezone,
        next_fire_times=times,
        next_slots=local_slots(times, timezone),
    )


def _check_refs(db: Session, team_id: int, plan_id: int, target_id: int) -> None:
    if plans_repository.get_plan(db, team_id, plan_id) is None:
        raise Invalid(
            f"plan {plan_id} does not exist in this team",
            [{"field": "plan_id", "value": str(plan_id), "reason": "unknown plan"}],
        )
    if targets_repository.get_target(db, team_id, target_id) is None:
        raise Invalid(
            f"target {target_id} does not exist in this team",
            [{"field": "target_id", "value": str(target_id), "reason": "unknown target"}],
        )


def _restart_slots(schedule: Schedule) -> None:
    """Owe slots only from now on (at creation, re-enabling, or a new cron or timezone)."""
    now = utcnow()
    schedule.active_since = now
    schedule.next_fire_at = next(cron.slots_after(schedule.cron, schedule.timezone, now), None)


def get_schedule(db: Session, team_id: int, schedule_id: int) -> Schedule:
    """The team's schedule, or 404 (another team's too)."""
    schedule = repository.schedule_of_team(db, team_id, schedule_id)
    if schedule is None:
        raise NotFound(f"schedule {schedule_id} not found")
    return schedule


def list_schedules(db: Session, team_id: int, page: Page) -> tuple[list[Schedule], int]:
    """A page of the team's schedules, by name, and how many it has."""
    rows, total = repository.schedules_of_team(db, team_id, page)
    return list(rows), total


def create_schedule(db: Session, principal: Principal, body: ScheduleCreate) -> Schedule:
    """A new schedule owing slots from now; its runs start with the creator's rights."""
    expression = _expression(body.cron)
    cron.zone(body.timezone)
    _check_refs(db, principal.team_id, body.plan_id, body.target_id)
    quotas.ensure_room(db, principal.team_id, quotas.SCHEDULES, Schedule.team_id)
    schedule = Schedule(
        team_id=principal.team_id,
        name=body.name.strip(),
        plan_id=body.plan_id,
        target_id=body.target_id,
        cron=expression,
        timezone=body.timezone,
        enabled=body.enabled,
        label=body.label,
        repetitions=body.repetitions,
        host_ids=list(body.host_ids),
        created_by_id=principal.user_id,
    )
    _restart_slots(schedule)
    db.add(schedule)
    db.flush()
    audit.record(
        db,
        team_id=principal.team_id,
        actor=principal.actor,
        action="schedule.created",
        resource_type="schedule",
        resource_id=schedule.id,
        cron=expression,
        timezone=body.timezone,
    )
    return schedule


def update_schedule(db: Session, principal: Principal, schedule_id: int, body: ScheduleUpdate) -> Schedule:
    """Change a schedule; a new cron or timezone, or re-enabling, owes slots from now on."""
    schedule = get_schedule(db, principal.team_id, schedule_id)
    given = {k for k in body.model_fields_set if getattr(body, k) is not None or k == "label"}
    restart = False
    if "cron" in given and body.cron is not None:
        expression = _expression(body.cron)
        restart |= expression != schedule.cron
        schedule.cron = expression
    if "timezone" in given and body.timezone is not None:
        cron.zone(body.timezone)
        restart |= body.timezone != schedule.timezone
        schedule.timezone = body.timezone
    plan_id = body.plan_id if body.plan_id is not None else schedule.plan_id
    target_id = body.target_id if body.target_id is not None else schedule.target_id
    if {"plan_id", "target_id"} & given:
        _check_refs(db, principal.team_id, plan_id, target_id)
        schedule.plan_id, schedule.target_id = plan_id, target_id
    if body.name is not None:
        schedule.name = body.name.strip()
    if "label" in given:
        schedule.label = body.label
    if body.repetitions is not None:
        schedule.repetitions = body.repetitions
    if body.host_ids is not None:
        schedule.host_ids = list(body.host_ids)
    if body.enabled is not None:
        restart |= body.enabled and not schedule.enabled
        schedule.enabled = body.enabled
    if restart:
        _restart_slots(schedule)
    db.flush()
    audit.record(
        db,
        team_id=principal.team_id,
        actor=principal.actor,
        action="schedule.updated",
        resource_type="schedule",
        resource_id=schedule.id,
        changed=sorted(given),
    )
    return schedule


def delete_schedule(db: Session, principal: Principal, schedule_id: int) -> None:
    """Remove a schedule and its firings (runs it started stay)."""
    schedule = get_schedule(db, principal.team_id, schedule_id)
    audit.record(
        db,
        team_id=principal.team_id,
        actor=principal.actor,
        action="schedule.deleted",
        resource_type="schedule",
        resource_id=schedule.id,
        name=schedule.name,
    )
    db.delete(schedule)
    db.flush()


def firings(db: Session, team_id: int, schedule_id: int, limit: int) -> list[FiringOut]:
    """A schedule's firings, latest slot first."""
    schedule = get_schedule(db, team_id, schedule_id)
    return [describe_firing(f) for f in repository.firings(db, schedule.id, limit)]


def describe_firing(firing: ScheduleFiring) -> FiringOut:
    """A firing as the API shows it."""
    return FiringOut.model_validate(firing, from_attributes=True)


def describe(db: Session, schedules: list[Schedule]) -> list[ScheduleOut]:
    """Schedules as the API shows them: names resolved, next slots, latest firing."""
    plans, targets, users = repository.names(db, schedules)
    missed = repository.missed_totals(db, [s.id for s in schedules])
    out = []
    for schedule in schedules:
        latest = next(iter(repository.firings(db, schedule.id, 1)), None)
        upcoming = (
            cron.next_slots(schedule.cron, schedule.timezone, schedule.next_fire_at, NEXT_SHOWN - 1)
            if schedule.next_fire_at is not None
            else []
        )
        times = (
            [schedule.next_fire_at, *upcoming]
            if schedule.enabled and schedule.next_fire_at is not None
            else []
        )
        out.append(
            ScheduleOut(
                id=schedule.id,
                name=schedule.name,
                plan=NamedRef(id=schedule.plan_id, name=plans.get(schedule.plan_id)),
                target=NamedRef(id=schedule.target_id, name=targets.get(schedule.target_id)),
                cron=schedule.cron,
                timezone=schedule.timezone,
                enabled=schedule.enabled,
                label=schedule.label,
                repetitions=schedule.repetitions,
                host_ids=list(schedule.host_ids or []),
                created_by=users.get(schedule.created_by_id) if schedule.created_by_id else None,
                next_fire_at=schedule.next_fire_at if schedule.enabled else None,
                next_fire_times=times,
                next_slots=local_slots(times, schedule.timezone),
                last_firing=describe_firing(latest) if latest is not None else None,
                missed_total=missed.get(schedule.id, 0),
                created_at=schedule.created_at,
                updated_at=schedule.updated_at,
            )
        )
    return out
