"""Enrollment token endpoints, for owners."""

from fastapi import APIRouter, Request, Response, status

from storbench_api.deps import DB, OwnerAccess
from storbench_api.errors import NotFound
from storbench_api.hosts import enrollment
from storbench_api.hosts.schemas import (
    EnrollmentTokenCreate,
    EnrollmentTokenCreated,
    EnrollmentTokenList,
    EnrollmentTokenOut,
)
from storbench_api.ids import IdPath
from storbench_api.openapi import errors

router = APIRouter(prefix="/enrollment-tokens", tags=["hosts"])


@router.get("", response_model=EnrollmentTokenList, summary="The team's enrollment tokens")
def list_tokens(db: DB, principal: OwnerAccess) -> EnrollmentTokenList:
    """Expiry, uses left and last use of each token."""
    items = [
        EnrollmentTokenOut.model_validate(r, from_attributes=True)
        for r in enrollment.enrollment_tokens(db, principal)
    ]
    return EnrollmentTokenList(items=items, total=len(items))


@router.post(
    "",
    response_model=EnrollmentTokenCreated,
    status_code=status.HTTP_201_CREATED,
    summary="Create an enrollment token",
    responses=errors(NotFound),
)
def create_token(
    request: Request, body: EnrollmentTokenCreate, db: DB, principal: OwnerAccess
) -> EnrollmentTokenCreated:
    """The token, and the commands that enroll a host with it (the token kept in a file, never in argv)."""
    token, secret = enrollment.create_enrollment_token(
        db, principal, body.name, body.expires_in_hours, body.uses, body.replaces_host_id
    )
    db.commit()
    out = EnrollmentTokenOut.model_validate(token, from_attributes=True)
    command = enrollment.enroll_command(str(request.base_url).rstrip("/"), secret)
    return EnrollmentTokenCreated(**out.model_dump(), token=secret, command=command)


@router.delete("/{token_id}", status_code=204, summary="Revoke an enrollment token")
def revoke_token(token_id: IdPath, db: DB, principal: OwnerAccess) -> Response:
    """No more hosts can enroll with it; enrolled hosts keep working."""
    enrollment.revoke_enrollment_token(db, principal, token_id)
    db.commit()
    return Response(status_code=204)
