"""Queries for plans."""

from collections.abc import Sequence

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from storbench_api.models import Plan


def list_plans(db: Session, team_id: int, limit: int, offset: int) -> tuple[Sequence[Plan], int]:
    """A page of the team's plans, newest first, and the total count."""
    query = select(Plan).where(Plan.team_id == team_id)
    total = db.scalar(select(func.count()).select_from(query.subquery())) or 0
    rows = db.scalars(query.order_by(Plan.id.desc()).limit(limit).offset(offset)).all()
    return rows, total


def get_plan(db: Session, team_id: int, plan_id: int) -> Plan | None:
    """The team's plan with this id."""
    return db.scalar(select(Plan).where(Plan.team_id == team_id, Plan.id == plan_id))


def plan_by_name(db: Session, team_id: int, name: str) -> Plan | None:
    """The team's plan with this name."""
    return db.scalar(select(Plan).where(Plan.team_id == team_id, Plan.name == name))
