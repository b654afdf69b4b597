"""API tokens for scripts and pipelines: shown once, stored hashed, scoped to a team and a role."""

from datetime import datetime, timedelta

from fastapi import APIRouter, Response, status
from pydantic import BaseModel, Field
from sqlalchemy import select

from storbench_api.audit import service as audit
from storbench_api.db import utcnow
from storbench_api.deps import DB, OwnerAccess
from storbench_api.errors import NotFound
from storbench_api.ids import IdPath
from storbench_api.models import AuthToken, Role
from storbench_api.security import new_token, token_digest

router = APIRouter(prefix="/tokens", tags=["tokens"])


class TokenCreate(BaseModel):
    """A named token acting with a role in the caller's team."""

    name: str = Field(min_length=1, max_length=120, examples=["nightly regression pipeline"])
    role: Role = Role.member
    expires_in_days: int | None = Field(default=90, ge=1, le=3650)


class ApiTokenOut(BaseModel):
    """A token as listed: never the secret itself."""

    id: int
    name: str | None
    role: Role | None
    created_at: datetime
    expires_at: datetime | None
    last_used_at: datetime | None
    revoked_at: datetime | None


class ApiTokenCreated(ApiTokenOut):
    """A new token with its secret, shown only this once."""

    token: str


class ApiTokenList(BaseModel):
    """The team's API tokens."""

    items: list[ApiTokenOut]
    total: int


@router.get("", response_model=ApiTokenList, summary="The team's API tokens")
def list_tokens(db: DB, principal: OwnerAccess) -> ApiTokenList:
    """Names, roles, expiry and last use; secrets are never shown again."""
    rows = db.scalars(
        select(AuthToken)
        .where(AuthToken.team_id == principal.team_id, AuthToken.kind == "api")
        .order_by(AuthToken.id.desc())
    ).all()
    return ApiTokenList(
        items=[ApiTokenOut.model_validate(r, from_attributes=True) for r in rows], total=len(rows)
    )


@router.post(
    "", response_model=ApiTokenCreated, status_code=status.HTTP_201_CREATED, summary="Create a token"
)
def create_token(body: TokenCreate, db: DB, principal: OwnerAccess) -> ApiTokenCreated:
    """The secret is in the response only; store it in your pipeline's secrets (STORBENCH_TOKEN)."""
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
    db.commit()
    return ApiTokenCreated(
        **ApiTokenOut.model_validate(token, from_attributes=True).model_dump(), token=secret
    )


@router.delete("/{token_id}", status_code=204, summary="Revoke a token")
def revoke_token(token_id: IdPath, db: DB, principal: OwnerAccess) -> Response:
    """The token stops working at once."""
    token = db.scalar(
        select(AuthToken).where(
            AuthToken.id == token_id, AuthToken.team_id == principal.team_id, AuthToken.kind == "api"
        )
    )
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
    db.commit()
    return Response(status_code=204)
