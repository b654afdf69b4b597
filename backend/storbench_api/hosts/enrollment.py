"""Enrollment tokens: let a new target host register itself, and do nothing else."""

from collections.abc import Sequence
from datetime import timedelta

from sqlalchemy.orm import Session

from storbench_api.audit import service as audit
from storbench_api.auth.service import Principal
from storbench_api.db import utcnow
from storbench_api.errors import Conflict, NotFound, Unauthorized
from storbench_api.hosts import repository
from storbench_api.hosts.service import is_online, register_host, rotate_credential
from storbench_api.models import EnrollmentToken, Host
from storbench_api.security import new_token, token_digest


def create_enrollment_token(
    db: Session,
    principal: Principal,
    name: str | None,
    hours: int,
    uses: int,
    replaces_host_id: int | None = None,
) -> tuple[EnrollmentToken, str]:
    """A token that registers up to `uses` hosts in the caller's team until it expires.

    With replaces_host_id it re-enrolls that one host (a new credential for the same name and
    history), once, and registers nothing else: the owner's explicit replace.
    """
    replaced = None
    if replaces_host_id is not None:
        replaced = repository.get_host(db, principal.team_id, replaces_host_id)
        if replaced is None:
            raise NotFound(f"host {replaces_host_id} not found")
        uses = 1
    secret = new_token("sbe")
    token = EnrollmentToken(
        team_id=principal.team_id,
        token_hash=token_digest(secret),
        name=name,
        created_by_id=principal.user_id,
        expires_at=utcnow() + timedelta(hours=hours),
        uses_left=uses,
        replaces_host_id=replaces_host_id,
    )
    db.add(token)
    db.flush()
    audit.record(
        db,
        team_id=principal.team_id,
        actor=principal.actor,
        action="enrollment_token.created",
        resource_type="enrollment_token",
        resource_id=token.id,
        hosts=[replaced.name] if replaced is not None else [],
        name=name,
        uses=uses,
        replaces_host=replaced.name if replaced is not None else None,
    )
    return token, secret


def replaced_host_name(db: Session, principal: Principal, host_id: int) -> str | None:
    """The name of the host an enrollment token replaces (its worker must keep it)."""
    host = repository.get_host(db, principal.team_id, host_id)
    return host.name if host is not None else None


def enrollment_tokens(db: Session, principal: Principal) -> Sequence[EnrollmentToken]:
    """The caller's team's enrollment tokens, newest first."""
    return repository.enrollment_tokens(db, principal.team_id)


def revoke_enrollment_token(db: Session, principal: Principal, token_id: int) -> None:
    """No more hosts can enroll with the token; enrolled hosts keep working."""
    token = repository.enrollment_token(db, principal.team_id, token_id)
    if token is None:
        raise NotFound(f"enrollment token {token_id} not found")
    if token.revoked_at is not None:
        return
    token.revoked_at = utcnow()
    audit.record(
        db,
        team_id=principal.team_id,
        actor=principal.actor,
        action="enrollment_token.revoked",
        resource_type="enrollment_token",
        resource_id=token.id,
        name=token.name,
    )


def enroll_host(db: Session, secret: str, name: str) -> tuple[Host, str]:
    """Register (or re-register an offline) host with an enrollment token; returns its worker token."""
    token = repository.enrollment_token_by_digest_for_update(db, token_digest(secret))
    now = utcnow()
    if (
        token is None
        or token.revoked_at is not None
        or token.expires_at <= now
        or (token.uses_left is not None and token.uses_left <= 0)
    ):
        raise Unauthorized(
            "this enrollment token is invalid, used up or expired: ask a team owner for a new one"
        )
    existing = repository.host_by_name(db, token.team_id, name)
    if token.replaces_host_id is not None:
        if existing is None or existing.id != token.replaces_host_id:
            raise Conflict("this enrollment token replaces another host: give that host's --name")
        # The owner's explicit replace: the same host, a new credential, not revoked any more.
        existing.revoked_at = None
        existing.revoked_reason = None
        host, credential = existing, rotate_credential(db, existing)
        action = "host.replaced"
    elif existing is not None:
        state = "online" if is_online(existing, now) else "registered"
        raise Conflict(
            f"a host named '{name}' is already {state} in this team: choose another --name, or ask a "
            "team owner to replace it (Hosts, Replace: an enrollment token for that host only)"
        )
    else:
        host, credential = register_host(db, token.team_id, name)
        action = "host.enrolled"
    token.last_used_at = now
    if token.uses_left is not None:
        token.uses_left -= 1
    audit.record(
        db,
        team_id=token.team_id,
        actor=f"enrollment token {token.id}",
        action=action,
        resource_type="host",
        resource_id=host.id,
        hosts=[name],
    )
    db.flush()
    return host, credential
