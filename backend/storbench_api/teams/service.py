"""Teams and their first members."""

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from storbench_api.models import Membership, Role, Team, User
from storbench_api.security import hash_password


def ensure_first_admin(db: Session, email: str, password: str, team_name: str) -> User | None:
    """Create the first team and its owner when the database has no user; None if one exists."""
    if (db.scalar(select(func.count()).select_from(User)) or 0) > 0:
        return None
    team = db.scalar(select(Team).where(Team.name == team_name)) or Team(name=team_name)
    user = User(email=email.strip().lower(), password_hash=hash_password(password))
    db.add_all([team, user])
    db.flush()
    db.add(Membership(user_id=user.id, team_id=team.id, role=Role.owner))
    db.flush()
    return user


def default_team(db: Session) -> Team:
    """The oldest team: the one embedded mode works in."""
    team = db.scalar(select(Team).order_by(Team.id).limit(1))
    if team is None:
        raise LookupError("no team exists yet; start the API once to create the first admin")
    return team
