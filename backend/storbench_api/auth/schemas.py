"""Auth request and response bodies."""

from datetime import datetime

from pydantic import BaseModel

from storbench_api.models import Role


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
