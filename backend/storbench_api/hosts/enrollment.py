"""Enrollment tokens: let a new target host register itself, and do nothing else."""

from datetime import timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from storbench_api.audit import service as audit
from storbench_api.auth.service import Principal
from storbench_api.db import utcnow
from storbench_api.errors import Conflict, Unauthorized
from storbench_api.hosts import repository
from storbench_api.hosts.service import is_online, register_host, rotate_credential
from storbench_api.models import EnrollmentToken, Host
from storbench_api.security import new_token, token_digest


def create_enrollment_token(
    db: Session, principal: Principal, name: str | None, hours: int, uses: int | None
) -> tuple[EnrollmentToken, str]:
    """A token that registers up to `uses` hosts in the caller's team until it expires."""
    secret = new_token("sbe")
    token = EnrollmentToken(
        team_id=principal.team_id,
        token_hash=token_digest(secret),
        name=name,
        created_by_id=principal.user_id,
        expires_at=utcnow() + timedelta(hours=hours),
        uses_left=uses,
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
        name=name,
    )
    return token, secret


def enroll_host(db: Session, secret: str, name: str) -> tuple[Host, str]:
    """Register (or re-register an offline) host with an enrollment token; returns its worker token."""
    token = db.scalar(
        select(EnrollmentToken).where(EnrollmentToken.token_hash == token_digest(secret)).with_for_update()
    )
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
    if existing is not None:
        if is_online(existing, now):
            raise Conflict(f"a host named '{name}' is already online in this team; choose another --name")
        host, credential = existing, rotate_credential(db, existing)
        action = "host.re_enrolled"
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
