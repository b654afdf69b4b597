"""Team, member and invitation bodies."""

from datetime import datetime
from typing import Annotated

from pydantic import BaseModel, Field

from storbench_api.ids import IdField
from storbench_api.models import Role
from storbench_api.wire import JSON_INTEGER, NAME, NO_NUL, RequestBody


class TeamOut(BaseModel):
    """A team the caller belongs to, with their role in it."""

    id: int
    name: str
    role: Role
    current: bool


class TeamList(BaseModel):
    """The caller's teams."""

    items: list[TeamOut]
    total: int


class TeamCreate(RequestBody):
    """A new team; its creator becomes its owner."""

    name: str = Field(min_length=1, max_length=120, pattern=NAME)


class MemberOut(BaseModel):
    """A member of the current team."""

    user_id: IdField
    email: str
    role: Role
    joined_at: datetime


class MemberList(BaseModel):
    """Members of the current team."""

    items: list[MemberOut]
    total: int


class MemberUpdate(RequestBody):
    """A member's new role."""

    role: Role = Field(strict=False)


class InvitationCreate(RequestBody):
    """An invitation link with a role and an expiry."""

    role: Role = Field(default=Role.member, strict=False)
    email: str | None = Field(default=None, max_length=254, pattern=NO_NUL)
    expires_in_hours: Annotated[int, Field(ge=1, le=24 * 30, strict=False), JSON_INTEGER] = 72


class InvitationOut(BaseModel):
    """An invitation as listed (the link is shown only at creation)."""

    id: int
    role: Role
    email: str | None
    expires_at: datetime
    accepted_at: datetime | None
    revoked_at: datetime | None


class InvitationCreated(InvitationOut):
    """A new invitation with its secret token and the path of its link."""

    token: str
    link: str


class InvitationList(BaseModel):
    """The current team's invitations."""

    items: list[InvitationOut]
    total: int


class InvitationAccept(RequestBody):
    """Accept an invitation: sign in with an existing account or create one."""

    token: str = Field(min_length=10, max_length=200)
    email: str = Field(min_length=3, max_length=254, pattern=r"^[^@\s\x00]+@[^@\s\x00]+$")
    password: str = Field(min_length=10, max_length=1024)
