"""A host's broker user reaches only its own queue: tried against the real Redis 7 with ACLs."""

import os
from collections.abc import Iterator
from typing import Any

import pytest
import redis
from celery import Celery
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from storbench_api.broker import host_queue
from storbench_api.hosts import broker_access
from storbench_api.models import Host
from tests.conftest import Caller, make_host

ADMIN_URL = os.environ.get(
    "STORBENCH_TEST_REDIS_URL", os.environ.get("STORBENCH_TEST_REDIS", "redis://127.0.0.1:6379") + "/15"
)


def _as_host(client: TestClient, token: str) -> dict[str, Any]:
    response = client.get("/api/v1/worker/me", headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 200, response.text
    identity: dict[str, Any] = response.json()
    return identity


@pytest.fixture
def two_hosts(client: TestClient, db: Session, owner: Caller) -> Iterator[dict[str, Any]]:
    """Hosts A and B, each having asked for its identity (which creates its broker user)."""
    a, token_a = make_host(db, team=owner.team, name="host-a")
    b, token_b = make_host(db, team=owner.team, name="host-b")
    identity_a, identity_b = _as_host(client, token_a), _as_host(client, token_b)
    admin = redis.Redis.from_url(ADMIN_URL)
    admin.delete(host_queue(b.id))
    admin.lpush(host_queue(b.id), b'{"secret": "B\'s work"}')
    yield {
        "a": a,
        "b": b,
        "url_a": identity_a["broker_url"],
        "url_b": identity_b["broker_url"],
        "admin": admin,
    }
    admin.delete(host_queue(a.id), host_queue(b.id))
    for host in (a, b):
        broker_access.remove_broker_user(host.id)


def test_each_host_gets_its_own_broker_user_in_its_url(two_hosts: dict[str, Any]) -> None:
    a: Host = two_hosts["a"]
    assert two_hosts["url_a"].startswith(f"redis://{broker_access.broker_username(a.id)}:")
    assert two_hosts["url_a"] != two_hosts["url_b"]
    with redis.Redis.from_url(two_hosts["url_a"]) as as_a:
        assert as_a.ping()
    assert two_hosts["admin"].acl_getuser(broker_access.broker_username(a.id)) is not None


@pytest.mark.parametrize(
    ("what", "command"),
    [
        ("read B's queue", lambda r, q: r.lrange(q, 0, -1)),
        ("push to B's queue", lambda r, q: r.lpush(q, "x")),
        ("delete B's queue", lambda r, q: r.delete(q)),
        ("pop B's work", lambda r, q: r.rpop(q)),
        ("list the keys", lambda r, q: r.keys("*")),
        ("scan the keys", lambda r, q: r.scan(0)),
        ("flush the database", lambda r, q: r.flushdb()),
        ("flush everything", lambda r, q: r.flushall()),
        ("read the configuration", lambda r, q: r.config_get("*")),
        ("manage users", lambda r, q: r.acl_list()),
        ("publish to Celery's remote control", lambda r, q: r.publish("/15.celery.pidbox", "shutdown")),
        ("list the keys from a script", lambda r, q: r.eval("return redis.call('keys', '*')", 0)),
        (
            "read B's queue from a script",
            lambda r, q: r.eval("return redis.call('lrange', KEYS[1], 0, -1)", 1, q),
        ),
        ("read B's unacknowledged messages", lambda r, q: r.hgetall(f"unacked.{q}")),
        ("read the shared unacked table", lambda r, q: r.hgetall("unacked")),
    ],
)
def test_host_a_cannot_touch_anything_but_its_own_queue(
    two_hosts: dict[str, Any], what: str, command: Any
) -> None:
    queue_b = host_queue(two_hosts["b"].id)
    with (
        redis.Redis.from_url(two_hosts["url_a"]) as as_a,
        pytest.raises(redis.exceptions.ResponseError) as refused,
    ):
        command(as_a, queue_b)
    # NOPERM, or for a script: the command it tried is refused with the user's own rights.
    assert "permission" in str(refused.value) or "can't run this command" in str(refused.value)
    assert two_hosts["admin"].lrange(queue_b, 0, -1) == [b'{"secret": "B\'s work"}'], what


@pytest.mark.parametrize(
    ("what", "command"),
    [
        # One small command that makes Redis allocate (here 8 MiB; up to 512 MiB) in the host's own key.
        ("grow its mutex key by an offset", lambda r, q: r.setrange(f"unacked_mutex.{q}", 8 << 20, "x")),
        ("grow its mutex key bit by bit", lambda r, q: r.setbit(f"unacked_mutex.{q}", 64 << 20, 1)),
        ("append to its mutex key", lambda r, q: r.append(f"unacked_mutex.{q}", "x")),
        ("start a stream in its queue's name", lambda r, q: r.xadd(f"unacked_index.{q}", {"a": "b"})),
        ("copy a value by DUMP/RESTORE", lambda r, q: r.restore(f"unacked_mutex.{q}", 0, b"\x00")),
        ("read the server's memory figures", lambda r, q: r.info("memory")),
        ("ask how much memory its key takes", lambda r, q: r.memory_usage(q)),
        ("run an ad hoc script", lambda r, q: r.eval("return 1", 0)),
    ],
)
def test_host_a_may_run_only_what_a_worker_sends_even_on_its_own_keys(
    two_hosts: dict[str, Any], what: str, command: Any
) -> None:
    queue_a = host_queue(two_hosts["a"].id)
    with redis.Redis.from_url(two_hosts["url_a"]) as as_a, pytest.raises(redis.exceptions.NoPermissionError):
        command(as_a, queue_a)
    assert not two_hosts["admin"].exists(f"unacked_mutex.{queue_a}", f"unacked_index.{queue_a}"), what


def test_host_a_cannot_subscribe_to_any_channel(two_hosts: dict[str, Any]) -> None:
    with redis.Redis.from_url(two_hosts["url_a"]) as as_a, pytest.raises(redis.exceptions.NoPermissionError):
        as_a.execute_command("SUBSCRIBE", host_queue(two_hosts["b"].id))


def test_host_a_uses_its_own_queue(two_hosts: dict[str, Any]) -> None:
    queue_a = host_queue(two_hosts["a"].id)
    with redis.Redis.from_url(two_hosts["url_a"]) as as_a:
        as_a.lpush(queue_a, "mine")
        assert as_a.rpop(queue_a) == b"mine"


def test_a_revoked_hosts_broker_user_is_gone(two_hosts: dict[str, Any]) -> None:
    broker_access.remove_broker_user(two_hosts["a"].id)
    with pytest.raises(redis.exceptions.AuthenticationError):
        redis.Redis.from_url(two_hosts["url_a"]).ping()


def test_the_worker_settings_fix_json_and_no_remote_control() -> None:
    """What the worker configures itself, whatever the server says (no pickle, no pidbox)."""
    from storbench_worker.broker import BadBrokerSettings, celery_settings

    settings = celery_settings("redis://u:p@127.0.0.1:6379/15", "host.7")
    assert settings["accept_content"] == ["json"]
    assert settings["worker_enable_remote_control"] is False
    assert settings["broker_transport_options"]["unacked_key"] == "unacked.host.7"
    app = Celery("check")
    app.conf.update(settings)
    assert app.conf.accept_content == ["json"]
    for url, queue in (("sqla+sqlite:///x", "host.7"), ("redis://x", "celery"), ("redis://x", "host.7.x")):
        with pytest.raises(BadBrokerSettings):
            celery_settings(url, queue)
