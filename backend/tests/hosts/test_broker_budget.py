"""One host cannot fill the shared Redis: past its budget it is cut off, and other teams' runs go on.

Against a real redis-server configured as `make up REMOTE=1` configures it (maxmemory, noeviction,
proto-max-bulk-len 1mb), written to with a host's real ACL credentials.
"""

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from storbench_api import broker
from storbench_api.hosts import broker_access, broker_budget
from storbench_api.models import Host
from storbench_api.settings import get_settings
from tests.conftest import Caller, make_caller, make_host, make_target
from tests.support.redis_server import PrivateRedis

MAXMEMORY = 48 * 1024**2
VALUE = b"x" * (1024**2 - 64)  # just under proto-max-bulk-len
JOB = {"name": "randread-4k", "rw": "randread", "bs": "4k", "size": "16m", "runtime": 1, "time_based": True}


@pytest.fixture
def bounded_redis(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[redis.Redis]:
    """A Redis of this test's own, bounded as the service's is, made the API's broker."""
    server = PrivateRedis(
        tmp_path,
        options=(
            "--maxmemory",
            str(MAXMEMORY),
            "--maxmemory-policy",
            "noeviction",
            "--proto-max-bulk-len",
            "1mb",
        ),
    )
    server.start()
    monkeypatch.setattr(get_settings(), "broker_url", server.url)
    broker_access.admin.cache_clear()
    broker.get_celery.cache_clear()
    try:
        yield redis.Redis.from_url(server.url)
    finally:
        broker_access.admin.cache_clear()
        broker.get_celery.cache_clear()
        server.stop()


def _broker_url(client: TestClient, token: str) -> str:
    """The host's broker URL, with its own ACL user (asking for it creates that user)."""
    identity = client.get("/api/v1/worker/me", headers={"Authorization": f"Bearer {token}"})
    assert identity.status_code == 200, identity.text
    url: str = identity.json()["broker_url"]
    return url


def _fill(url: str, queue: str, most: int, sizes: tuple[int, ...] = (len(VALUE),)) -> int:
    """As the host: push values of each size in turn into its own queue until Redis refuses them
    (at most `most` of each); the bytes written."""
    written = 0
    with redis.Redis.from_url(url) as as_host:
        for size in sizes:
            for _ in range(most):
                try:
                    as_host.lpush(queue, VALUE[:size])
                except redis.exceptions.OutOfMemoryError:
                    break
                written += size
    return written


@pytest.fixture
def two_teams(client: TestClient, db: Session, owner: Caller, bounded_redis: redis.Redis) -> dict[str, Any]:
    """Host A in the owner's team, host B with a target in another team; both with broker users."""
    a, token_a = make_host(db, team=owner.team, name="greedy")
    other = make_caller(db)
    b, token_b = make_host(db, team=other.team, name="neighbour")
    return {
        "owner": owner,
        "a": a,
        "token_a": token_a,
        "url_a": _broker_url(client, token_a),
        "b": b,
        "other": other,
        "target_b": make_target(db, host=b),
        "url_b": _broker_url(client, token_b),
    }


def test_a_host_that_fills_redis_is_cut_off_and_another_teams_run_is_enqueued(
    app: Any, client: TestClient, bounded_redis: redis.Redis, two_teams: dict[str, Any]
) -> None:
    a: Host = two_teams["a"]
    b: Host = two_teams["b"]
    # Megabytes first, then smaller values to the last bytes: nothing is left for anyone.
    sizes = (len(VALUE), 64 * 1024, 1024, 16)
    written = _fill(two_teams["url_a"], broker.host_queue(a.id), most=2 * MAXMEMORY // 16, sizes=sizes)
    mib = 1024**2
    print(f"\none host wrote {written / mib:.1f} MiB into a {MAXMEMORY / mib:.0f} MiB Redis as its ACL user")
    # Redis gives back connection buffers in its own time once the host hangs up, which can open a
    # few bytes of room again; a limit below what the host's keys hold keeps it full regardless.
    assert written > MAXMEMORY * 3 // 4, "the host's keys fill the server"
    bounded_redis.config_set("maxmemory", str(written // 2))
    with pytest.raises(redis.exceptions.OutOfMemoryError):
        bounded_redis.lpush("anything", b"x")  # full: nobody else can write now

    started = TestClient(app).post(
        "/api/v1/runs",
        json={"target_id": two_teams["target_b"].id, "jobs": [JOB]},
        headers=two_teams["other"].headers,
    )
    assert started.status_code == 201, started.text
    assert bounded_redis.llen(broker.host_queue(b.id)) == 1, "the neighbour's run is on its queue"

    # The greedy host is revoked, says why, and its broker login is gone.
    (greedy,) = client.get("/api/v1/hosts", headers=two_teams["owner"].headers).json()["items"]
    assert greedy["status"] == "revoked"
    assert "more than its budget of 8.0 MiB" in greedy["revoked_reason"]
    refused = client.get("/api/v1/worker/me", headers={"Authorization": f"Bearer {two_teams['token_a']}"})
    assert refused.status_code == 401
    with (
        pytest.raises(redis.exceptions.AuthenticationError),
        redis.Redis.from_url(two_teams["url_a"]) as as_a,
    ):
        as_a.ping()


def test_the_sweep_cuts_off_a_host_past_its_budget_before_redis_is_full(
    client: TestClient, db: Session, bounded_redis: redis.Redis, two_teams: dict[str, Any]
) -> None:
    a: Host = two_teams["a"]
    b: Host = two_teams["b"]
    assert _fill(two_teams["url_a"], broker.host_queue(a.id), most=9) == 9 * len(VALUE)
    assert _fill(two_teams["url_b"], broker.host_queue(b.id), most=1) == len(VALUE)
    assert broker_budget.cut_off_hosts_over_budget(db) == [a.id]
    # Its keys are gone, so the memory is everyone's again; the host under budget is untouched.
    assert bounded_redis.exists(broker.host_queue(a.id)) == 0
    assert bounded_redis.llen(broker.host_queue(b.id)) == 1
    with redis.Redis.from_url(two_teams["url_b"]) as as_b:
        assert as_b.ping()
    actions = client.get("/api/v1/audit", headers=two_teams["owner"].headers).json()["items"]
    assert actions[0]["action"] == "host.cut_off" and "budget" in actions[0]["details"]["reason"]
