"""Teams, their members and invitations."""

from collections.abc import Sequence
from datetime import timedelta

from sqlalchemy.orm import Session

from storbench_api.audit import service as audit
from storbench_api.auth import repository as auth_repository
from storbench_api.auth.service import Principal
from storbench_api.db import utcnow
from storbench_api.errors import Conflict, Forbidden, Invalid, NotFound, Unauthorized
from storbench_api.models import Invitation, Membership, Role, Team, User
from storbench_api.security import hash_password, new_token, token_digest, verify_password
from storbench_api.settings import DEFAULT_ADMIN_PASSWORD, get_settings
from storbench_api.teams import repository


def ensure_first_admin(db: Session, email: str, password: str, team_name: str) -> User | None:
    """Create the first team and its owner when the database has no user; None if one exists."""
    if repository.user_count(db) > 0:
        return None
    team = repository.team_by_name(db, team_name) or Team(name=team_name)
    user = User(email=email.strip().lower(), password_hash=hash_password(password))
    db.add_all([team, user])
    db.flush()
    db.add(Membership(user_id=user.id, team_id=team.id, role=Role.owner))
    db.flush()
    return user


def admin_keeps_default_password(db: Session, email: str) -> bool:
    """True while the first admin can still sign in with the documented (public) password."""
    user = repository.user_by_email(db, email.strip().lower())
    return user is not None and verify_password(DEFAULT_ADMIN_PASSWORD, user.password_hash)


def replace_default_admin_password(db: Session, email: str, password: str) -> bool:
    """Give the admin the configured password if theirs is still the documented one; True if done.

    STORBENCH_ADMIN_PASSWORD otherwise only counts when the first admin is created, so setting it
    for `make up REMOTE=1` on an existing installation would do nothing. Nobody chose the documented
    password, so replacing it takes nothing from anyone; its sessions end, as on a password change.
    """
    if password == DEFAULT_ADMIN_PASSWORD or not admin_keeps_default_password(db, email):
        return False
    user = repository.user_by_email(db, email.strip().lower())
    assert user is not None  # admin_keeps_default_password found them
    user.password_hash = hash_password(password)
    auth_repository.revoke_user_sessions(db, user.id)
    db.flush()
    return True


def default_team(db: Session) -> Team:
    """The oldest team: the one embedded mode works in."""
    team = repository.oldest_team(db)
    if team is None:
        raise LookupError("no team exists yet; start the API once to create the first admin")
    return team


def teams_of(db: Session, user_id: int) -> Sequence[tuple[Team, Membership]]:
    """The user's teams with their memberships, by name."""
    return repository.teams_of(db, user_id)


def create_team(db: Session, principal: Principal, name: str) -> Team:
    """A new team owned by the caller, if the instance lets the caller create teams."""
    settings = get_settings()
    if settings.team_creation == "admins" and principal.email != settings.admin_email.strip().lower():
        raise Forbidden(
            "only the instance's admin creates teams here: ask them for one, or for an invitation "
            "(STORBENCH_TEAM_CREATION=everyone lets every user create teams)"
        )
    name = name.strip()
    # Unique among the caller's own teams only: refusing a name another team has would tell who
    # else uses this instance. No constraint can say "among a user's teams", so the caller's row is
    # locked: two creations at once check and insert one after the other.
    repository.lock_user(db, principal.user_id)
    if repository.member_team_by_name(db, principal.user_id, name) is not None:
        raise Conflict(f"you are already in a team named '{name}': choose another name")
    team = Team(name=name)
    db.add(team)
    db.flush()
    db.add(Membership(user_id=principal.user_id, team_id=team.id, role=Role.owner))
    db.flush()
    return team


def members(db: Session, team_id: int) -> Sequence[tuple[User, Membership]]:
    """Members of a team with their roles."""
    return repository.members(db, team_id)


