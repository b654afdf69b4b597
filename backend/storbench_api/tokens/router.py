"""API token endpoints, for owners."""

from fastapi import APIRouter, Response, status

from storbench_api.deps import DB, OwnerAccess
from storbench_api.ids import IdPath
from storbench_api.tokens import service
from storbench_api.tokens.schemas import ApiTokenCreated, ApiTokenList, ApiTokenOut, TokenCreate

router = APIRouter(prefix="/tokens", tags=["tokens"])


@router.get("", response_model=ApiTokenList, summary="The team's API tokens")
def list_tokens(db: DB, principal: OwnerAccess) -> ApiTokenList:
    """Names, roles, expiry and last use; secrets are never shown again."""
    rows = service.list_tokens(db, principal)
    return ApiTokenList(
        items=[ApiTokenOut.model_validate(r, from_attributes=True) for r in rows], total=len(rows)
    )


@router.post(
    "", response_model=ApiTokenCreated, status_code=status.HTTP_201_CREATED, summary="Create a token"
)
def create_token(body: TokenCreate, db: DB, principal: OwnerAccess) -> ApiTokenCreated:
    """The secret is in the response only; store it in your pipeline's secrets (STORBENCH_TOKEN)."""
    token, secret = service.create_token(db, principal, body)
    db.commit()
    return ApiTokenCreated(
        **ApiTokenOut.model_validate(token, from_attributes=True).model_dump(), token=secret
    )


@router.delete("/{token_id}", status_code=204, summary="Revoke a token")
def revoke_token(token_id: IdPath, db: DB, principal: OwnerAccess) -> Response:
    """The token stops working at once."""
    service.revoke_token(db, principal, token_id)
    db.commit()
    return Response(status_code=204)
