"""Queries of the planner: the team's spec checks per class, its hosts' NICs, its targets of a class."""

from collections.abc import Sequence
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from storbench_api.models import Host, Result, Target
from storbench_api.models.storage_class import StorageClassSpec

# The newest results read per request: enough for a median, bounded for a team with years of runs.
MAX_RESULTS = 5000


def spec_checks_by_class(db: Session, team_id: int) -> dict[int, list[dict[str, Any]]]:
    """The spec checks of the team's complete, error-free results, per storage class (newest first)."""
    query = (
        select(StorageClassSpec.storage_class_id, Result.spec_checks)
        .join(StorageClassSpec, StorageClassSpec.id == Result.storage_class_spec_id)
        .where(Result.team_id == team_id, Result.partial.is_(False), Result.error == 0)
        .order_by(Result.measured_at.desc(), Result.id.desc())
        .limit(MAX_RESULTS)
    )
    found: dict[int, list[dict[str, Any]]] = {}
    for class_id, checks in db.execute(query):
        found.setdefault(class_id, []).extend(c for c in checks or [] if isinstance(c, dict))
    return found


def host_facts(db: Session, team_id: int) -> Sequence[dict[str, Any]]:
    """The facts of the team's hosts that are neither removed nor revoked."""
    query = select(Host.facts).where(
        Host.team_id == team_id, Host.removed_at.is_(None), Host.revoked_at.is_(None)
    )
    return [facts or {} for facts in db.scalars(query)]


def targets_of_class(db: Session, team_id: int, class_id: int) -> list[int]:
    """The team's targets judged by this class."""
    query = (
        select(Target.id)
        .where(Target.team_id == team_id, Target.storage_class_id == class_id)
        .order_by(Target.id)
    )
    return list(db.scalars(query))
