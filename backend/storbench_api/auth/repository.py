"""Queries for users, memberships and tokens."""

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from storbench_api.db import utcnow
from storbench_api.models import AuthToken, Membership, Team, User


def user_by_email(db: Session, email: str) -> User | None:
    """The user with this email (case-insensitive), if any."""
    return db.scalar(select(User).where(User.email == email.strip().lower()))


def user_by_id(db: Session, user_id: int) -> User | None:
    """The user with this id."""
    return db.get(User, user_id)


def token_by_id(db: Session, token_id: int) -> AuthToken | None:
    """The token (session or API) with this id."""
    return db.get(AuthToken, token_id)


def first_membership(db: Session, user_id: int) -> Membership | None:
    """The user's oldest team membership."""
    return db.scalar(select(Membership).where(Membership.user_id == user_id).order_by(Membership.id).limit(1))


def token_with_principal(db: Session, digest: str) -> tuple[AuthToken, User, Team, Membership] | None:
    """A token by digest with its user, team and the user's membership in that team."""
    row = db.execute(
        select(AuthToken, User, Team, Membership)
        .join(User, User.id == AuthToken.user_id)
        .join(Team, Team.id == AuthToken.team_id)
        .join(
            Membership,
            (Membership.user_id == AuthToken.user_id) & (Membership.team_id == AuthToken.team_id),
        )
        .where(AuthToken.token_hash == digest)
    ).first()
    return None if row is None else (row[0], row[1], row[2], row[3])


def membership(db: Session, user_id: int, team_id: int) -> Membership | None:
    """The user's membership in a team."""
    return db.scalar(select(Membership).where(Membership.user_id == user_id, Membership.team_id == team_id))


def revoke_user_sessions(db: Session, user_id: int, keep_token_id: int | None = None) -> None:
    """End a user's browser sessions (API tokens stay)."""
    query = update(AuthToken).where(
        AuthToken.user_id == user_id, AuthToken.kind == "session", AuthToken.revoked_at.is_(None)
    )
    if keep_token_id is not None:
        query = query.where(AuthToken.id != keep_token_id)
    db.execute(query.values(revoked_at=utcnow()))
