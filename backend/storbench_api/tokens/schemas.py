"""API token request and response bodies."""

from datetime import datetime
from typing import Annotated

from pydantic import BaseModel, Field

from storbench_api.models import Role
from storbench_api.wire import JSON_INTEGER, NAME, RequestBody


class TokenCreate(RequestBody):
    """A named token acting with a role in the caller's team."""

    name: str = Field(min_length=1, max_length=120, pattern=NAME, examples=["nightly regression pipeline"])
    role: Role = Field(default=Role.member, strict=False)
    expires_in_days: Annotated[int, Field(ge=1, le=3650, strict=False), JSON_INTEGER] | None = 90


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
