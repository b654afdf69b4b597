"""Request dependencies shared by the routers: sessions and callers."""

from typing import Annotated

from fastapi import Depends
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer, OAuth2PasswordBearer
from sqlalchemy.orm import Session

from storbench_api.auth.service import Principal, principal_for_token
from storbench_api.db import get_db
from storbench_api.errors import Unauthorized
from storbench_api.hosts.service import host_for_credential
from storbench_api.models import Host

_oauth2 = OAuth2PasswordBearer(tokenUrl="/api/v1/auth/token", auto_error=False)
_host_bearer = HTTPBearer(auto_error=False, scheme_name="HostCredential")

DB = Annotated[Session, Depends(get_db)]


def current_principal(db: DB, token: Annotated[str | None, Depends(_oauth2)]) -> Principal:
    """The user behind the request's bearer token."""
    if not token:
        raise Unauthorized("authentication required: send 'Authorization: Bearer <token>'")
    return principal_for_token(db, token)


def current_host(
    db: DB, credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_host_bearer)]
) -> Host:
    """The host whose worker credential authenticates the request."""
    if credentials is None:
        raise Unauthorized("host credential required: send 'Authorization: Bearer <host token>'")
    return host_for_credential(db, credentials.credentials)


CurrentPrincipal = Annotated[Principal, Depends(current_principal)]
CurrentHost = Annotated[Host, Depends(current_host)]
