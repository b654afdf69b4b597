"""Live run events over Redis pub/sub: viewers are pushed to, not polling; each user's streams are bounded.

Two API servers run in this process, each on its own event loop as two API processes would be (each
holds its own subscription): the worker reports to one, the viewers watch on the other. The safety
re-check is set far beyond the test's length, so only notifications can move the streams.
"""

import asyncio
import json
import os
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest
import redis
import uvicorn
from sqlalchemy import event, select, update

from storbench_api import live
from storbench_api.broker import get_celery
from storbench_api.cli import migrate
from storbench_api.db import get_engine, get_sessionmaker, utcnow
from storbench_api.main import create_app
from storbench_api.models import Assignment, Host
from storbench_api.runs import events
from storbench_api.settings import get_settings
from tests.conftest import make_caller, make_host, make_target
from tests.support.fio import quick_randread
from tests.support.postgres import fresh_database
from tests.support.stack import free_port

REDIS_URL = os.environ.get(
    "STORBENCH_TEST_REDIS_URL_LIVE", os.environ.get("STORBENCH_TEST_REDIS", "redis://127.0.0.1:6379") + "/9"
)
JOB = {"name": "live-read", "rw": "randread", "bs": "4k", "size": "16m", "runtime": 30, "time_based": True}
PROGRESS_REPORTS = 5
WAIT_S = 10.0


class ApiServer:
    """One API 'process': uvicorn on its own thread and event loop."""

    def __init__(self) -> None:
        port = free_port()
        self.url = f"http://127.0.0.1:{port}"
        config = uvicorn.Config(
            create_app(run_sweeper=False),
            host="127.0.0.1",
            port=port,
            log_level="warning",
            timeout_graceful_shutdown=2,
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, name=f"api-{port}", daemon=True)

    def start(self) -> None:
        self.thread.start()
        deadline = time.monotonic() + WAIT_S
        while not self.server.started:
            assert time.monotonic() < deadline, "the API server did not start"
            time.sleep(0.02)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=15)


@dataclass
class Statements:
    """SQL statements the API processes ran, counted on the engine."""

    run_reads: int = 0  # a viewer's snapshot selects progress samples once: one per database read
    total: int = 0

    def reset(self) -> None:
        self.run_reads = self.total = 0


@dataclass
class LiveApi:
    """Two API servers on one database and one Redis, a viewer's token and a host's."""

    worker_side: ApiServer
    viewer_side: ApiServer
    viewer: dict[str, str]
    viewer_user_id: int
    other_viewer: dict[str, str]
    owner: dict[str, str]
    host: dict[str, str]
    target_id: int
    fio_output: str
    statements: Statements


def _forget_configuration() -> None:
    for cached in (get_settings, get_engine, get_sessionmaker, get_celery, live._publisher):
        cached.cache_clear()


