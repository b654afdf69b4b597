"""One typed settings object for the API service, read from STORBENCH_* variables."""

from datetime import timedelta
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Literal

from pydantic import AfterValidator, BeforeValidator, Field, computed_field
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

REPO_ROOT = Path(__file__).resolve().parents[2]


def _plain_number_is_seconds(value: object) -> object:
    """Let STORBENCH_HEARTBEAT_INTERVAL=10 mean ten seconds."""
    if isinstance(value, str) and value.strip().replace(".", "", 1).isdigit():
        return float(value)
    return value


def _comma_separated(value: object) -> object:
    """Let STORBENCH_PREVIOUS_SECRET_KEYS=old2,old1 mean a list (blank entries dropped)."""
    if isinstance(value, str):
        return [part.strip() for part in value.split(",") if part.strip()]
    return value


def _long_enough_token(value: str) -> str:
    """Refuse a metrics token short enough to guess (empty: metrics off)."""
    if value and len(value) < 16:
        raise ValueError("STORBENCH_METRICS_TOKEN must be at least 16 characters (or empty: metrics off)")
    return value


# A duration given as seconds ("10", 2.5) or ISO 8601 ("PT10S").
Seconds = Annotated[timedelta, BeforeValidator(_plain_number_is_seconds)]
DEFAULT_ADMIN_PASSWORD = "storbench"
DEFAULT_SECRET = "embedded-development-secret"


