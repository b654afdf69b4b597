"""Enrollment token endpoints, for owners."""

from datetime import datetime

from fastapi import APIRouter, Response, status
from pydantic import BaseModel, Field
from sqlalchemy import select

from storbench_api.db import utcnow
from storbench_api.deps import DB, OwnerAccess
from storbench_api.errors import NotFound
from storbench_api.hosts.enrollment import create_enrollment_token
from storbench_api.ids import IdPath
from storbench_api.models import EnrollmentToken

router = APIRouter(prefix="/enrollment-tokens", tags=["hosts"])


class EnrollmentTokenCreate(BaseModel):
    """How long, and for how many hosts, the token works."""

    name: str | None = Field(default=None, max_length=120, examples=["nas clients, rack 4"])
    expires_in_hours: int = Field(default=24, ge=1, le=24 * 90)
    uses: int | None = Field(default=None, ge=1, le=10_000)


class EnrollmentTokenOut(BaseModel):
    """An enrollment token as listed (never its secret)."""

    id: int
    name: str | None
    created_at: datetime
    expires_at: datetime
    uses_left: int | None
    last_used_at: datetime | None
    revoked_at: datetime | None


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
def create_token(body: EnrollmentTokenCreate, db: DB, principal: OwnerAccess) -> EnrollmentTokenCreated:
    """Run `storbench-worker --server URL --token TOKEN --name NAME` on each new host."""
    token, secret = create_enrollment_token(db, principal, body.name, body.expires_in_hours, body.uses)
    db.commit()
    out = EnrollmentTokenOut.model_validate(token, from_attributes=True)
    command = f"storbench-worker --server <this URL> --token {secret} --name <host name> --allow <path>"
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
    token.revoked_at = token.revoked_at or utcnow()
    db.commit()
    return Response(status_code=204)
