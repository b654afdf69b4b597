"""API tokens for scripts and pipelines: shown once, stored hashed, scoped to a team and a role."""

from collections.abc import Sequence
from datetime import timedelta

from sqlalchemy.orm import Session

from storbench_api.audit import service as audit
from storbench_api.auth.service import Principal
from storbench_api.db import utcnow
from storbench_api.errors import NotFound
from storbench_api.models import AuthToken
from storbench_api.security import new_token, token_digest
from storbench_api.tokens import repository
from storbench_api.tokens.schemas import TokenCreate


def list_tokens(db: Session, principal: Principal) -> Sequence[AuthToken]:
    """The caller's team's API tokens, newest first."""
    return repository.list_api_tokens(db, principal.team_id)


def create_token(db: Session, principal: Principal, body: TokenCreate) -> tuple[AuthToken, str]:
    """A new token acting for the caller in their team, and its secret (returned once, stored hashed)."""
    secret = new_token("sbt")
    token = AuthToken(
        token_hash=token_digest(secret),
        user_id=principal.user_id,
        team_id=principal.team_id,
        kind="api",
        name=body.name,
        role=body.role,
        expires_at=utcnow() + timedelta(days=body.expires_in_days) if body.expires_in_days else None,
    )
    db.add(token)
    db.flush()
    audit.record(
        db,
        team_id=principal.team_id,
        actor=principal.actor,
        action="token.created",
        resource_type="token",
        resource_id=token.id,
        name=body.name,
        role=body.role.value,
    )
    return token, secret


def revoke_token(db: Session, principal: Principal, token_id: int) -> None:
    """The token stops working at once; revoking it again changes nothing."""
    token = repository.get_api_token(db, principal.team_id, token_id)
    if token is None:
        raise NotFound(f"token {token_id} not found")
    if token.revoked_at is None:
        token.revoked_at = utcnow()
        audit.record(
            db,
            team_id=principal.team_id,
            actor=principal.actor,
            action="token.revoked",
            resource_type="token",
            resource_id=token.id,
            name=token.name,
        )
    db.flush()
