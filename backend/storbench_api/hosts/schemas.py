"""Host request and response bodies."""

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, ValidationError

from storbench_api.ids import IdField
from storbench_api.wire import JSON_INTEGER, NO_NUL, RequestBody, SparseModel
from storbench_protocol.facts import HostFacts

HostStatus = Literal["online", "busy", "offline", "revoked"]
HOST_NAME_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._-]{0,119}$"


class HostCreate(RequestBody):
    """Register a host by name; its worker then authenticates with the returned token."""

    name: str = Field(pattern=HOST_NAME_PATTERN, examples=["nas-client-01"])


class HostUpdate(RequestBody):
    """A new name (unique in the team), and labels to start runs on groups of hosts (e.g. every NFS
    client of one rack). What is left out stays as it is."""

    name: str | None = Field(default=None, pattern=HOST_NAME_PATTERN, examples=["nas-client-02"])
    labels: list[Annotated[str, Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$")]] | None = Field(
        default=None, max_length=50
    )


class HostFactsOut(SparseModel, HostFacts):
    """The facts the host's worker last reported: only those it could read (see HostFacts)."""

    @classmethod
    def from_stored(cls, facts: dict[str, Any]) -> "HostFactsOut":
        """The stored facts; one a newer rule would refuse (an older worker sent it) is left out."""
        known = {key: value for key, value in facts.items() if key in cls.model_fields}
        try:
            return cls.model_validate(known)
        except ValidationError as exc:
            wrong = {str(error["loc"][0]) for error in exc.errors() if error["loc"]}
            return cls.model_validate({key: value for key, value in known.items() if key not in wrong})


class HostOut(BaseModel):
    """A host and whether its worker is reachable."""

    id: int
    name: str
    labels: list[str]
    status: HostStatus
    last_seen_at: datetime | None
    fio_version: str | None
    facts: HostFactsOut
    created_at: datetime
    revoked_at: datetime | None = None
    # Why, when the service revoked it (it kept more than its budget in the message broker).
    revoked_reason: str | None = None


class WorkerSetup(BaseModel):
    """How a new host joins this server: whether one on another machine can, and the commands."""

    mode: Literal["embedded", "production"] = Field(description="embedded: SQLite; production otherwise")
    accepts_remote_hosts: bool = Field(description="whether a worker on another machine can join")
    problems: list[str] = Field(description="why one cannot, each with what to do")
    remote_switch: str = Field(description="the switch that makes `make up` accept remote hosts")
    server_url: str = Field(description="the address workers reach this server by")
    broker: str = Field(description="the broker workers are given (without credentials)")
    install_command: str = Field(description="installs fio and the worker on a Debian or Ubuntu host")
    token_file: str = Field(description="where the start command reads the token from")
    start_command: str = Field(description="starts the worker; replace directory_placeholder first")
    directory_placeholder: str


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


class EnrollmentTokenCreate(RequestBody):
    """How long, and for how many hosts, the token works."""

    name: str | None = Field(default=None, max_length=120, pattern=NO_NUL, examples=["nas clients, rack 4"])
    expires_in_hours: Annotated[int, Field(ge=1, le=24 * 90, strict=False), JSON_INTEGER] = 24
    uses: Annotated[int, Field(ge=1, le=10_000, strict=False), JSON_INTEGER] = Field(
        default=1, description="how many hosts may enroll with it"
    )
    replaces_host_id: IdField | None = Field(
        default=None, description="re-enroll this existing host (new credential, same name and history), once"
    )


class EnrollmentTokenOut(BaseModel):
    """An enrollment token as listed (never its secret)."""

    id: int
    name: str | None
    created_at: datetime
    expires_at: datetime
    uses_left: int | None
    last_used_at: datetime | None
    revoked_at: datetime | None
    replaces_host_id: int | None = None


class EnrollmentTokenCreated(EnrollmentTokenOut):
    """A new token with its secret and the command to enroll a host, shown only now."""

    token: str
    command: str


class EnrollmentTokenList(BaseModel):
    """The team's enrollment tokens."""

    items: list[EnrollmentTokenOut]
    total: int
