"""Revoke, remove and rotate win against heartbeats in flight: the old credential is dead at Redis
(AUTH fails) and at the API (401) once the owner's request returns, every round.

Committed for real (each request its own transaction, as in production) against PostgreSQL and
the test Redis with ACLs, with several workers' heartbeats racing each change.
"""

import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
import redis
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import delete

from storbench_api.db import get_sessionmaker, utcnow
from storbench_api.hosts import broker_access
from storbench_api.models import AuthToken, Host, Membership, Role, Team, User
from storbench_api.security import new_token, token_digest

ROUNDS = 20
HEARTBEAT_THREADS = 4
DEADLINE_S = 60


@dataclass
class RaceTeam:
    """A team committed for real, with its owner's session token."""

    id: int
    user_id: int
    owner_headers: dict[str, str]
    host_ids: list[int] = field(default_factory=list)


@pytest.fixture
def committed_team(engine: Any) -> Iterator[RaceTeam]:
    """A team and its owner, committed (the racing requests each run in their own transaction)."""
    sessions = get_sessionmaker()
    token = new_token("sbu")
    with sessions() as db:
        team = Team(name=f"race-{new_token('t')[-8:]}")
        user = User(email=f"race-{new_token('u')[-8:].lower()}@example.com", password_hash="x")
        db.add_all([team, user])
        db.flush()
        db.add(Membership(user_id=user.id, team_id=team.id, role=Role.owner))
        db.add(AuthToken(token_hash=token_digest(token), user_id=user.id, team_id=team.id, kind="session"))
        db.commit()
        committed = RaceTeam(team.id, user.id, {"Authorization": f"Bearer {token}"})
    yield committed
    for host_id in committed.host_ids:
        broker_access.remove_broker_user(host_id)
    with sessions() as db:
        db.execute(delete(Team).where(Team.id == committed.id))
        db.execute(delete(User).where(User.id == committed.user_id))
        db.commit()


@pytest.fixture
def live_client(app: FastAPI) -> Iterator[TestClient]:
    """The application with its own sessions: each request commits its own transaction."""
    with TestClient(app, raise_server_exceptions=False) as client:
        yield client


def _new_host(team: RaceTeam, name: str) -> tuple[int, str]:
    token = new_token("sbh")
    with get_sessionmaker()() as db:
        host = Host(
            team_id=team.id, name=name, credential_hash=token_digest(token), facts={}, last_seen_at=utcnow()
        )
        db.add(host)
        db.commit()
        team.host_ids.append(host.id)
        return host.id, token


class Heartbeats:
    """Workers sending heartbeats with one token as fast as they can, until stopped."""

    def __init__(self, client: TestClient, token: str) -> None:
        self.client = client
        self.headers = {"Authorization": f"Bearer {token}"}
        self.stopping = threading.Event()
        self.condition = threading.Condition()
        self.answers: list[int] = []
        self.threads = [threading.Thread(target=self._send) for _ in range(HEARTBEAT_THREADS)]

    def _send(self) -> None:
        while not self.stopping.is_set():
            status = self.client.post("/api/v1/worker/heartbeat", json={}, headers=self.headers).status_code
            with self.condition:
                self.answers.append(status)
                self.condition.notify_all()

    def wait_for(self, predicate: Callable[[list[int]], bool], what: str) -> None:
        with self.condition:
            assert self.condition.wait_for(lambda: predicate(self.answers), timeout=DEADLINE_S), what

    def __enter__(self) -> "Heartbeats":
        for thread in self.threads:
            thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stopping.set()
        for thread in self.threads:
            thread.join(timeout=DEADLINE_S)


def _broker_login_works(url: str) -> bool:
    try:
        with redis.Redis.from_url(url, socket_timeout=5) as connection:
            connection.ping()
    except redis.exceptions.AuthenticationError:
        return False
    return True


def _race(client: TestClient, team: RaceTeam, operation: str, round_: int) -> None:
    """One round: heartbeats racing the operation; then the old credential must be dead."""
    host_id, token = _new_host(team, f"{operation}-{round_}")
    old = {"Authorization": f"Bearer {token}"}
    identity = client.get("/api/v1/worker/me", headers=old)
    assert identity.status_code == 200, identity.text
    old_url = identity.json()["broker_url"]
    assert _broker_login_works(old_url)

    with Heartbeats(client, token) as heartbeats:
        heartbeats.wait_for(lambda answers: 200 in answers, "a heartbeat got through before the change")
        done = client.post(f"/api/v1/hosts/{host_id}/{operation}", headers=team.owner_headers)
        assert done.status_code in (200, 204), done.text
        dead_at_once = not _broker_login_works(old_url)
        seen = len(heartbeats.answers)
        # Every thread sends at least one more heartbeat after the change returned.
        heartbeats.wait_for(
            lambda answers: len(answers) >= seen + 2 * HEARTBEAT_THREADS, "heartbeats went on after it"
        )
    assert dead_at_once, f"{operation} round {round_}: the old broker password still logged in at once"
    assert not _broker_login_works(old_url), (
        f"{operation} round {round_}: a heartbeat in flight put the old broker login back"
    )
    assert client.get("/api/v1/worker/me", headers=old).status_code == 401
    if operation == "rotate-credential":
        new = {"Authorization": f"Bearer {done.json()['worker_token']}"}
        assert _broker_login_works(client.get("/api/v1/worker/me", headers=new).json()["broker_url"])


@pytest.mark.parametrize("operation", ["revoke", "remove", "rotate-credential"])
def test_the_old_credential_is_dead_at_redis_and_the_api_despite_heartbeats_in_flight(
    live_client: TestClient, committed_team: RaceTeam, operation: str
) -> None:
    for round_ in range(ROUNDS):
        _race(live_client, committed_team, operation, round_)
