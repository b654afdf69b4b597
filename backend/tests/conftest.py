"""Backend test harness: a real PostgreSQL migrated from empty, real Redis, one rollback per test."""

import os
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from argon2 import PasswordHasher

from tests.support.postgres import fresh_database

# Its own database per test session (STORBENCH_TEST_DB to choose it), so two sessions never collide.
TEST_DB_URL = fresh_database(os.environ.get("STORBENCH_TEST_DB", "storbench_test"))
os.environ["STORBENCH_DATABASE_URL"] = TEST_DB_URL
os.environ["STORBENCH_BROKER_URL"] = os.environ.get(
    "STORBENCH_TEST_REDIS_URL", os.environ.get("STORBENCH_TEST_REDIS", "redis://127.0.0.1:6379") + "/15"
)
os.environ["STORBENCH_SECRET_KEY"] = "test-secret"
os.environ["STORBENCH_ADMIN_PASSWORD"] = "test-admin-password"

from fastapi import FastAPI  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402
from sqlalchemy import Connection, create_engine  # noqa: E402
from sqlalchemy.orm import Session  # noqa: E402

from storbench_api import security  # noqa: E402
from storbench_api.cli import migrate  # noqa: E402
from storbench_api.db import get_db, utcnow  # noqa: E402
from storbench_api.kit import attempts  # noqa: E402
from storbench_api.main import create_app  # noqa: E402
from storbench_api.models import AuthToken, Host, Membership, Role, Target, TargetKind, Team, User  # noqa: E402
from storbench_api.security import hash_password, new_token, token_digest  # noqa: E402

# Argon2id at production cost spends about 0.25 s of CPU on each hash and each verify (4 lanes, 64 MiB):
# every make_caller and every sign-in paid it, about half of the auth and teams tests' CPU time.
# Tests keep the algorithm, the slot that serialises hashing and the dummy hash for unknown emails,
# at the lowest cost argon2 accepts. The API processes the integration, CLI and e2e suites start keep
# the production cost.
security._hasher = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)
security._DUMMY_HASH = security._hasher.hash("storbench-timing-equaliser")


@pytest.fixture(scope="session")
def engine() -> Iterator[Any]:
    """The test database, migrated from empty through Alembic."""
    migrate()
    engine = create_engine(TEST_DB_URL)
    yield engine
    engine.dispose()


@pytest.fixture(scope="session", autouse=True)
def clean_broker() -> None:
    """Start from an empty Redis database, so queue assertions see only this run's messages."""
    import redis

    redis.Redis.from_url(os.environ["STORBENCH_BROKER_URL"]).flushdb()


@pytest.fixture(autouse=True)
def _short_event_streams(monkeypatch: pytest.MonkeyPatch) -> None:
    """In-process tests read whole responses: let run event streams end after a second."""
    from storbench_api.runs import events

    monkeypatch.setattr(events, "MAX_STREAM_S", 1.0)


@pytest.fixture
def connection(engine: Any) -> Iterator[Connection]:
    """A connection whose outer transaction is rolled back after the test."""
    conn = engine.connect()
    outer = conn.begin()
    yield conn
    outer.rollback()
    conn.close()


@pytest.fixture
def db(connection: Connection) -> Iterator[Session]:
    """A session whose commits become savepoints inside the test's transaction."""
    session = Session(bind=connection, join_transaction_mode="create_savepoint", expire_on_commit=False)
    yield session
    session.close()


@pytest.fixture(scope="session")
def app() -> FastAPI:
    """One application for the session; each test points it at its own session."""
    return create_app(run_sweeper=False)


@pytest.fixture
def client(app: FastAPI, db: Session) -> Iterator[TestClient]:
    """The real application, talking to the test's session."""

    def _db() -> Iterator[Session]:
        # As get_db: commit at the boundary, roll back what a failed request did.
        try:
            yield db
            db.commit()
        except Exception:
            db.rollback()
            raise

    app.dependency_overrides[get_db] = _db
    attempts.reset_all()
    with TestClient(app, raise_server_exceptions=False) as test_client:
        yield test_client
    app.dependency_overrides.clear()


# ---- factories -----------------------------------------------------------------------


@dataclass
class Caller:
    """A signed-in user and the headers that authenticate them."""

    user: User
    team: Team
    role: Role
    token: str

    @property
    def headers(self) -> dict[str, str]:
        """Authorization header for requests."""
        return {"Authorization": f"Bearer {self.token}"}


def make_team(db: Session, *, name: str | None = None) -> Team:
    """A team with a unique name."""
    team = Team(name=name or f"team-{new_token('t')[-8:]}")
    db.add(team)
    db.commit()
    return team


def make_caller(
    db: Session, *, team: Team | None = None, role: Role = Role.owner, password: str = "pw-123456"
) -> Caller:
    """A user with a role in a team and a valid session token."""
    team = team or make_team(db)
    user = User(
        email=f"user-{new_token('u')[-10:].lower()}@example.com", password_hash=hash_password(password)
    )
    db.add(user)
    db.commit()
    db.add(Membership(user_id=user.id, team_id=team.id, role=role))
    token = new_token("sbu")
    db.add(AuthToken(token_hash=token_digest(token), user_id=user.id, team_id=team.id, kind="session"))
    db.commit()
    return Caller(user=user, team=team, role=role, token=token)


# What a worker started with --allow /srv /mnt /dev/vdb /dev/vda (vda mounted) on an 8 GiB host reports.
ONLINE_FACTS = {
    "allowed_roots": ["/srv", "/mnt", "/dev/vdb", "/dev/vda"],
    "memory_bytes": 8 << 30,
    "block_devices": [
        {"name": "vdb", "path": "/dev/vdb", "parent": None, "in_use": None},
        {"name": "vda", "path": "/dev/vda", "parent": None, "in_use": "/dev/vda1 is mounted"},
    ],
}


def make_host(db: Session, *, team: Team, name: str = "host-a", online: bool = True) -> tuple[Host, str]:
    """A host with a worker token; online means a fresh heartbeat with the facts a worker reports."""
    token = new_token("sbh")
    host = Host(
        team_id=team.id,
        name=name,
        credential_hash=token_digest(token),
        facts=ONLINE_FACTS if online else {},
        last_seen_at=utcnow() if online else None,
    )
    db.add(host)
    db.commit()
    return host, token


def make_target(db: Session, *, host: Host, name: str = "scratch", path: str = "/srv/scratch") -> Target:
    """A directory target on host."""
    target = Target(team_id=host.team_id, host_id=host.id, name=name, path=path, kind=TargetKind.directory)
    db.add(target)
    db.commit()
    return target


@pytest.fixture
def owner(db: Session) -> Caller:
    """An owner of a fresh team."""
    return make_caller(db)
