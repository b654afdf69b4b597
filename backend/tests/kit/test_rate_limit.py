"""The attempt limiter is shared by API processes through Redis, and survives Redis going away."""

import logging
import os
import secrets
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from storbench_api.kit import attempts, redis_or_memory
from storbench_api.kit.rate_limit import RedisSlidingWindow, Window
from storbench_api.kit.redis_or_memory import RedisOrMemory
from tests.conftest import make_caller
from tests.support.redis_server import PrivateRedis
from tests.support.stack import free_port

# A Redis database of this test file's own (conftest's is 15; 11-14 belong to other suites).
REDIS_URL = os.environ.get(
    "STORBENCH_TEST_REDIS_URL_LIMITER",
    os.environ.get("STORBENCH_TEST_REDIS", "redis://127.0.0.1:6379") + "/10",
)


@pytest.fixture
def name() -> Iterator[str]:
    """A limiter name of this test's own; its keys are removed afterwards."""
    name = f"test-{secrets.token_hex(4)}"
    yield name
    client = redis.Redis.from_url(REDIS_URL)
    keys = list(client.scan_iter(match=f"storbench:rate:{name}:*"))
    if keys:
        client.delete(*keys)


def test_two_processes_draw_on_one_budget(name: str) -> None:
    # Two instances with their own connections and memory, as two API processes have.
    first = RedisSlidingWindow(4, 60, REDIS_URL, name=name)
    second = RedisSlidingWindow(4, 60, REDIS_URL, name=name)
    key = "203.0.113.7|someone@example.com"
    answers = [limiter.hit(key) for limiter in (first, second, first, second)]
    assert answers == [0, 0, 0, 0]
    # Each process alone has seen two attempts; together they have used the budget.
    refused = second.hit(key)
    assert 59 < refused <= 60
    assert first.hit(key) > 0
    # Another account from the same address, or the same account from elsewhere, is counted apart.
    assert first.hit("203.0.113.7|other@example.com") == 0
    assert second.hit("198.51.100.2|someone@example.com") == 0


def test_the_window_slides(name: str) -> None:
    limiter = RedisSlidingWindow(2, 0.3, REDIS_URL, name=name)
    assert [limiter.hit("k"), limiter.hit("k")] == [0, 0]
    assert 0 < limiter.hit("k") <= 0.3
    time.sleep(0.35)
    assert limiter.hit("k") == 0


def test_nothing_personal_is_written_to_redis(name: str) -> None:
    RedisSlidingWindow(3, 60, REDIS_URL, name=name).hit("203.0.113.7|someone@example.com")
    (key,) = redis.Redis.from_url(REDIS_URL).scan_iter(match=f"storbench:rate:{name}:*")
    assert b"someone" not in key and b"203.0.113.7" not in key


def test_a_redis_outage_falls_back_to_counting_in_process(caplog: pytest.LogCaptureFixture) -> None:
    nobody_listens = f"redis://127.0.0.1:{free_port()}/0"
    limiter = RedisSlidingWindow(3, 60, nobody_listens, name="outage")
    with caplog.at_level(logging.WARNING, logger="storbench_api.kit.redis_or_memory"):
        answers = [limiter.hit("k") for _ in range(4)]
    # Sign-in goes on (no exception, no lock-out), still limited by this process's own count.
    assert answers[:3] == [0, 0, 0] and answers[3] > 0
    assert any("cannot reach Redis" in r.getMessage() for r in caplog.records)
    # Logged once per outage window, not once per attempt.
    assert sum("cannot reach Redis" in r.getMessage() for r in caplog.records) == 1


def test_the_shared_count_resumes_when_redis_is_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    monkeypatch.setattr(redis_or_memory, "OUTAGE_RETRY_S", 0.2)
    server = PrivateRedis(tmp_path)
    server.start()
    try:
        first = RedisSlidingWindow(3, 60, server.url, name=name)
        second = RedisSlidingWindow(3, 60, server.url, name=name)
        assert first.hit("k") == 0
        server.stop()
        assert second.hit("k") == 0  # in-process: second has seen one attempt
        server.start()  # on the same port, empty: a restart without persistence
        time.sleep(0.3)
        assert [second.hit("k"), first.hit("k"), first.hit("k")] == [0, 0, 0]
        # Redis is asked again: by its own count second may try a third time, but the budget is spent.
        assert second.hit("k") > 0
    finally:
        server.stop()


def test_signing_in_works_through_a_redis_outage(
    client: TestClient, db: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    nobody_listens = f"redis://127.0.0.1:{free_port()}/0"
    unreachable: Window = RedisSlidingWindow(10, 60, nobody_listens)
    always_unreachable = RedisOrMemory(lambda url: unreachable, lambda: unreachable)
    monkeypatch.setattr(attempts, "sign_in_window", always_unreachable)
    caller = make_caller(db, password="right-password")
    signed_in = client.post(
        "/api/v1/auth/token", data={"username": caller.user.email, "password": "right-password"}
    )
    assert signed_in.status_code == 200, signed_in.text
    statuses = [
        client.post(
            "/api/v1/auth/token", data={"username": caller.user.email, "password": "wrong"}
        ).status_code
        for _ in range(10)
    ]
    assert statuses == [401] * 9 + [429]
