"""Nobody who has not signed in can stall the served API (real uvicorn, worker and fio; loopback only).

Stalled request bodies must not take the slots meant for work, nor headers that never end pile up;
gzip bombs on the worker upload path must not be inflated for strangers, nor blow up memory.
"""

import os
import socket
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest
import redis

from tests.support.edge_attacks import answer_until_closed, gzip_bomb, rss_bytes, stalled_body
from tests.support.postgres import fresh_database
from tests.support.stack import Stack, running_stack

BROKER_URL = os.environ.get(
    "STORBENCH_TEST_REDIS_URL_EDGE", os.environ.get("STORBENCH_TEST_REDIS", "redis://127.0.0.1:6379") + "/6"
)
DATABASE = os.environ.get("STORBENCH_TEST_DB", "storbench_test") + "_edge"
BODY_GRACE_S = 20
HEADER_TIMEOUT_S = 3
QUICK_JOB = {"name": "read", "rw": "read", "bs": "4k", "size": "4m", "runtime": 1, "time_based": True}


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    redis.Redis.from_url(BROKER_URL).flushdb()
    workdir = tmp_path_factory.mktemp("edge")
    limits = {
        "STORBENCH_REQUEST_BODY_TIMEOUT": str(BODY_GRACE_S),
        "STORBENCH_REQUEST_HEADER_TIMEOUT": str(HEADER_TIMEOUT_S),
    }
    with running_stack(fresh_database(DATABASE), BROKER_URL, workdir, settings=limits) as running:
        yield running


@pytest.fixture(scope="module")
def host(stack: Stack) -> dict[str, Any]:
    """A host with a running worker and a scratch target, and a second host's token to probe with."""
    scratch = stack.workdir / "scratch"
    scratch.mkdir()
    with stack.client() as api:
        created = api.post("/hosts", json={"name": "edge-host"}).json()
        probe = api.post("/hosts", json={"name": "edge-probe"}).json()
        stack.start_worker(created["worker_token"], "edge-host", allow=scratch)
        stack.wait_for(
            lambda: api.get(f"/hosts/{created['id']}").json()["status"] == "online", 60, "the worker"
        )
        target = api.post(
            "/targets",
            json={
                "name": "edge-scratch",
                "host_id": created["id"],
                "path": str(scratch),
                "kind": "directory",
            },
        ).json()
    return {"target": target, "probe_token": probe["worker_token"], "scratch": scratch}


def test_two_hundred_stalled_bodies_stall_neither_workers_nor_users(
    stack: Stack, host: dict[str, Any]
) -> None:
    paths = ["/api/v1/auth/token", "/api/v1/plans", "/api/v1/worker/enroll", "/api/v1/runs"]
    stalled = [stalled_body(stack.port, paths[i % len(paths)]) for i in range(200)]
    opened = time.monotonic()
    try:
        probe = {"Authorization": f"Bearer {host['probe_token']}"}
        with stack.client() as api, httpx.Client(base_url=stack.url, timeout=30) as worker:
            # Answered, not queued behind them into a 503 (how fast: bench/edge_limits.py).
            for _ in range(3):
                beat = worker.post("/api/v1/worker/heartbeat", json={}, headers=probe, timeout=10)
                assert beat.status_code == 200, beat.text
                listed = api.get("/hosts", timeout=10)
                assert listed.status_code == 200, listed.text
            run = api.post("/runs", json={"target_id": host["target"]["id"], "jobs": [QUICK_JOB]}).json()
            done = stack.wait_for(
                lambda: (
                    (r := api.get(f"/runs/{run['id']}").json())["status"] in ("completed", "failed") and r
                ),
                90,
                "the run to finish",
            )
        assert done["status"] == "completed", done.get("error")
        # Bodies that never come are answered 408 and their connections closed, at the deadline.
        for sock in stalled:
            answer = answer_until_closed(sock, max(1.0, opened + BODY_GRACE_S + 30 - time.monotonic()))
            assert answer.startswith(b"HTTP/1.1 408"), answer[:200]
    finally:
        for sock in stalled:
            sock.close()


def test_a_connection_that_never_finishes_its_headers_is_closed(stack: Stack) -> None:
    socks = [socket.create_connection(("127.0.0.1", stack.port), timeout=5) for _ in range(20)]
    try:
        for sock in socks:
            sock.sendall(b"GET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        for sock in socks:
            assert answer_until_closed(sock, HEADER_TIMEOUT_S + 15) == b""
    finally:
        for sock in socks:
            sock.close()


def test_gzip_bombs_from_a_host_neither_blow_up_memory_nor_stall_health(
    stack: Stack, host: dict[str, Any]
) -> None:
    assert stack.api is not None
    pid = stack.api.pid
    idle = peak = rss_bytes(pid)
    headers = {
        "Authorization": f"Bearer {host['probe_token']}",
        "Content-Encoding": "gzip",
        "Content-Type": "application/json",
    }

    def bomb() -> int:
        with httpx.Client(base_url=stack.url, timeout=60) as client:
            return client.post(
                "/api/v1/worker/assignments/1/result", content=gzip_bomb(), headers=headers
            ).status_code

    with ThreadPoolExecutor(max_workers=24) as pool, httpx.Client(base_url=stack.url, timeout=30) as watcher:
        bombs = [pool.submit(bomb) for _ in range(24)]
        while not all(b.done() for b in bombs):
            # Answered throughout, not stalled (how fast: bench/edge_limits.py).
            assert watcher.get("/api/v1/health", timeout=10).status_code == 200
            peak = max(peak, rss_bytes(pid))
        statuses = [b.result() for b in bombs]
    assert statuses == [413] * 24, statuses
    assert peak - idle < 300 * 1024 * 1024, (idle, peak)


def test_a_stranger_is_refused_before_the_upload_is_read(stack: Stack) -> None:
    for authorization in ("", "Authorization: Bearer sbh_not-a-host-token\r\n"):
        with socket.create_connection(("127.0.0.1", stack.port), timeout=5) as sock:
            # Headers only: the 401 must come without waiting for (or inflating) the bomb.
            sock.sendall(
                f"POST /api/v1/worker/assignments/1/result HTTP/1.1\r\nHost: 127.0.0.1\r\n{authorization}"
                f"Content-Encoding: gzip\r\nContent-Length: {len(gzip_bomb())}\r\n\r\n".encode()
            )
            answer = answer_until_closed(sock, 10)
        assert answer.startswith(b"HTTP/1.1 401"), answer[:200]
        assert b'"unauthorized"' in answer
