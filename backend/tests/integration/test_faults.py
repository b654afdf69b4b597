"""Faults around a running benchmark: the API down while a worker uploads, Redis restarted mid-run."""

import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.support.postgres import fresh_database
from tests.support.redis_server import PrivateRedis
from tests.support.stack import Stack, running_stack

JOB = {
    "name": "fault-read",
    "rw": "randread",
    "bs": "4k",
    "size": "8m",
    "runtime": 3,
    "time_based": True,
    "ioengine": "psync",
}


@pytest.fixture(scope="module")
def faulty(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    workdir = tmp_path_factory.mktemp("faults")
    broker = PrivateRedis(workdir)
    broker.start()
    scratch = workdir / "scratch"
    scratch.mkdir()
    try:
        with (
            running_stack(fresh_database("storbench_faults"), broker.url, workdir) as stack,
            stack.client() as api,
        ):
            host = api.post("/hosts", json={"name": "fault-host"}).json()
            stack.start_worker(host["worker_token"], "fault-host", allow=scratch)
            stack.wait_for(lambda: api.get(f"/hosts/{host['id']}").json()["status"] == "online", 60, "online")
            target = api.post(
                "/targets", json={"name": "fault scratch", "host_id": host["id"], "path": str(scratch)}
            ).json()
            yield {"stack": stack, "broker": broker, "target": target, "host": host}
    finally:
        broker.stop()


def _terminal(stack: Stack, run_id: int, timeout_s: float = 90) -> dict[str, Any]:
    with stack.client() as api:

        def done() -> dict[str, Any] | None:
            run: dict[str, Any] = api.get(f"/runs/{run_id}").json()
            return run if run["status"] in ("completed", "failed", "cancelled") else None

        result: dict[str, Any] = stack.wait_for(done, timeout_s, f"run {run_id} to end")
        return result


def test_a_result_measured_while_the_api_is_down_arrives_once_it_is_back(faulty: dict[str, Any]) -> None:
    stack: Stack = faulty["stack"]
    with stack.client() as api:
        run = api.post("/runs", json={"target_id": faulty["target"]["id"], "jobs": [JOB]}).json()
        stack.wait_for(lambda: api.get(f"/runs/{run['id']}").json()["status"] == "running", 30, "running")
    stack.stop_api()
    # fio finishes its 3 s while nobody can receive the result; the worker keeps it and retries.
    time.sleep(5)
    stack.start_api()
    stack.token = ""
    done = _terminal(stack, run["id"])
    assert done["status"] == "completed", done["error"]
    assert len(done["results"]) == 1
    assert done["results"][0]["directions"]["read"]["iops"] > 0


def test_a_run_survives_redis_restarting_under_it_and_the_worker_reconnects(faulty: dict[str, Any]) -> None:
    stack: Stack = faulty["stack"]
    broker: PrivateRedis = faulty["broker"]
    with stack.client() as api:
        run = api.post("/runs", json={"target_id": faulty["target"]["id"], "jobs": [JOB]}).json()
        stack.wait_for(lambda: api.get(f"/runs/{run['id']}").json()["status"] == "running", 30, "running")
        broker.stop()
        broker.start()
        done = _terminal(stack, run["id"])
        assert done["status"] == "completed", done["error"]
        assert len(done["results"]) == 1
        # The worker reconnected to the restarted broker: the next run is picked up and measured.
        again = api.post("/runs", json={"target_id": faulty["target"]["id"], "jobs": [JOB]}).json()
        assert _terminal(stack, again["id"])["status"] == "completed"