@pytest.fixture(scope="module")
def live_api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveApi]:
    with pytest.MonkeyPatch.context() as env:
        env.setenv("STORBENCH_DATABASE_URL", fresh_database("storbench_live_events"))
        env.setenv("STORBENCH_BROKER_URL", REDIS_URL)
        env.setenv("STORBENCH_LIVE_RECHECK_INTERVAL", "600")
        redis.Redis.from_url(REDIS_URL).flushdb()
        get_engine().dispose()
        _forget_configuration()
        servers: list[ApiServer] = []
        try:
            migrate()
            with get_sessionmaker()() as db:
                owner = make_caller(db)
                viewer = make_caller(db, team=owner.team)
                other_viewer = make_caller(db, team=owner.team)
                host, host_token = make_host(db, team=owner.team)
                target = make_target(db, host=host)
                ids = (viewer.user.id, target.id)
            statements = Statements()

            @event.listens_for(get_engine(), "before_cursor_execute")
            def _count(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
                statements.total += 1
                if statement.lstrip().upper().startswith("SELECT") and "FROM progress_samples" in statement:
                    statements.run_reads += 1

            servers = [ApiServer(), ApiServer()]
            for server in servers:
                server.start()
            yield LiveApi(
                worker_side=servers[0],
                viewer_side=servers[1],
                viewer={"Authorization": f"Bearer {viewer.token}"},
                viewer_user_id=ids[0],
                other_viewer={"Authorization": f"Bearer {other_viewer.token}"},
                owner={"Authorization": f"Bearer {owner.token}"},
                host={"Authorization": f"Bearer {host_token}"},
                target_id=ids[1],
                fio_output=quick_randread(tmp_path_factory.mktemp("fio")),
                statements=statements,
            )
        finally:
            for server in servers:
                server.stop()
            get_engine().dispose()
            _forget_configuration()


@pytest.fixture(autouse=True)
def _long_streams(monkeypatch: pytest.MonkeyPatch) -> None:
    """These streams are read by real clients as they go: let them last."""
    monkeypatch.setattr(events, "MAX_STREAM_S", 120.0)


@dataclass
class Viewer:
    """One browser's event stream: what it received, and whether the server ended it."""

    events: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    status_code: int = 0
    error_body: dict[str, Any] = field(default_factory=dict)
    ended: bool = False

    def statuses(self) -> list[str]:
        return [data["status"] for name, data in self.events if name == "status"]

    def progress(self) -> list[dict[str, Any]]:
        return [data for name, data in self.events if name == "progress"]


async def _watch(client: httpx.AsyncClient, url: str, headers: dict[str, str], viewer: Viewer) -> None:
    async with client.stream("GET", url, headers=headers) as response:
        viewer.status_code = response.status_code
        if response.status_code != 200:
            viewer.error_body = json.loads(await response.aread())
            return
        name = ""
        async for line in response.aiter_lines():
            if line.startswith("event: "):
                name = line.removeprefix("event: ")
            elif line.startswith("data: "):
                viewer.events.append((name, json.loads(line.removeprefix("data: "))))
    viewer.ended = True


async def _until(predicate: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + WAIT_S
    while not predicate():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.01)


def _assignment_of(run_id: int) -> int:
    with get_sessionmaker()() as db:
        return int(db.scalar(select(Assignment.id).where(Assignment.run_id == run_id)) or 0)


def _sample(second: int) -> dict[str, Any]:
    return {
        "elapsed_s": second,
        "eta_s": 30 - second,
        "percent": second * 100 / 30,
        "timestamp_ms": int(time.time() * 1000),
        "directions": {"read": {"iops": 1000.0 + second, "bw_bytes": 4096000.0, "lat_mean_ns": 9000.0}},
    }


async def _start_run(client: httpx.AsyncClient, api: LiveApi) -> int:
    with get_sessionmaker()() as db:  # the host's worker is played by this test: keep it online
        db.execute(update(Host).values(last_seen_at=utcnow()))
        db.commit()
    started = await client.post(
        f"{api.worker_side.url}/api/v1/runs",
        json={"target_id": api.target_id, "jobs": [JOB]},
        headers=api.owner,
    )
    assert started.status_code == 201, started.text
    return int(started.json()["id"])


async def _follow_a_run(
    api: LiveApi, viewers: int, heard: Callable[[], list[int]]
) -> tuple[list[Viewer], int]:
    """A run watched by `viewers` streams on one server while its worker reports to the other.

    Returns the viewers and how many times the run was read from the database once they were
    all connected.
    """
    limits = httpx.Limits(max_connections=viewers + 10)
    async with httpx.AsyncClient(timeout=httpx.Timeout(10.0, read=60.0), limits=limits) as client:
        run_id = await _start_run(client, api)
        assignment = f"{api.worker_side.url}/api/v1/worker/assignments/{_assignment_of(run_id)}"
        stream_url = f"{api.viewer_side.url}/api/v1/runs/{run_id}/events"
        watching = [Viewer() for _ in range(viewers)]
        tasks = [asyncio.create_task(_watch(client, stream_url, api.viewer, v)) for v in watching]
        await _until(lambda: all(v.statuses() == ["queued"] for v in watching), "every viewer to connect")
        api.statements.reset()

        async def reported(
            call: Awaitable[httpx.Response], seen: Callable[[Viewer], bool], what: str
        ) -> None:
            response = await call
            assert response.status_code == 200, response.text
            await _until(lambda: all(seen(v) for v in watching), what)

        await reported(
            client.post(f"{assignment}/start", headers=api.host),
            lambda v: v.statuses()[-1] == "running",
            "running",
        )
        for second in range(1, PROGRESS_REPORTS + 1):
            await reported(
                client.post(f"{assignment}/progress", json={"samples": [_sample(second)]}, headers=api.host),
                lambda v, n=second: len(v.progress()) == n,
                f"progress report {second}",
            )
        await reported(
            client.post(f"{assignment}/result", json={"fio_output": api.fio_output}, headers=api.host),
            lambda v: v.ended,
            "the streams to end",
        )
        await asyncio.gather(*tasks)
        assert run_id in heard(), "the change went through Redis pub/sub"
        return watching, api.statements.run_reads


def test_viewers_on_another_server_are_pushed_progress_and_the_final_status(live_api: LiveApi) -> None:
    subscriber = redis.Redis.from_url(REDIS_URL).pubsub(ignore_subscribe_messages=True)
    subscriber.subscribe(live.channel_for(redis.Redis.from_url(REDIS_URL)))
    published: list[int] = []

    def heard() -> list[int]:
        deadline = time.monotonic() + 0.5
        while time.monotonic() < deadline:
            message = subscriber.get_message(timeout=0.05)
            if message is not None:
                published.extend(int(i) for i in message["data"].split(b","))
        return published

    try:
        (alone,), reads_for_one = asyncio.run(_follow_a_run(live_api, 1, heard))
        crowd, reads_for_twenty = asyncio.run(_follow_a_run(live_api, 20, heard))
    finally:
        subscriber.close()

    for viewer in (alone, *crowd):
        assert viewer.statuses() == ["queued", "running", "completed"]
        progress = viewer.progress()
        assert [p["elapsed_s"] for p in progress] == list(range(1, PROGRESS_REPORTS + 1))
        assert all(p["host_name"] == "host-a" and p["directions"]["read"]["iops"] > 1000 for p in progress)
    # Every viewer of one run got the very same stream.
    assert all(viewer.events == crowd[0].events for viewer in crowd)
    # One read per change (start, each report, the result), however many watch.
    assert PROGRESS_REPORTS + 2 <= reads_for_one <= PROGRESS_REPORTS + 4
    assert reads_for_twenty <= reads_for_one + 1


def test_a_user_holds_at_most_twenty_streams_and_they_hold_no_database_connection(live_api: LiveApi) -> None:
    async def scenario() -> None:
        async with httpx.AsyncClient(timeout=httpx.Timeout(10.0, read=60.0)) as client:
            run_id = await _start_run(client, live_api)
            stream_url = f"{live_api.viewer_side.url}/api/v1/runs/{run_id}/events"
            watching = [Viewer() for _ in range(20)]
            tasks = [asyncio.create_task(_watch(client, stream_url, live_api.viewer, v)) for v in watching]
            await _until(lambda: all(v.statuses() == ["queued"] for v in watching), "twenty streams")
            assert get_engine().pool.checkedout() <= 1

            refused = Viewer()
            await _watch(client, stream_url, live_api.viewer, refused)
            assert refused.status_code == 429
            assert refused.error_body["code"] == "too_many_streams"
            assert "20 live event streams" in refused.error_body["message"]
            # Another user of the team is not affected.
            other = Viewer()
            other_task = asyncio.create_task(_watch(client, stream_url, live_api.other_viewer, other))
            await _until(lambda: other.statuses() == ["queued"], "another user's stream")

            # Closing a page gives its slot back.
            tasks[0].cancel()
            await asyncio.gather(tasks[0], return_exceptions=True)
            await _until(
                lambda: events.stream_slots.open_streams(live_api.viewer_user_id) == 19, "the slot to free"
            )
            again = Viewer()
            again_task = asyncio.create_task(_watch(client, stream_url, live_api.viewer, again))
            await _until(lambda: again.statuses() == ["queued"], "a stream in the freed slot")

            for task in (*tasks[1:], other_task, again_task):
                task.cancel()
            await asyncio.gather(*tasks[1:], other_task, again_task, return_exceptions=True)
            await _until(lambda: events.stream_slots.open_streams(live_api.viewer_user_id) == 0, "all slots")

    asyncio.run(scenario())
