"""Signing in (bearer token or browser session), signing out, password and team switching."""

from typing import Annotated

from fastapi import APIRouter, Form, Request, Response

from storbench_api.auth import service
from storbench_api.auth.schemas import (
    LoginIn,
    MeOut,
    PasswordChange,
    PasswordGrant,
    SessionOut,
    SessionStatusOut,
    TeamRef,
    TeamSwitch,
    TokenOut,
)
from storbench_api.auth.service import Principal
from storbench_api.deps import CSRF_COOKIE, DB, SESSION_COOKIE, ReadAccess
from storbench_api.errors import NotFound, Unauthorized
from storbench_api.kit.attempts import TooManyAttempts, password_attempt
from storbench_api.openapi import errors, rules_beyond_schema
from storbench_api.settings import get_settings

router = APIRouter(prefix="/auth", tags=["auth"])


def _me(principal: Principal) -> MeOut:
    return MeOut(
        id=principal.user_id,
        email=principal.email,
        team=TeamRef(id=principal.team_id, name=principal.team_name),
        role=principal.role,
    )


@router.post("/token", response_model=TokenOut, summary="Sign in with email and password (bearer token)")
def issue_token(request: Request, form: Annotated[PasswordGrant, Form()], db: DB) -> TokenOut:
    """OAuth2 password flow: the form's username is the email."""
    with password_attempt(request, form.username, wrong=(service.WrongPassword,)):
        token, expires_at = service.sign_in(db, form.username, form.password, get_settings().token_ttl)
    db.commit()
    return TokenOut(access_token=token, expires_at=expires_at)


@router.post("/login", response_model=SessionOut, summary="Sign in for the web UI (session cookie)")
def login(request: Request, body: LoginIn, response: Response, db: DB) -> SessionOut:
    """Sets an HttpOnly, SameSite session cookie; changes must echo csrf_token in X-CSRF-Token."""
    with password_attempt(request, body.email, wrong=(service.WrongPassword,)):
        token, _ = service.sign_in(db, body.email, body.password, get_settings().token_ttl)
    db.commit()
    secure = request.url.scheme == "https"
    max_age = int(get_settings().token_ttl.total_seconds())
    csrf = service.csrf_token_for(token)
    response.set_cookie(
        SESSION_COOKIE, token, max_age=max_age, httponly=True, samesite="strict", secure=secure, path="/"
    )
    response.set_cookie(
        CSRF_COOKIE, csrf, max_age=max_age, httponly=False, samesite="strict", secure=secure, path="/"
    )
    principal = service.principal_for_token(db, token)
    return SessionOut(**_me(principal).model_dump(), csrf_token=csrf)


@router.post("/logout", status_code=204, summary="Sign out")
def logout(principal: ReadAccess, response: Response, db: DB) -> Response:
    """Revoke the token or session used, and clear the session cookies."""
    service.sign_out(db, principal)
    db.commit()
    response.status_code = 204
    response.delete_cookie(SESSION_COOKIE, path="/")
    response.delete_cookie(CSRF_COOKIE, path="/")
    return response


@router.get("/me", response_model=MeOut, summary="The signed-in user")
def me(principal: ReadAccess) -> MeOut:
    """Who the token belongs to, and their team and role."""
    return _me(principal)


@router.get("/session", response_model=SessionOut, summary="The browser session and its CSRF token")
def session(principal: ReadAccess, request: Request) -> SessionOut:
    """For a page reload: who is signed in, and the CSRF token of the session cookie."""
    cookie = request.cookies.get(SESSION_COOKIE, "")
    return SessionOut(
        **_me(principal).model_dump(), csrf_token=service.csrf_token_for(cookie) if cookie else ""
    )


@router.get(
    "/status",
    response_model=SessionStatusOut,
    summary="Whether this browser is signed in (never 401)",
)
def session_status(request: Request, db: DB) -> SessionStatusOut:
    """For a page load: the session of the session cookie, or signed_in false (no error status)."""
    cookie = request.cookies.get(SESSION_COOKIE, "")
    if not cookie:
        return SessionStatusOut(signed_in=False, session=None)
    try:
        principal = service.principal_for_token(db, cookie)
    except Unauthorized:
        return SessionStatusOut(signed_in=False, session=None)
    found = SessionOut(**_me(principal).model_dump(), csrf_token=service.csrf_token_for(cookie))
    return SessionStatusOut(signed_in=True, session=found)


@router.post(
    "/password",
    status_code=204,
    summary="Change your password",
    responses=errors(TooManyAttempts),
    openapi_extra=rules_beyond_schema("current_password must be your current password"),
)
def change_password(request: Request, body: PasswordChange, principal: ReadAccess, db: DB) -> Response:
    """Other browser sessions of the user end; API tokens stay."""
    # Limited as sign-in is: a stolen session must not be an unlimited oracle for the password.
    with password_attempt(
        request, principal.email, wrong=(service.WrongCurrentPassword,), purpose="password-change"
    ):
        service.change_password(db, principal, body.current_password, body.new_password)
    db.commit()
    return Response(status_code=204)


@router.post(
    "/switch-team",
    response_model=MeOut,
    summary="Act in another of your teams",
    responses=errors(NotFound),
)
def switch_team(body: TeamSwitch, principal: ReadAccess, db: DB) -> MeOut:
    """The session acts in the chosen team from now on."""
    switched = service.switch_team(db, principal, body.team_id)
    db.commit()
    return _me(switched)