def _member(db: Session, team_id: int, user_id: int) -> tuple[User, Membership]:
    found = repository.member(db, team_id, user_id)
    if found is None:
        raise NotFound(f"user {user_id} is not a member of this team")
    return found


def change_role(db: Session, principal: Principal, user_id: int, role: Role) -> tuple[User, Membership]:
    """Give a member another role; a team always keeps an owner."""
    user, membership = _member(db, principal.team_id, user_id)
    if (
        membership.role == Role.owner
        and role != Role.owner
        and repository.owner_count(db, principal.team_id) == 1
    ):
        raise Conflict("a team needs at least one owner: make someone else owner first")
    membership.role = role
    audit.record(
        db,
        team_id=principal.team_id,
        actor=principal.actor,
        action="member.role_changed",
        resource_type="user",
        resource_id=user_id,
        role=role.value,
    )
    db.flush()
    return user, membership


def remove_member(db: Session, principal: Principal, user_id: int) -> None:
    """Remove a member; a team always keeps an owner."""
    _, membership = _member(db, principal.team_id, user_id)
    if membership.role == Role.owner and repository.owner_count(db, principal.team_id) == 1:
        raise Conflict("a team needs at least one owner: make someone else owner first")
    db.delete(membership)
    audit.record(
        db,
        team_id=principal.team_id,
        actor=principal.actor,
        action="member.removed",
        resource_type="user",
        resource_id=user_id,
    )
    db.flush()


def invite(
    db: Session, principal: Principal, role: Role, email: str | None, hours: int
) -> tuple[Invitation, str]:
    """A single-use invitation token for the current team."""
    token = new_token("sbi")
    invitation = Invitation(
        team_id=principal.team_id,
        token_hash=token_digest(token),
        role=role,
        email=email.strip().lower() if email else None,
        created_by_id=principal.user_id,
        expires_at=utcnow() + timedelta(hours=hours),
    )
    db.add(invitation)
    db.flush()
    audit.record(
        db,
        team_id=principal.team_id,
        actor=principal.actor,
        action="invitation.created",
        resource_type="invitation",
        resource_id=invitation.id,
        role=role.value,
        email=invitation.email,
    )
    return invitation, token


def invitations(db: Session, principal: Principal) -> Sequence[Invitation]:
    """The current team's invitations, newest first."""
    return repository.invitations(db, principal.team_id)


def revoke_invitation(db: Session, principal: Principal, invitation_id: int) -> None:
    """The invitation's link stops working; revoking it again changes nothing."""
    invitation = repository.invitation(db, principal.team_id, invitation_id)
    if invitation is None:
        raise NotFound(f"invitation {invitation_id} not found")
    invitation.revoked_at = invitation.revoked_at or utcnow()
    db.flush()


def accept_invitation(db: Session, token: str, email: str, password: str) -> tuple[User, int]:
    """Join the invitation's team, with an existing account (password checked) or a new one."""
    invitation = repository.invitation_by_digest_for_update(db, token_digest(token))
    now = utcnow()
    if invitation is None or invitation.revoked_at or invitation.accepted_at or invitation.expires_at <= now:
        raise Invalid("this invitation link is invalid, used or expired: ask a team owner for a new one")
    email = email.strip().lower()
    if invitation.email and invitation.email != email:
        raise Invalid("this invitation was made for another email address")
    user = repository.user_by_email(db, email)
    if user is None:
        user = User(email=email, password_hash=hash_password(password))
        db.add(user)
        db.flush()
    elif not verify_password(password, user.password_hash):
        raise Unauthorized("incorrect email or password")
    if repository.membership(db, invitation.team_id, user.id) is None:
        db.add(Membership(user_id=user.id, team_id=invitation.team_id, role=invitation.role))
    invitation.accepted_at = now
    audit.record(
        db,
        team_id=invitation.team_id,
        actor=email,
        action="invitation.accepted",
        resource_type="invitation",
        resource_id=invitation.id,
        role=invitation.role.value,
    )
    db.flush()
    return user, invitation.team_id
