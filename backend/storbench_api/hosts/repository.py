"""Queries for hosts."""

from collections.abc import Sequence

from sqlalchemy import delete, exists, func, select, update
from sqlalchemy.orm import Session

from storbench_api.models import (
    Assignment,
    EnrollmentToken,
    Host,
    Result,
    Run,
    RunStatus,
    Target,
    TargetKind,
)

# Removed hosts keep their history but are gone from every list, picker and lookup by id or name.
_PRESENT = Host.removed_at.is_(None)


def list_hosts(db: Session, team_id: int, limit: int, offset: int) -> tuple[Sequence[Host], int]:
    """A page of the team's hosts by name, and the total count."""
    query = select(Host).where(Host.team_id == team_id, _PRESENT)
    total = db.scalar(select(func.count()).select_from(query.subquery())) or 0
    hosts = db.scalars(query.order_by(Host.name).limit(limit).offset(offset)).all()
    return hosts, total


def hosts_with_broker_access(db: Session) -> list[int]:
    """Ids of every team's hosts that are not revoked (each may have a broker user)."""
    return list(db.scalars(select(Host.id).where(Host.revoked_at.is_(None)).order_by(Host.id)))


def get_host(db: Session, team_id: int, host_id: int) -> Host | None:
    """The team's host with this id."""
    return db.scalar(select(Host).where(Host.team_id == team_id, Host.id == host_id, _PRESENT))


def lock_host(db: Session, host_id: int) -> Host | None:
    """The host, its row held until the transaction ends (None once it is deleted).

    A no-op UPDATE rather than SELECT … FOR UPDATE: it locks the row on PostgreSQL and takes the
    database's write lock on SQLite (which ignores FOR UPDATE), so both serialise the same way.
    """
    locked = db.execute(
        update(Host)
        .where(Host.id == host_id)
        .values(updated_at=Host.updated_at)
        .execution_options(synchronize_session=False)
    )
    if locked.rowcount == 0:  # type: ignore[attr-defined]
        return None
    return db.scalar(select(Host).where(Host.id == host_id).execution_options(populate_existing=True))


def host_by_name(db: Session, team_id: int, name: str) -> Host | None:
    """The team's host with this name."""
    return db.scalar(select(Host).where(Host.team_id == team_id, Host.name == name, _PRESENT))


def host_by_credential(db: Session, digest: str) -> Host | None:
    """The host whose credential has this digest."""
    return db.scalar(select(Host).where(Host.credential_hash == digest))


def busy_host_ids(db: Session, host_ids: Sequence[int]) -> set[int]:
    """Which of these hosts are running an assignment now."""
    if not host_ids:
        return set()
    rows = db.scalars(
        select(Assignment.host_id)
        .where(Assignment.host_id.in_(host_ids), Assignment.status == RunStatus.running)
        .distinct()
    )
    return set(rows)


def all_hosts(db: Session, team_id: int) -> Sequence[Host]:
    """Every host of the team (label filters run in Python: JSON containment differs per database)."""
    return db.scalars(select(Host).where(Host.team_id == team_id, _PRESENT).order_by(Host.name)).all()


def enrollment_tokens(db: Session, team_id: int) -> Sequence[EnrollmentToken]:
    """The team's enrollment tokens, newest first."""
    return db.scalars(
        select(EnrollmentToken).where(EnrollmentToken.team_id == team_id).order_by(EnrollmentToken.id.desc())
    ).all()


def enrollment_token(db: Session, team_id: int, token_id: int) -> EnrollmentToken | None:
    """The team's enrollment token with this id."""
    return db.scalar(
        select(EnrollmentToken).where(EnrollmentToken.id == token_id, EnrollmentToken.team_id == team_id)
    )


def enrollment_token_by_digest_for_update(db: Session, digest: str) -> EnrollmentToken | None:
    """The enrollment token whose secret has this digest, locked until the transaction ends."""
    return db.scalar(select(EnrollmentToken).where(EnrollmentToken.token_hash == digest).with_for_update())


def has_history(db: Session, host_id: int) -> bool:
    """Whether anything ran on the host or was measured on it (then it is removed, never deleted)."""
    ran = exists().where(Assignment.host_id == host_id)
    on_its_targets = exists().where(Run.target_id == Target.id, Target.host_id == host_id)
    measured = exists().where(Result.host_id == host_id)
    return bool(db.scalar(select(ran | on_its_targets | measured)))


def target_ids_of_host(db: Session, host_id: int) -> Sequence[int]:
    """The ids of a host's targets."""
    return db.scalars(select(Target.id).where(Target.host_id == host_id)).all()


def delete_host(db: Session, host: Host) -> None:
    """Delete a host without history, with its targets and the enrollment tokens that replace it."""
    db.execute(delete(Target).where(Target.host_id == host.id))
    db.execute(delete(EnrollmentToken).where(EnrollmentToken.replaces_host_id == host.id))
    db.delete(host)
    db.flush()


def target_directories(db: Session, host_id: int) -> list[str]:
    """The directories of the host's targets, each once: what its worker is asked to check."""
    query = (
        select(Target.path)
        .where(Target.host_id == host_id, Target.kind == TargetKind.directory)
        .distinct()
        .order_by(Target.path)
    )
    return list(db.scalars(query).all())
