"""Signing in and resolving bearer tokens to a principal."""

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy.orm import Session

from storbench_api.auth import repository
from storbench_api.db import utcnow
from storbench_api.errors import Forbidden, Unauthorized
from storbench_api.models import AuthToken, Role
from storbench_api.security import new_token, token_digest, verify_password

_WRITE_ROLES = (Role.owner, Role.member)


@dataclass(frozen=True)
class Principal:
    """Who is calling, and in which team."""

    user_id: int
    email: str
    team_id: int
    team_name: str
    role: Role

    def require_write(self) -> None:
        """Refuse callers who may only read."""
        if self.role not in _WRITE_ROLES:
            raise Forbidden(f"your role in team '{self.team_name}' is {self.role}: it can only read")

    def require_owner(self) -> None:
        """Refuse callers who are not team owners."""
        if self.role != Role.owner:
            raise Forbidden("only a team owner can do this")


def sign_in(db: Session, email: str, password: str, ttl: timedelta) -> tuple[str, datetime]:
    """A new session token for valid credentials; one vague error for anything else."""
    user = repository.user_by_email(db, email)
    if not verify_password(password, user.password_hash if user else None) or user is None:
        raise Unauthorized("incorrect email or password")
    membership = repository.first_membership(db, user.id)
    if membership is None:
        raise Unauthorized("this account belongs to no team; ask a team owner to invite you")
    token = new_token("sbu")
    expires_at = utcnow() + ttl
    db.add(
        AuthToken(
            token_hash=token_digest(token),
            user_id=user.id,
            team_id=membership.team_id,
            kind="session",
            expires_at=expires_at,
        )
    )
    db.flush()
    return token, expires_at


def principal_for_token(db: Session, token: str) -> Principal:
    """The principal a bearer token stands for, or Unauthorized."""
    found = repository.token_with_principal(db, token_digest(token))
    if found is None:
        raise Unauthorized("invalid or expired token; sign in again")
    auth_token, user, team, membership = found
    now = utcnow()
    if auth_token.revoked_at is not None or (
        auth_token.expires_at is not None and auth_token.expires_at <= now
    ):
        raise Unauthorized("invalid or expired token; sign in again")
    # Touch last-used at most once a minute, so reads do not turn into writes.
    if auth_token.last_used_at is None or now - auth_token.last_used_at > timedelta(minutes=1):
        auth_token.last_used_at = now
    return Principal(
        user_id=user.id, email=user.email, team_id=team.id, team_name=team.name, role=membership.role
    )
