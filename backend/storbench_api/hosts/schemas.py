"""Host request and response bodies."""

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

HostStatus = Literal["online", "busy", "offline", "revoked"]
HOST_NAME_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._-]{0,119}$"


class HostCreate(BaseModel):
    """Register a host by name; its worker then authenticates with the returned token."""

    name: str = Field(pattern=HOST_NAME_PATTERN, examples=["nas-client-01"])


class HostUpdate(BaseModel):
    """Labels to start runs on groups of hosts (e.g. every NFS client of one rack)."""

    labels: list[Annotated[str, Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$")]] = Field(max_length=50)


class HostOut(BaseModel):
    """A host and whether its worker is reachable."""

    id: int
    name: str
    labels: list[str]
    status: HostStatus
    last_seen_at: datetime | None
    fio_version: str | None
    facts: dict[str, Any]
    created_at: datetime
    revoked_at: datetime | None = None


class HostCreated(HostOut):
    """A newly registered host with its worker token, shown only this once."""

    worker_token: str


class HostCredential(BaseModel):
    """A host's new worker token, shown only this once."""

    host_id: int
    worker_token: str


class HostList(BaseModel):
    """A page of hosts."""

    items: list[HostOut]
    total: int
