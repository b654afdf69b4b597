"""Enrolling a host, and who a worker is."""

from datetime import datetime

from pydantic import Field

from storbench_protocol.common import Id, WireModel, WireRequest


class EnrollRequest(WireRequest):
    """A new host presenting an enrollment token (POST /worker/enroll)."""

    token: str = Field(min_length=10, max_length=200)
    name: str = Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9._-]{0,119}$")


class Enrolled(WireModel):
    """The host's own credential: keep it, the enrollment token is not needed again."""

    host_id: Id
    name: str
    worker_token: str


class WorkerIdentity(WireModel):
    """Who a worker is, its queue and the broker URL with its own broker user; nothing else.

    The worker fixes every other Celery setting itself (JSON only, no remote control).
    server_time lets it measure its clock offset. Answer of GET /worker/me and of every heartbeat.
    """

    host_id: Id
    name: str
    queue: str
    broker_url: str
    heartbeat_interval_s: float
    server_time: datetime = Field(strict=False)
    # The directories of the host's targets: the worker reports their state (TargetPathState) in
    # its next heartbeat's facts, for those inside its allowed roots. A worker that does not know
    # this field ignores it; its targets' directories then stay "not yet checked".
    target_paths: list[str] = Field(default_factory=list)


class ServerClock(WireModel):
    """The server's clock now (GET /worker/clock): answered at once, from no database or lock, so
    its round trip stays short on a loaded server and the worker's clock estimate stays tight."""

    server_time: datetime = Field(strict=False)
