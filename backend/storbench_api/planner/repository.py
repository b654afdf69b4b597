"""Queries of the planner: the team's spec checks and per-host figures per class, its hosts' NICs, its
targets of a class."""

from collections.abc import Sequence
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from storbench_api.models import Host, Result, ResultDirection, Target
from storbench_api.models.storage_class import StorageClassSpec
from storbench_api.planner.host_measurements import PERCENTILES, DirectionRow

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


_CLAT_COLUMNS = (
    ResultDirection.clat_p50_ns,
    ResultDirection.clat_p90_ns,
    ResultDirection.clat_p95_ns,
    ResultDirection.clat_p99_ns,
    ResultDirection.clat_p99_9_ns,
    ResultDirection.clat_p99_99_ns,
)


def direction_rows_by_class(db: Session, team_id: int) -> dict[int, list[DirectionRow]]:
    """The read and write figures of the team's complete, error-free results, per storage class."""
    query = (
        select(
            StorageClassSpec.storage_class_id,
            Result.id,
            Result.run_id,
            Result.raw_output_id,
            Result.repetition,
            Result.host_name,
            Result.job_name,
            Result.measured_at,
            Result.options,
            ResultDirection.direction,
            ResultDirection.iops,
            *_CLAT_COLUMNS,
        )
        .join(StorageClassSpec, StorageClassSpec.id == Result.storage_class_spec_id)
        .join(ResultDirection, ResultDirection.result_id == Result.id)
        .where(
            Result.team_id == team_id,
            Result.partial.is_(False),
            Result.error == 0,
            ResultDirection.direction.in_(("read", "write")),
        )
        .order_by(Result.measured_at.desc(), Result.id.desc())
        .limit(MAX_RESULTS)
    )
    found: dict[int, list[DirectionRow]] = {}
    for (
        class_id,
        result_id,
        run_id,
        raw_id,
        repetition,
        host,
        job,
        at,
        options,
        direction,
        iops,
        *clat,
    ) in db.execute(query):
        source = ("run", run_id) if run_id is not None else ("output", raw_id or result_id)
        found.setdefault(class_id, []).append(
            DirectionRow(
                result_id=result_id,
                source=source,
                repetition=repetition,
                host_name=host,
                job_name=job,
                measured_at=at,
                options=options or {},
                direction=direction,
                iops=iops,
                clat_ns=dict(zip(PERCENTILES, clat, strict=True)),
            )
        )
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
