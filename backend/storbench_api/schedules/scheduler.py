"""Firing schedules: every due slot once, whatever the number of schedulers.

Where it runs: the background loop every API process already has (storbench_api.sweeper), every
schedule_interval. Several API processes may each run it at once.

The lock is the database's unique constraint on schedule_firings (schedule_id, slot_at): the pass
inserts the slot's firing row and starts the run in the same transaction; a second scheduler's
insert of the same slot waits for the first to commit and then fails, so it starts nothing (on
SQLite writers are serialized and the insert fails at once). A run exists exactly when its
firing row does. Chosen over celery-redbeat: it works on SQLite (the embedded mode) and
PostgreSQL alike, needs no beat process or Redis lock to keep alive, and survives restarts —
the slots owed are computed from the schedule's next_fire_at, so a scheduler that was down finds
what it missed.

A missed slot (storbench down, the loop stopped) is recorded as a "missed" firing with the reason,
never skipped silently; after a long outage only the latest due slot starts a run, the
schedule_missed_listed slots before it are listed one by one and any earlier ones are counted in
one summary row. A slot whose run is refused (creator no longer a member or only a viewer, target
offline, plan gone) is a "failed" firing with the refusal, and is sent to the team's webhooks.
"""

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from storbench_api.auth.service import Principal
from storbench_api.db import get_sessionmaker, utcnow
from storbench_api.errors import DomainError
from storbench_api.models import Role, Run, Team
from storbench_api.models.schedule import FiringStatus, Schedule, ScheduleFiring
from storbench_api.runs import start as runs_start
from storbench_api.runs import tasks as runs_tasks
from storbench_api.runs.schemas import RunCreate
from storbench_api.schedules import cron, repository
from storbench_api.settings import get_settings
from storbench_api.teams import repository as teams_repository
from storbench_api.webhooks import events as webhook_events
from storbench_api.webhooks.service import enqueue_event

log = logging.getLogger(__name__)

# More due slots than this in one outage are counted, not enumerated.
_COUNT_CAP = 100_000


@dataclass(frozen=True)
class SchedulePrincipal(Principal):
    """The schedule's creator, acting for the schedule (named so in the audit log)."""

    schedule_id: int = 0

    @property
    def actor(self) -> str:
        return f"{self.email} (schedule {self.schedule_id})"


@dataclass(frozen=True)
class Fired:
    """What one schedule's pass did."""

    schedule_id: int
    slot_at: datetime
    status: FiringStatus
    run_id: int | None
    missed: int


def fire_due_once(now: Callable[[], datetime] = utcnow) -> list[Fired]:
    """One scheduler pass over every due schedule, each in its own transaction."""
    sessions = get_sessionmaker()
    with sessions() as db:
        due = repository.due_schedule_ids(db, now())
    fired = []
    for schedule_id in due:
        try:
            outcome = fire_schedule(schedule_id, now())
        except Exception:  # one broken schedule must not stop the others
            log.exception("schedule %s could not be fired", schedule_id)
            continue
        if outcome is not None:
            fired.append(outcome)
    return fired


def fire_schedule(schedule_id: int, now: datetime) -> Fired | None:
    """Fire the latest due slot of one schedule and record the missed ones; None if another scheduler did."""
    sessions = get_sessionmaker()
    with sessions() as db:
        schedule = db.get(Schedule, schedule_id)
        if (
            schedule is None
            or not schedule.enabled
            or schedule.next_fire_at is None
            or schedule.next_fire_at > now
        ):
            return None
        first = schedule.next_fire_at
        slots, more = cron.due_slots(schedule.cron, schedule.timezone, first, now, _COUNT_CAP)
        latest = cron.latest_slot_at_or_before(schedule.cron, schedule.timezone, now) if more else slots[-1]
        assert latest is not None
        upcoming = next(cron.slots_after(schedule.cron, schedule.timezone, latest), None)
        firing = ScheduleFiring(
            schedule_id=schedule.id, team_id=schedule.team_id, slot_at=latest, status=FiringStatus.started
        )
        db.add(firing)
        try:
            db.flush()  # the lock: only one scheduler's insert of this slot succeeds
        except IntegrityError:
            db.rollback()
            log.info("schedule %s slot %s was fired by another scheduler", schedule_id, latest)
            repository.advance_next_fire_at(db, schedule_id, upcoming, latest)
            db.commit()
            return None
        listed_cap = get_settings().schedule_missed_listed
        if more:  # too many to hold: the latest ones by walking back from the latest slot
            listed = cron.slots_before(schedule.cron, schedule.timezone, latest, first, listed_cap)
            missed_total = _more_count(schedule, first, latest)
        else:
            missed = slots[:-1]
            listed, missed_total = missed[-listed_cap:], len(missed)
        _record_missed(db, schedule, first, listed, missed_total, latest)
        run = _start(db, schedule, firing, latest)
        repository.advance_next_fire_at(db, schedule.id, upcoming, latest)
        db.commit()
        if run is not None:
            _dispatch(db, run)
        return Fired(schedule.id, latest, firing.status, firing.run_id, missed_total)


