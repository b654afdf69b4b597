"""Teams, members and invitations."""

from fastapi import APIRouter, Request, Response, status

from storbench_api.auth.schemas import TokenOut
from storbench_api.auth.service import issue_session
from storbench_api.deps import DB, OwnerAccess, ReadAccess
from storbench_api.errors import Conflict, Forbidden, Invalid, Unauthorized
from storbench_api.ids import IdPath
from storbench_api.kit.attempts import account_attempt, password_attempt, secret_account
from storbench_api.models import Role
from storbench_api.openapi import errors, rules_beyond_schema
from storbench_api.settings import get_settings
from storbench_api.teams import service
from storbench_api.teams.schemas import (
    InvitationAccept,
    InvitationCreate,
    InvitationCreated,
    InvitationList,
    InvitationOut,
    MemberList,
    MemberOut,
    MemberUpdate,
    TeamCreate,
    TeamList,
    TeamOut,
)

router = APIRouter(prefix="/teams", tags=["teams"])
invitations_router = APIRouter(prefix="/invitations", tags=["teams"])


@router.get("", response_model=TeamList, summary="Your teams")
def list_teams(db: DB, principal: ReadAccess) -> TeamList:
    """Every team you belong to, with your role; `current` is the one this session acts in."""
    items = [
        TeamOut(id=team.id, name=team.name, role=m.role, current=team.id == principal.team_id)
        for team, m in service.teams_of(db, principal.user_id)
    ]
    return TeamList(items=items, total=len(items))


@router.post(
    "",
    response_model=TeamOut,
    status_code=status.HTTP_201_CREATED,
    summary="Create a team",
    responses=errors(Conflict, Forbidden),
)
def create_team(body: TeamCreate, db: DB, principal: ReadAccess) -> TeamOut:
    """A new team with you as its owner; switch to it with POST /auth/switch-team."""
    team = service.create_team(db, principal, body.name)
    db.commit()
    return TeamOut(id=team.id, name=team.name, role=Role.owner, current=False)


@router.get("/current/members", response_model=MemberList, summary="Members of the current team")
def list_members(db: DB, principal: ReadAccess) -> MemberList:
    """Everyone in the team with their role."""
    items = [
        MemberOut(user_id=user.id, email=user.email, role=m.role, joined_at=m.created_at)
        for user, m in service.members(db, principal.team_id)
    ]
    return MemberList(items=items, total=len(items))


@router.patch(
    "/current/members/{user_id}",
    response_model=MemberOut,
    summary="Change a member's role",
    responses=errors(Conflict),
)
def change_role(user_id: IdPath, body: MemberUpdate, db: DB, principal: OwnerAccess) -> MemberOut:
    """owner, member or viewer; the last owner cannot step down."""
    user, membership = service.change_role(db, principal, user_id, body.role)
    db.commit()
    return MemberOut(user_id=user.id, email=user.email, role=membership.role, joined_at=membership.created_at)


@router.delete(
    "/current/members/{user_id}", status_code=204, summary="Remove a member", responses=errors(Conflict)
)
def remove_member(user_id: IdPath, db: DB, principal: OwnerAccess) -> Response:
    """The member loses access to the team's resources at once."""
    service.remove_member(db, principal, user_id)
    db.commit()
    return Response(status_code=204)


@router.get("/current/invitations", response_model=InvitationList, summary="Invitations of the current team")
def list_invitations(db: DB, principal: OwnerAccess) -> InvitationList:
    """Pending, used, expired and revoked invitations."""
    items = [
        InvitationOut.model_validate(r, from_attributes=True) for r in service.invitations(db, principal)
    ]
    return InvitationList(items=items, total=len(items))


@router.post(
    "/current/invitations",
    response_model=InvitationCreated,
    status_code=status.HTTP_201_CREATED,
    summary="Invite someone by link",
)
def create_invitation(body: InvitationCreate, db: DB, principal: OwnerAccess) -> InvitationCreated:
    """A single-use link with a role and an expiry; the token is shown only now."""
    invitation, token = service.invite(db, principal, body.role, body.email, body.expires_in_hours)
    db.commit()
    out = InvitationOut.model_validate(invitation, from_attributes=True)
    return InvitationCreated(**out.model_dump(), token=token, link=f"/invite/{token}")


@router.delete("/current/invitations/{invitation_id}", status_code=204, summary="Revoke an invitation")
def revoke_invitation(invitation_id: IdPath, db: DB, principal: OwnerAccess) -> Response:
    """The link stops working."""
    service.revoke_invitation(db, principal, invitation_id)
    db.commit()
    return Response(status_code=204)


@invitations_router.post(
    "/accept",
    response_model=TokenOut,
    summary="Accept an invitation",
    openapi_extra=rules_beyond_schema(
        "the token must be a valid invitation, not used, revoked or expired; one made for an email "
        "address is accepted with that address only"
    ),
)
def accept_invitation(request: Request, body: InvitationAccept, db: DB) -> TokenOut:
    """Join the team with an existing account or a new one; returns a session token in that team."""
    # An invitation checks an existing account's password: limited as sign-in is, per address and
    # per account; and one token's failures are counted wherever they come from.
    with (
        password_attempt(request, body.email, wrong=(Unauthorized,), purpose="invitation"),
        account_attempt(request, secret_account("invitation", body.token), wrong=(Invalid,)),
    ):
        user, team_id = service.accept_invitation(db, body.token, body.email, body.password)
    token, expires_at = issue_session(db, user.id, team_id, get_settings().token_ttl)
    db.commit()
    return TokenOut(access_token=token, expires_at=expires_at)
