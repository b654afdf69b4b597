"""Signing in and resolving bearer tokens to a principal."""

import hashlib
import hmac
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy.orm import Session

from storbench_api.auth import repository
from storbench_api.db import utcnow
from storbench_api.errors import Forbidden, Invalid, NotFound, Unauthorized
from storbench_api.models import AuthToken, Role
from storbench_api.security import hash_password, new_token, token_digest, verify_password
from storbench_api.settings import get_settings

_RANK = {Role.viewer: 0, Role.member: 1, Role.owner: 2}


@dataclass(frozen=True)
class Principal:
    """Who is calling, and in which team."""

    user_id: int
    email: str
    team_id: int
    team_name: str
    role: Role
    token_id: int
    token_kind: str

    @property
    def actor(self) -> str:
        """How the audit log names this caller."""
        return self.email if self.token_kind == "session" else f"{self.email} (API token {self.token_id})"

    def require_owner(self) -> None:
        """Refuse callers who are not team owners."""
        if self.role != Role.owner:
            raise Forbidden("only a team owner can do this")


class WrongPassword(Unauthorized):
    """The email or password is not correct (one vague answer for both)."""


class WrongCurrentPassword(Invalid):
    """A password change named a current password that is not the user's."""


def sign_in(db: Session, email: str, password: str, ttl: timedelta) -> tuple[str, datetime]:
    """A new session token for valid credentials; one vague error for anything else."""
    user = repository.user_by_email(db, email)
    if not verify_password(password, user.password_hash if user else None) or user is None:
        raise WrongPassword("incorrect email or password")
    membership = repository.first_membership(db, user.id)
    if membership is None:
        raise Unauthorized("this account belongs to no team; ask a team owner to invite you")
    return issue_session(db, user.id, membership.team_id, ttl)


def issue_session(db: Session, user_id: int, team_id: int, ttl: timedelta) -> tuple[str, datetime]:
    """A new session token for a user acting in a team."""
    token = new_token("sbu")
    expires_at = utcnow() + ttl
    db.add(
        AuthToken(
            token_hash=token_digest(token),
            user_id=user_id,
            team_id=team_id,
            kind="session",
            expires_at=expires_at,
        )
    )
    db.flush()
    return token, expires_at


def sign_out(db: Session, principal: Principal) -> None:
    """Revoke the token the caller used."""
    token = repository.token_by_id(db, principal.token_id)
    if token is not None and token.revoked_at is None:
        token.revoked_at = utcnow()
    db.flush()


def change_password(db: Session, principal: Principal, current: str, new: str) -> None:
    """Set a new password and end every other session of the user."""
    user = repository.user_by_id(db, principal.user_id)
    if user is None or not verify_password(current, user.password_hash):
        raise WrongCurrentPassword(
            "the current password is not correct",
            [{"field": "current_password", "reason": "does not match"}],
        )
    user.password_hash = hash_password(new)
    repository.revoke_user_sessions(db, principal.user_id, keep_token_id=principal.token_id)
    db.flush()


def switch_team(db: Session, principal: Principal, team_id: int) -> Principal:
    """Make the caller's session act in another of their teams."""
    if principal.token_kind != "session":
        raise Forbidden("an API token is bound to its team; create one in the other team instead")
    membership = repository.membership(db, principal.user_id, team_id)
    if membership is None:
        raise NotFound(f"team {team_id} not found")
    token = repository.token_by_id(db, principal.token_id)
    if token is None:
        raise Unauthorized("this session has ended; sign in again")
    token.team_id = team_id
    db.flush()
    return principal_for_digest(db, token.token_hash)


def principal_for_token(db: Session, token: str) -> Principal:
    """The principal a bearer token stands for, or Unauthorized."""
    return principal_for_digest(db, token_digest(token))


def principal_for_digest(db: Session, digest: str) -> Principal:
    """The principal of the token with this digest, or Unauthorized."""
    found = repository.token_with_principal(db, digest)
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
    # An API token acts with its own role, never above its owner's current one.
    role = membership.role
    if auth_token.role is not None and _RANK[auth_token.role] < _RANK[role]:
        role = auth_token.role
    return Principal(
        user_id=user.id,
        email=user.email,
        team_id=team.id,
        team_name=team.name,
        role=role,
        token_id=auth_token.id,
        token_kind=auth_token.kind,
    )


def csrf_token_for(session_token: str) -> str:
    """The CSRF token bound to a session: an HMAC only the server can compute."""
    secret = get_settings().secret_key.encode()
    return hmac.new(secret, f"csrf:{session_token}".encode(), hashlib.sha256).hexdigest()
