"""Enrollment token endpoints, for owners."""

from fastapi import APIRouter, Request, Response, status

from storbench_api.deps import DB, OwnerAccess
from storbench_api.errors import NotFound
from storbench_api.hosts import enrollment, setup
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
    """The token, and the commands that install the worker on a host and enroll it with the token
    (kept in a file, never in argv), with <DIRECTORY> for the user to replace."""
    token, secret = enrollment.create_enrollment_token(
        db, principal, body.name, body.expires_in_hours, body.uses, body.replaces_host_id
    )
    db.commit()
    out = EnrollmentTokenOut.model_validate(token, from_attributes=True)
    replaced = body.replaces_host_id and enrollment.replaced_host_name(db, principal, body.replaces_host_id)
    url = setup.server_url(request.scope)
    command = setup.enroll_commands(url, secret, replaced or None)
    return EnrollmentTokenCreated(**out.model_dump(), token=secret, command=command)


@router.delete("/{token_id}", status_code=204, summary="Revoke an enrollment token")
def revoke_token(token_id: IdPath, db: DB, principal: OwnerAccess) -> Response:
    """No more hosts can enroll with it; enrolled hosts keep working."""
    enrollment.revoke_enrollment_token(db, principal, token_id)
    db.commit()
    return Response(status_code=204)
