"""Every query of the schedules domain."""

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from storbench_api.models import Plan, Target, User
from storbench_api.models.schedule import FiringStatus, Schedule, ScheduleFiring
from storbench_api.pagination import Page, fetch_page


def schedules_of_team(db: Session, team_id: int, page: Page) -> tuple[Sequence[Schedule], int]:
    """A page of the team's schedules, by name, and how many it has."""
    query = select(Schedule).where(Schedule.team_id == team_id).order_by(Schedule.name, Schedule.id)
    return fetch_page(db, query, page)


def schedule_of_team(db: Session, team_id: int, schedule_id: int) -> Schedule | None:
    """One schedule, only if it is the team's."""
    return db.scalar(select(Schedule).where(Schedule.id == schedule_id, Schedule.team_id == team_id))


def due_schedule_ids(db: Session, now: datetime) -> list[int]:
    """Enabled schedules whose next slot has come."""
    return list(
        db.scalars(
            select(Schedule.id)
            .where(Schedule.enabled.is_(True), Schedule.next_fire_at <= now)
            .order_by(Schedule.next_fire_at, Schedule.id)
        )
    )


def advance_next_fire_at(
    db: Session, schedule_id: int, next_fire_at: datetime | None, since: datetime
) -> None:
    """Move the next slot forward (never backward: schedulers racing may finish in any order)."""
    db.execute(
        update(Schedule)
        .where(Schedule.id == schedule_id, Schedule.next_fire_at <= since)
        .values(next_fire_at=next_fire_at)
        .execution_options(synchronize_session=False)
    )


def firings(db: Session, schedule_id: int, limit: int) -> Sequence[ScheduleFiring]:
    """A schedule's firings, latest slot first."""
    return db.scalars(
        select(ScheduleFiring)
        .where(ScheduleFiring.schedule_id == schedule_id)
        .order_by(ScheduleFiring.slot_at.desc(), ScheduleFiring.id.desc())
        .limit(limit)
    ).all()


def missed_totals(db: Session, schedule_ids: Sequence[int]) -> dict[int, int]:
    """Slots missed or refused per schedule (a summary row counts for all the slots it stands for)."""
    if not schedule_ids:
        return {}
    rows = db.execute(
        select(ScheduleFiring.schedule_id, func.sum(ScheduleFiring.missed_count))
        .where(
            ScheduleFiring.schedule_id.in_(schedule_ids),
            ScheduleFiring.status.in_([FiringStatus.missed, FiringStatus.failed]),
        )
        .group_by(ScheduleFiring.schedule_id)
    ).all()
    return {schedule_id: int(total or 0) for schedule_id, total in rows}


def names(
    db: Session, schedules: Sequence[Schedule]
) -> tuple[dict[int, str], dict[int, str], dict[int, str]]:
    """Plan names, target names and creators' emails of these schedules, by id."""
    plan_ids = {s.plan_id for s in schedules}
    target_ids = {s.target_id for s in schedules}
    user_ids = {s.created_by_id for s in schedules if s.created_by_id is not None}
    plans = {r.id: r.name for r in db.execute(select(Plan.id, Plan.name).where(Plan.id.in_(plan_ids)))}
    targets = {
        r.id: r.name for r in db.execute(select(Target.id, Target.name).where(Target.id.in_(target_ids)))
    }
    users = {r.id: r.email for r in db.execute(select(User.id, User.email).where(User.id.in_(user_ids)))}
    return plans, targets, users
