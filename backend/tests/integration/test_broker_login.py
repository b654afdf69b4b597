"""A worker gets its broker login back after Redis restarts without persistence (its ACL user gone).

The heartbeat is made rare here (5 minutes), so what brings the login back is the worker noticing
the refused login and asking the API for it, not the next heartbeat recreating the user by chance.
"""

import os
from collections.abc import Iterator
from typing import Any

import pytest

from tests.support.postgres import fresh_database
from tests.support.redis_server import PrivateRedis
from tests.support.stack import Stack, running_stack

JOB = {
    "name": "login-read",
    "rw": "randread",
    "bs": "4k",
    "size": "4m",
    "runtime": 2,
    "time_based": True,
    "ioengine": "psync",
}


@pytest.fixture(scope="module")
def rare_heartbeats(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    workdir = tmp_path_factory.mktemp("broker-login")
    broker = PrivateRedis(workdir)
    broker.start()
    scratch = workdir / "scratch"
    scratch.mkdir()
    database = os.environ.get("STORBENCH_TEST_DB", "storbench_test") + "_broker_login"
    try:
        with (
            running_stack(
                fresh_database(database),
                broker.url,
                workdir,
                settings={"STORBENCH_HEARTBEAT_INTERVAL": "300"},
            ) as stack,
            stack.client() as api,
        ):
            host = api.post("/hosts", json={"name": "login-host"}).json()
            stack.start_worker(host["worker_token"], "login-host", allow=scratch)
            online = lambda: api.get(f"/hosts/{host['id']}").json()["status"] == "online"  # noqa: E731
            stack.wait_for(online, 120, "the host online")
            target = api.post(
                "/targets", json={"name": "login scratch", "host_id": host["id"], "path": str(scratch)}
            ).json()
            yield {"stack": stack, "broker": broker, "target": target}
    finally:
        broker.stop()


def _run(stack: Stack, target_id: int, timeout_s: float = 120) -> dict[str, Any]:
    """Start a run and wait for its end."""
    with stack.client() as api:
        run_id = api.post("/runs", json={"target_id": target_id, "jobs": [JOB]}).json()["id"]

        def ended() -> dict[str, Any] | None:
            run: dict[str, Any] = api.get(f"/runs/{run_id}").json()
            return run if run["status"] in ("completed", "failed", "cancelled") else None

        result: dict[str, Any] = stack.wait_for(ended, timeout_s, f"run {run_id} to end")
        return result


def test_an_idle_worker_logs_in_again_after_redis_restarts(rare_heartbeats: dict[str, Any]) -> None:
    stack: Stack = rare_heartbeats["stack"]
    broker: PrivateRedis = rare_heartbeats["broker"]
    target_id = rare_heartbeats["target"]["id"]
    assert _run(stack, target_id)["status"] == "completed"
    broker.stop()
    broker.start()  # without persistence: the host's broker user is gone
    done = _run(stack, target_id)
    assert done["status"] == "completed", done["error"]
    assert len(done["results"]) == 1


def test_a_run_measured_across_a_redis_restart_is_kept_once_and_the_next_one_runs(
    rare_heartbeats: dict[str, Any],
) -> None:
    """The restart comes while fio runs: its acknowledgement is refused, the result still arrives."""
    stack: Stack = rare_heartbeats["stack"]
    broker: PrivateRedis = rare_heartbeats["broker"]
    target_id = rare_heartbeats["target"]["id"]
    with stack.client() as api:
        run = api.post("/runs", json={"target_id": target_id, "jobs": [{**JOB, "runtime": 4}]}).json()
        stack.wait_for(lambda: api.get(f"/runs/{run['id']}").json()["status"] == "running", 60, "running")
        broker.stop()
        broker.start()

        def ended() -> dict[str, Any] | None:
            state: dict[str, Any] = api.get(f"/runs/{run['id']}").json()
            return state if state["status"] in ("completed", "failed", "cancelled") else None

        first = stack.wait_for(ended, 120, "the run across the restart to end")
    assert first["status"] == "completed", first["error"]
    assert len(first["results"]) == 1
    second = _run(stack, target_id)
    assert second["status"] == "completed", second["error"]
    assert len(second["results"]) == 1
