"""A burst of requests is served in turn: never a stall, never a 500 (real uvicorn, loopback only)."""

import asyncio
import os
from collections import Counter
from collections.abc import Iterator

import httpx
import pytest
import redis

from tests.support.postgres import fresh_database
from tests.support.stack import Stack, running_stack

BROKER_URL = os.environ.get(
    "STORBENCH_TEST_REDIS_URL_BURST", os.environ.get("STORBENCH_TEST_REDIS", "redis://127.0.0.1:6379") + "/13"
)


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    redis.Redis.from_url(BROKER_URL).flushdb()
    with running_stack(fresh_database("storbench_burst"), BROKER_URL, tmp_path_factory.mktemp("burst")) as s:
        yield s


async def _burst(url: str, token: str, count: int) -> Counter[int]:
    limits = httpx.Limits(max_connections=count, max_keepalive_connections=count)
    async with httpx.AsyncClient(base_url=url, limits=limits, timeout=120) as client:
        headers = {"Authorization": f"Bearer {token}"}
        answers = await asyncio.gather(*(client.get("/api/v1/hosts", headers=headers) for _ in range(count)))
    return Counter(answer.status_code for answer in answers)


def test_two_hundred_requests_at_once_are_all_answered(stack: Stack) -> None:
    with stack.client():
        pass  # signs in once
    statuses = asyncio.run(_burst(stack.url, stack.token, 200))
    assert statuses == Counter({200: 200}), statuses
