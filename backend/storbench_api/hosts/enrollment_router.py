"""Enrollment token endpoints, for owners."""

from datetime import datetime

from fastapi import APIRouter, Request, Response, status
from pydantic import BaseModel, Field
from sqlalchemy import select

from storbench_api.deps import DB, OwnerAccess
from storbench_api.errors import NotFound
from storbench_api.hosts.enrollment import create_enrollment_token, revoke_enrollment_token
from storbench_api.ids import IdPath
from storbench_api.models import EnrollmentToken

router = APIRouter(prefix="/enrollment-tokens", tags=["hosts"])


class EnrollmentTokenCreate(BaseModel):
    """How long, and for how many hosts, the token works."""

    name: str | None = Field(default=None, max_length=120, examples=["nas clients, rack 4"])
    expires_in_hours: int = Field(default=24, ge=1, le=24 * 90)
    uses: int = Field(default=1, ge=1, le=10_000, description="how many hosts may enroll with it")
    replaces_host_id: int | None = Field(
        default=None,
        ge=1,
        le=2**63 - 1,
        description="re-enroll this existing host (new credential, same name and history), once",
    )


class EnrollmentTokenOut(BaseModel):
    """An enrollment token as listed (never its secret)."""

    id: int
    name: str | None
    created_at: datetime
    expires_at: datetime
    uses_left: int | None
    last_used_at: datetime | None
    revoked_at: datetime | None
    replaces_host_id: int | None = None


class EnrollmentTokenCreated(EnrollmentTokenOut):
    """A new token with its secret and the command to enroll a host, shown only now."""

    token: str
    command: str


class EnrollmentTokenList(BaseModel):
    """The team's enrollment tokens."""

    items: list[EnrollmentTokenOut]
    total: int


@router.get("", response_model=EnrollmentTokenList, summary="The team's enrollment tokens")
def list_tokens(db: DB, principal: OwnerAccess) -> EnrollmentTokenList:
    """Expiry, uses left and last use of each token."""
    rows = db.scalars(
        select(EnrollmentToken)
        .where(EnrollmentToken.team_id == principal.team_id)
        .order_by(EnrollmentToken.id.desc())
    ).all()
    items = [EnrollmentTokenOut.model_validate(r, from_attributes=True) for r in rows]
    return EnrollmentTokenList(items=items, total=len(items))


@router.post(
    "",
    response_model=EnrollmentTokenCreated,
    status_code=status.HTTP_201_CREATED,
    summary="Create an enrollment token",
)
def create_token(
    request: Request, body: EnrollmentTokenCreate, db: DB, principal: OwnerAccess
) -> EnrollmentTokenCreated:
    """The token, and the commands that enroll a host with it (the token kept in a file, never in argv)."""
    token, secret = create_enrollment_token(
        db, principal, body.name, body.expires_in_hours, body.uses, body.replaces_host_id
    )
    db.commit()
    out = EnrollmentTokenOut.model_validate(token, from_attributes=True)
    server = str(request.base_url).rstrip("/")
    command = (
        "install -m 600 /dev/null /etc/storbench-token && "
        f"echo '{secret}' > /etc/storbench-token && "
        f"storbench-worker --server {server} --token-file /etc/storbench-token "
        "--name <host name> --allow <directory to benchmark>"
    )
    return EnrollmentTokenCreated(**out.model_dump(), token=secret, command=command)


@router.delete("/{token_id}", status_code=204, summary="Revoke an enrollment token")
def revoke_token(token_id: IdPath, db: DB, principal: OwnerAccess) -> Response:
    """No more hosts can enroll with it; enrolled hosts keep working."""
    token = db.scalar(
        select(EnrollmentToken).where(
            EnrollmentToken.id == token_id, EnrollmentToken.team_id == principal.team_id
        )
    )
    if token is None:
        raise NotFound(f"enrollment token {token_id} not found")
    revoke_enrollment_token(db, principal, token)
    db.commit()
    return Response(status_code=204)
