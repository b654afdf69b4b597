"""Auth request and response bodies."""

from datetime import datetime

from pydantic import BaseModel, Field

from storbench_api.ids import IdField
from storbench_api.models import Role
from storbench_api.wire import NO_NUL, KnownFieldsOnly, RequestBody


class PasswordGrant(KnownFieldsOnly):
    """OAuth2's password flow (application/x-www-form-urlencoded): the username is the email."""

    grant_type: str | None = Field(default=None, pattern=r"^password$")
    username: str = Field(min_length=1, max_length=254, pattern=NO_NUL)
    password: str = Field(min_length=1, max_length=1024)
    scope: str = ""
    # OAuth2 lets a client identify itself in the form (RFC 6749 2.3.1); this API has no client
    # registrations, so they are taken and not read.
    client_id: str | None = Field(default=None, max_length=200)
    client_secret: str | None = Field(default=None, max_length=200)


class TokenOut(BaseModel):
    """A bearer token for the API."""

    access_token: str
    token_type: str = "bearer"
    expires_at: datetime


class TeamRef(BaseModel):
    """A team by id and name."""

    id: int
    name: str


class MeOut(BaseModel):
    """The signed-in user and the team they act in."""

    id: int
    email: str
    team: TeamRef
    role: Role


class LoginIn(RequestBody):
    """Email and password for a browser session."""

    email: str = Field(min_length=3, max_length=254, pattern=NO_NUL)
    password: str = Field(min_length=1, max_length=1024)


class SessionOut(MeOut):
    """The signed-in user, with the CSRF token to echo in X-CSRF-Token on changes."""

    csrf_token: str


class SessionStatusOut(BaseModel):
    """Whether this browser is signed in, and if so its session (a page load asks this first)."""

    signed_in: bool
    session: SessionOut | None = Field(description="the session, when signed_in")


class PasswordChange(RequestBody):
    """A new password, proven by the current one."""

    current_password: str = Field(min_length=1, max_length=1024)
    new_password: str = Field(min_length=10, max_length=1024)


class TeamSwitch(RequestBody):
    """The team a session should act in."""

    team_id: IdField
