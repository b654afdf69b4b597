"""Queries for teams, their members and invitations."""

from collections.abc import Sequence

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from storbench_api.models import Invitation, Membership, Role, Team, User


def user_count(db: Session) -> int:
    """How many users exist at all."""
    return db.scalar(select(func.count()).select_from(User)) or 0


def team_by_name(db: Session, name: str) -> Team | None:
    """The oldest team with this name (names are unique only among one user's teams)."""
    return db.scalar(select(Team).where(Team.name == name).order_by(Team.id).limit(1))


def lock_user(db: Session, user_id: int) -> None:
    """Hold the user's row until the transaction ends: their own changes then happen one at a time."""
    db.execute(select(User.id).where(User.id == user_id).with_for_update())


def member_team_by_name(db: Session, user_id: int, name: str) -> Team | None:
    """The user's own team with this name, if they are in one."""
    return db.scalar(
        select(Team)
        .join(Membership, Membership.team_id == Team.id)
        .where(Membership.user_id == user_id, Team.name == name)
        .limit(1)
    )


def oldest_team(db: Session) -> Team | None:
    """The first team ever created."""
    return db.scalar(select(Team).order_by(Team.id).limit(1))


def user_by_email(db: Session, email: str) -> User | None:
    """The user with this (normalised) email."""
    return db.scalar(select(User).where(User.email == email))


def teams_of(db: Session, user_id: int) -> Sequence[tuple[Team, Membership]]:
    """The user's teams with their memberships, by name."""
    rows = db.execute(
        select(Team, Membership)
        .join(Membership, Membership.team_id == Team.id)
        .where(Membership.user_id == user_id)
        .order_by(Team.name)
    ).all()
    return [(row[0], row[1]) for row in rows]


def members(db: Session, team_id: int) -> Sequence[tuple[User, Membership]]:
    """Members of a team with their memberships, by email."""
    rows = db.execute(
        select(User, Membership)
        .join(Membership, Membership.user_id == User.id)
        .where(Membership.team_id == team_id)
        .order_by(User.email)
    ).all()
    return [(row[0], row[1]) for row in rows]


def member(db: Session, team_id: int, user_id: int) -> tuple[User, Membership] | None:
    """One member of a team with their membership."""
    row = db.execute(
        select(User, Membership)
        .join(Membership, Membership.user_id == User.id)
        .where(Membership.team_id == team_id, Membership.user_id == user_id)
    ).first()
    return None if row is None else (row[0], row[1])


def membership(db: Session, team_id: int, user_id: int) -> Membership | None:
    """The user's membership in a team."""
    return db.scalar(select(Membership).where(Membership.team_id == team_id, Membership.user_id == user_id))


def owner_count(db: Session, team_id: int) -> int:
    """How many owners a team has."""
    return (
        db.scalar(
            select(func.count())
            .select_from(Membership)
            .where(Membership.team_id == team_id, Membership.role == Role.owner)
        )
        or 0
    )


def invitations(db: Session, team_id: int) -> Sequence[Invitation]:
    """The team's invitations, newest first."""
    return db.scalars(
        select(Invitation).where(Invitation.team_id == team_id).order_by(Invitation.id.desc())
    ).all()


def invitation(db: Session, team_id: int, invitation_id: int) -> Invitation | None:
    """The team's invitation with this id."""
    return db.scalar(select(Invitation).where(Invitation.id == invitation_id, Invitation.team_id == team_id))


def invitation_by_digest_for_update(db: Session, digest: str) -> Invitation | None:
    """The invitation whose token has this digest, locked until the transaction ends."""
    return db.scalar(select(Invitation).where(Invitation.token_hash == digest).with_for_update())