class Settings(BaseSettings):
    """Service configuration; the defaults are the embedded mode `make up` runs."""

    model_config = SettingsConfigDict(env_prefix="STORBENCH_", extra="ignore")

    # Storage of state
    data_dir: Path = REPO_ROOT / "var"
    database_url: str = ""
    broker_url: str = ""
    # What workers are told to connect to; defaults to broker_url.
    worker_broker_url: str = ""
    # What one host's keys may take in a Redis broker (bytes, as MEMORY USAGE counts them); a host
    # past it is cut off (hosts.broker_budget). Its queued messages carry ids only: a few KiB.
    host_broker_budget_bytes: Annotated[int, Field(ge=64 * 1024)] = 8 * 1024**2
    secret_key: str = DEFAULT_SECRET
    # Former secret keys, comma-separated, newest first: what was sealed under them (webhook
    # signing secrets) still opens after STORBENCH_SECRET_KEY changes; sealing uses secret_key.
    previous_secret_keys: Annotated[list[str], NoDecode, BeforeValidator(_comma_separated)] = []

    # First admin, created when the database has no user yet
    admin_email: str = "admin@storbench.local"
    admin_password: str = DEFAULT_ADMIN_PASSWORD
    default_team_name: str = "Default team"
    # Who may create teams: only the admin above (the default: on a shared service, teams, and the
    # hosts they enroll, are the operator's to hand out), or every signed-in user.
    team_creation: Literal["admins", "everyone"] = "admins"

    # Sessions
    token_ttl: Seconds = timedelta(hours=12)

    # Workers and runs
    heartbeat_interval: Seconds = timedelta(seconds=10)
    missed_heartbeats_offline: Annotated[int, Field(ge=1, le=100)] = 3
    dispatch_timeout: Seconds = timedelta(seconds=120)
    run_deadline_grace: Seconds = timedelta(seconds=120)
    sweep_interval: Seconds = timedelta(seconds=5)
    # A queued assignment its idle, online host has not fetched this long after it was sent is sent
    # again (its message was lost: a broker restarted without persistence, an API crash).
    redispatch_after: Seconds = timedelta(seconds=10)
    # Synchronized runs: how far ahead of "everyone is ready" fio starts at least (runs/barrier.py
    # adds more on a slow server and for many hosts), and the clock offset beyond which a host
    # cannot take part.
    start_lead: Seconds = timedelta(seconds=1.5)
    max_clock_offset: Seconds = timedelta(milliseconds=250)
    max_hosts_per_run: Annotated[int, Field(ge=1, le=1000)] = 64

    # Limits applied to every fio job (the worker applies its own too). The defaults allow every
    # recipe vendors publish (128 jobs, the block guide's 1000 s); space is the target's free space.
    max_numjobs: Annotated[int, Field(ge=1)] = 128
    max_iodepth: Annotated[int, Field(ge=1)] = 1024
    max_runtime: Seconds = timedelta(hours=1)
    max_jobs_per_plan: Annotated[int, Field(ge=1, le=1000)] = 32
    max_nrfiles: Annotated[int, Field(ge=1)] = 10_000
    # A ceiling on what one run lays out, checked by the API before any host is asked (the worker
    # then checks the target's free space): far above every published recipe (160 GiB at most),
    # far below what a typo such as offset=50t asks for.
    max_total_size_bytes: Annotated[int | None, Field(ge=1)] = 16 * 1024**4
    # API requests served at once (the rest wait their turn), and workers' requests on slots of
    # their own: together with the two threads checking worker credentials, the database pool's
    # 30 connections, so a burst never deadlocks the pool against the thread pool.
    max_requests_in_flight: Annotated[int, Field(ge=1, le=1000)] = 24
    max_worker_requests_in_flight: Annotated[int, Field(ge=1, le=1000)] = 4
    request_queue_timeout: Seconds = timedelta(seconds=60)
    # A request's headers must arrive within this of connecting (or of the previous answer); its
    # body within request_body_timeout plus one second per request_body_min_rate bytes, else 408.
    request_header_timeout: Seconds = timedelta(seconds=10)
    request_body_timeout: Seconds = timedelta(seconds=10)
    request_body_min_rate: Annotated[int, Field(ge=1)] = 16 * 1024  # bytes per second
    # Open connections the server holds at once; past it, new requests are answered 503.
    max_connections: Annotated[int, Field(ge=16)] = 1000
    # The largest upload of fio's output a worker may send (as sent: workers gzip it), how far it
    # may inflate (in size and in ratio: a bomb is refused early), and the memory all uploads
    # being inflated at once may hold together (one upload inflates no further than that either).
    max_upload_bytes: Annotated[int, Field(ge=1024)] = 65 * 1024**2
    max_inflated_upload_bytes: Annotated[int, Field(ge=1024)] = 160 * 1024**2
    max_upload_ratio: Annotated[int, Field(ge=2)] = 100
    inflate_budget_bytes: Annotated[int, Field(ge=1024)] = 320 * 1024**2

    # Live run events (Server-Sent Events): a watched run is read when a notification says it
    # changed, and at least this often in case one was lost; streams one user may hold per process.
    live_recheck_interval: Seconds = timedelta(seconds=10)
    max_event_streams_per_user: Annotated[int, Field(ge=1, le=1000)] = 20

    # Webhooks. Deliveries to loopback, private, link-local or other non-public addresses are
    # refused (team members must not reach the server's own network through them) unless the
    # address is inside one of these networks (JSON list of CIDRs, e.g. ["10.1.2.0/24"]).
    webhook_allowed_networks: list[str] = []
    # One delivery attempt ends after this, from resolving the name to the last byte of the
    # answer read: a per-read timeout let a receiver trickling a byte a second hold it for days.
    webhook_timeout: Seconds = timedelta(seconds=10)
    # Deliveries in flight at once in each API process, and at most this many of one team's, so
    # one team's slow receiver holds a few slots while other teams' deliveries go out meanwhile.
    webhook_concurrency: Annotated[int, Field(ge=1, le=256)] = 16
    webhook_team_concurrency: Annotated[int, Field(ge=1, le=256)] = 4
    webhook_max_attempts: Annotated[int, Field(ge=1, le=20)] = 6
    # The wait after the first failed attempt; it doubles after each further one (1, 2, 4, 8, 16 min).
    webhook_retry_base: Seconds = timedelta(minutes=1)
    webhook_interval: Seconds = timedelta(seconds=5)
    # Schedules: how often the scheduler looks for due slots, and how many missed slots of one
    # outage are listed one by one (the rest are counted).
    schedule_interval: Seconds = timedelta(seconds=20)
    schedule_missed_listed: Annotated[int, Field(ge=1, le=1000)] = 10

    # Quotas per team: what one team may keep, so no team fills the database or the schedulers for
    # the others. Reaching one answers 409 naming the setting that raises it.
    quota_saved_views: Annotated[int, Field(ge=1)] = 500
    quota_schedules: Annotated[int, Field(ge=1)] = 100
    quota_storage_classes: Annotated[int, Field(ge=1)] = 200
    quota_webhooks: Annotated[int, Field(ge=1)] = 20
    # Deliveries waiting to go out; past it, a team's new events are recorded as failed deliveries
    # (with the reason) instead of queued: the backlog already queued keeps its order and retries.
    quota_pending_deliveries: Annotated[int, Field(ge=1)] = 10_000
    # The closest two slots of one schedule may come (an every-minute cron on every host is a
    # load, not a benchmark). Checked up to an hour apart, so at most an hour.
    schedule_min_interval: Annotated[Seconds, Field(ge=timedelta(0), le=timedelta(hours=1))] = timedelta(
        minutes=15
    )

    # Web
    # The address hosts reach this server by (e.g. http://192.0.2.10:8000), shown in the commands
    # that add a host; empty: the address of the socket a request came in on (never the request's
    # Host header, which whoever sends it chooses). `make up REMOTE=1` sets it.
    public_url: str = ""
    spa_dir: Path = REPO_ROOT / "frontend" / "dist"
    cors_origins: list[str] = []
    # Proxies whose X-Forwarded-For names the client (comma-separated addresses or networks).
    # Empty: none, the peer address is the client, as sign-in limits see it. Uvicorn's own default
    # trusted 127.0.0.1, so any local process could claim a fresh address per guess.
    forwarded_allow_ips: str = ""

    # Operations
    # Log lines: "console" (readable text) or "json" (one JSON object a line, carrying the request
    # id, and the run and host where they apply). Unset: console in the embedded mode (`make up`),
    # json in production mode (PostgreSQL).
    log_format: Literal["console", "json"] | None = None
    # Prometheus metrics at /metrics are off until a token is set; then a scrape must send
    # `Authorization: Bearer <token>` (at least 16 characters: it guards figures about every team).
    metrics_token: Annotated[str, AfterValidator(_long_enough_token)] = ""
    # /api/v1/ready waits at most this long for each of the database and the broker.
    ready_timeout: Annotated[Seconds, Field(gt=timedelta(0), le=timedelta(seconds=30))] = timedelta(seconds=2)
    # How often each API process applies the teams' retention settings (raw outputs, per-second series).
    retention_interval: Seconds = timedelta(hours=1)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def effective_database_url(self) -> str:
        """The database URL, defaulting to a SQLite file in data_dir."""
        return self.database_url or f"sqlite:///{self.data_dir / 'storbench.db'}"

    @computed_field  # type: ignore[prop-decorator]
    @property
    def effective_broker_url(self) -> str:
        """The broker URL, defaulting to kombu's filesystem transport in data_dir."""
        return self.broker_url or "filesystem://"

    @property
    def broker_folder(self) -> Path:
        """Folder the embedded filesystem broker exchanges messages in."""
        return self.data_dir / "broker"

    @property
    def mode(self) -> Literal["embedded", "production"]:
        """Embedded when the database is SQLite; production otherwise."""
        return "embedded" if self.effective_database_url.startswith("sqlite") else "production"

    @property
    def effective_log_format(self) -> Literal["console", "json"]:
        """log_format, defaulting to console in embedded mode and json in production."""
        return self.log_format or ("console" if self.mode == "embedded" else "json")

    @property
    def host_offline_after(self) -> timedelta:
        """A host is offline once this long has passed without a heartbeat."""
        return self.heartbeat_interval * self.missed_heartbeats_offline


@lru_cache
def get_settings() -> Settings:
    """The process-wide settings, read once."""
    return Settings()
