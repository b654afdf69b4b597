"""Queries for plans and their versions."""

from collections.abc import Sequence

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from storbench_api.models import Plan, PlanVersion, Run
from storbench_api.models.schedule import Schedule


def list_plans(db: Session, team_id: int, limit: int, offset: int) -> tuple[Sequence[Plan], int]:
    """A page of the team's plans, newest first, and the total count."""
    query = select(Plan).where(Plan.team_id == team_id)
    total = db.scalar(select(func.count()).select_from(query.subquery())) or 0
    rows = db.scalars(query.order_by(Plan.id.desc()).limit(limit).offset(offset)).all()
    return rows, total


def get_plan(db: Session, team_id: int, plan_id: int, for_update: bool = False) -> Plan | None:
    """The team's plan with this id."""
    query = select(Plan).where(Plan.team_id == team_id, Plan.id == plan_id)
    if for_update:
        query = query.with_for_update()
    return db.scalar(query)


def plan_by_name(db: Session, team_id: int, name: str) -> Plan | None:
    """The team's plan with this name."""
    return db.scalar(select(Plan).where(Plan.team_id == team_id, Plan.name == name))


def plan_versions(db: Session, plan_id: int) -> Sequence[PlanVersion]:
    """Every version of a plan, newest first."""
    return db.scalars(
        select(PlanVersion).where(PlanVersion.plan_id == plan_id).order_by(PlanVersion.version.desc())
    ).all()


def runs_per_version(db: Session, plan_id: int) -> dict[int, int]:
    """How many runs each version of a plan has."""
    rows = db.execute(
        select(Run.plan_version, func.count())
        .where(Run.plan_id == plan_id, Run.plan_version.is_not(None))
        .group_by(Run.plan_version)
    ).all()
    return {int(version or 0): int(count) for version, count in rows}


def names_like(db: Session, team_id: int, prefix: str) -> set[str]:
    """The team's plan names starting with prefix."""
    escaped = prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return set(
        db.scalars(
            select(Plan.name).where(Plan.team_id == team_id, Plan.name.like(f"{escaped}%", escape="\\"))
        ).all()
    )


def schedules_running(db: Session, plan_id: int) -> Sequence[Schedule]:
    """The schedules that run this plan."""
    return db.scalars(select(Schedule).where(Schedule.plan_id == plan_id).order_by(Schedule.id)).all()