def _more_count(schedule: Schedule, first: datetime, latest: datetime) -> int:
    """How many slots lie before latest from first, when there were too many to list (capped)."""
    slots, _ = cron.due_slots(schedule.cron, schedule.timezone, first, latest, _COUNT_CAP * 10)
    return len([s for s in slots if s < latest])


def _record_missed(
    db: Session, schedule: Schedule, earliest: datetime, listed: list[datetime], total: int, latest: datetime
) -> None:
    """The latest missed slots (listed) one by one, any earlier ones from `earliest` in one counted row."""
    if total == 0:
        return
    reason = (
        "no scheduler ran at this time (storbench was down or its background loop stopped); "
        f"only the latest due slot ({latest.isoformat()}) was started"
    )
    rows = [(slot, 1, reason) for slot in listed]
    rest = total - len(listed)
    if rest > 0:
        until = listed[0] if listed else latest
        rows.insert(
            0,
            (
                earliest,
                rest,
                f"{rest} slots from {earliest.isoformat()} to before {until.isoformat()} were missed: "
                "no scheduler ran then (storbench was down or its background loop stopped)",
            ),
        )
    for slot, count, text in rows:
        with db.begin_nested() as savepoint:
            db.add(
                ScheduleFiring(
                    schedule_id=schedule.id,
                    team_id=schedule.team_id,
                    slot_at=slot,
                    status=FiringStatus.missed,
                    reason=text,
                    missed_count=count,
                )
            )
            try:
                db.flush()
            except IntegrityError:  # another scheduler recorded (or fired) that slot
                savepoint.rollback()


def principal_for(db: Session, schedule: Schedule) -> Principal | str:
    """The creator acting for the schedule, checked now; or why the schedule may not start a run."""
    if schedule.created_by_id is None:
        return "the schedule's creator no longer exists; recreate the schedule as a member of the team"
    found = teams_repository.member(db, schedule.team_id, schedule.created_by_id)
    if found is None:
        return "the schedule's creator is no longer a member of the team; recreate the schedule as a member"
    user, membership = found
    if membership.role == Role.viewer:
        return f"the schedule's creator {user.email} is now a viewer and may not start runs"
    team = db.get_one(Team, schedule.team_id)
    base = Principal(
        user_id=user.id,
        email=user.email,
        team_id=schedule.team_id,
        team_name=team.name,
        role=membership.role,
        token_id=0,
        token_kind="schedule",
    )
    return SchedulePrincipal(**{**base.__dict__, "schedule_id": schedule.id})


def _start(db: Session, schedule: Schedule, firing: ScheduleFiring, slot: datetime) -> Run | None:
    """Start the slot's run as the creator, through the API's own start_run; or record why not."""
    principal = principal_for(db, schedule)
    run: Run | None = None
    if isinstance(principal, str):
        reason = principal
    else:
        body = RunCreate.model_validate(
            {
                "target_id": schedule.target_id,
                "plan_id": schedule.plan_id,
                "host_ids": schedule.host_ids or [],
                **_optional_run_fields(schedule),
            }
        )
        try:
            with db.begin_nested():
                run = runs_start.start_run(db, principal, body)
                if getattr(run, "label", None) is None and schedule.label:
                    run.label = schedule.label
                if run.repetitions != schedule.repetitions:
                    run.repetitions = schedule.repetitions
                db.flush()
        except DomainError as exc:
            run = None
            reason = f"the run was refused: {exc.message}"
        else:
            reason = ""
    if run is None:
        firing.status = FiringStatus.failed
        firing.reason = reason
        enqueue_event(
            db,
            schedule.team_id,
            webhook_events.SCHEDULE_FIRING_FAILED,
            {"schedule_id": schedule.id, "schedule": schedule.name, "slot_at": slot, "reason": reason},
        )
    else:
        firing.run_id = run.id
    db.flush()
    return run


def _optional_run_fields(schedule: Schedule) -> dict[str, object]:
    """label and repetitions, for the run bodies that take them."""
    fields: dict[str, object] = {}
    if "label" in RunCreate.model_fields and schedule.label:
        fields["label"] = schedule.label
    if "repetitions" in RunCreate.model_fields:
        fields["repetitions"] = schedule.repetitions
    return fields


def _dispatch(db: Session, run: Run) -> None:
    """Hand the run to its hosts' queues after the commit (a broker failure fails the run, with why)."""
    try:
        runs_tasks.dispatch_run(db, run)
    except DomainError as exc:
        log.warning("scheduled run %s could not be dispatched: %s", run.id, exc.message)
