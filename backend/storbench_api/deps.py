"""Request dependencies shared by the routers: sessions, callers and what they may do.

Every route states its access level through exactly one of ReadAccess, WriteAccess, OwnerAccess,
CurrentHost or PUBLIC_ROUTES; the authorization matrix test fails for a route that states none, and
the OpenAPI schema lists the 401, 403 and 429 answers each level implies (storbench_api.openapi).
"""

from collections.abc import Callable
from typing import Annotated, Literal

from fastapi import Depends, FastAPI, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer, OAuth2PasswordBearer
from sqlalchemy.orm import Session

from storbench_api.auth.service import Principal, csrf_token_for, principal_for_token
from storbench_api.db import get_db
from storbench_api.errors import Forbidden, Unauthorized
from storbench_api.hosts.service import host_for_credential, host_of_worker_request
from storbench_api.kit.logs import bind
from storbench_api.models import Host, Role
from storbench_api.security import same_secret

SESSION_COOKIE = "storbench_session"
CSRF_COOKIE = "storbench_csrf"
CSRF_HEADER = "X-CSRF-Token"
_SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
RANK = {Role.viewer: 0, Role.member: 1, Role.owner: 2}

# "open": anyone, no credential at all; "sign_in": a credential in the body (a password, an
# invitation or an enrollment token), wrong ones answered 401 and repeated attempts 429.
PublicAccess = Literal["open", "sign_in"]
PUBLIC_ROUTES: dict[tuple[str, str], PublicAccess] = {
    ("GET", "/api/v1/health"): "open",
    ("GET", "/api/v1/ready"): "open",
    # Whether the browser is signed in: 200 either way, so a first visit logs no error.
    ("GET", "/api/v1/auth/status"): "open",
    ("POST", "/api/v1/auth/token"): "sign_in",
    ("POST", "/api/v1/auth/login"): "sign_in",
    ("POST", "/api/v1/invitations/accept"): "sign_in",
    ("POST", "/api/v1/worker/enroll"): "sign_in",
    # The worker's packages, for a host about to enroll (no secret in them).
    ("GET", "/api/v1/worker/requirements.txt"): "open",
    ("GET", "/api/v1/worker/dist/{filename}"): "open",
    # The server's clock, for a worker measuring its offset (the time of day is no secret).
    ("GET", "/api/v1/worker/clock"): "open",
}

_oauth2 = OAuth2PasswordBearer(tokenUrl="/api/v1/auth/token", auto_error=False)
_host_bearer = HTTPBearer(auto_error=False, scheme_name="HostCredential")

DB = Annotated[Session, Depends(get_db)]


def current_principal(request: Request, db: DB, token: Annotated[str | None, Depends(_oauth2)]) -> Principal:
    """The user behind the bearer token, or behind the session cookie (then CSRF-checked)."""
    if token:
        return principal_for_token(db, token)
    cookie = request.cookies.get(SESSION_COOKIE)
    if not cookie:
        raise Unauthorized("authentication required: sign in, or send 'Authorization: Bearer <token>'")
    principal = principal_for_token(db, cookie)
    if request.method not in _SAFE_METHODS:
        sent = request.headers.get(CSRF_HEADER, "")
        if not sent or not same_secret(sent, csrf_token_for(cookie)):
            raise Forbidden(f"missing or wrong {CSRF_HEADER} header for this session; reload the page")
    return principal


def _at_least(minimum: Role) -> Callable[..., Principal]:
    def dependency(principal: Annotated[Principal, Depends(current_principal)]) -> Principal:
        if RANK[principal.role] < RANK[minimum]:
            if minimum == Role.owner:
                raise Forbidden("only a team owner can do this")
            raise Forbidden(
                f"your role in team '{principal.team_name}' is {principal.role}: it can only read"
            )
        return principal

    dependency.minimum_role = minimum  # type: ignore[attr-defined]
    return dependency


require_viewer = _at_least(Role.viewer)
require_member = _at_least(Role.member)
require_owner = _at_least(Role.owner)


def current_host(
    db: DB, credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_host_bearer)]
) -> Host:
    """The host whose worker credential authenticates the request; the request is its sign of life."""
    if credentials is None:
        raise Unauthorized("host credential required: send 'Authorization: Bearer <host token>'")
    host = host_of_worker_request(db, credentials.credentials)
    bind(host=host.name, host_id=host.id)
    return host


def host_credential_check(app: FastAPI) -> Callable[[str], None]:
    """current_host's check for the HTTP edge, before a body is read: raises its Unauthorized.

    The session comes from the same provider the routes get theirs from (a test's override too).
    """

    def check(token: str) -> None:
        if not token:
            raise Unauthorized("host credential required: send 'Authorization: Bearer <host token>'")
        sessions = app.dependency_overrides.get(get_db, get_db)()
        try:
            host_for_credential(next(sessions), token)
        finally:
            sessions.close()

    return check


CurrentPrincipal = Annotated[Principal, Depends(current_principal)]
ReadAccess = Annotated[Principal, Depends(require_viewer)]
WriteAccess = Annotated[Principal, Depends(require_member)]
OwnerAccess = Annotated[Principal, Depends(require_owner)]
CurrentHost = Annotated[Host, Depends(current_host)]
