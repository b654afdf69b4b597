"""Faults around a running benchmark: the API down while a worker uploads, Redis restarted mid-run."""

import os
import signal
import time
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import create_engine
from sqlalchemy.orm import Session

from storbench_api.models import Assignment, Run, RunStatus, Target
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
            # A host counts as offline after a minute of silence, not three seconds: a worker
            # restarted on a loaded machine takes longer than that to start, and these tests are
            # about what the restart (not the silence) does.
            running_stack(
                fresh_database("storbench_faults"),
                broker.url,
                workdir,
                settings={"STORBENCH_MISSED_HEARTBEATS_OFFLINE": "60"},
            ) as stack,
            stack.client() as api,
        ):
            host = api.post("/hosts", json={"name": "fault-host"}).json()
            worker = stack.start_worker(host["worker_token"], "fault-host", allow=scratch)
            stack.wait_for(lambda: api.get(f"/hosts/{host['id']}").json()["status"] == "online", 60, "online")
            target = api.post(
                "/targets", json={"name": "fault scratch", "host_id": host["id"], "path": str(scratch)}
            ).json()
            yield {
                "stack": stack,
                "broker": broker,
                "target": target,
                "host": host,
                "worker": worker,
                "token": host["worker_token"],
                "scratch": scratch,
            }
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


def _online(stack: Stack, api: Any, faulty: dict[str, Any]) -> None:
    """Wait until the host heartbeats again (after the API restarted)."""
    host_id = faulty["host"]["id"]
    stack.wait_for(lambda: api.get(f"/hosts/{host_id}").json()["status"] == "online", 30, "the host online")


def _runs_end(stack: Stack, run_ids: list[int], timeout_s: float) -> dict[int, dict[str, Any]]:
    """Every run's final state; a run still queued or running at the end is stuck (the test fails)."""
    return {run_id: _terminal(stack, run_id, timeout_s) for run_id in run_ids}


def test_runs_queued_when_redis_restarts_without_persistence_still_run(faulty: dict[str, Any]) -> None:
    """The broker loses every queued message: each run completes anyway (sent again), none is stuck."""
    stack: Stack = faulty["stack"]
    broker: PrivateRedis = faulty["broker"]
    with stack.client() as api:
        first = api.post("/runs", json={"target_id": faulty["target"]["id"], "jobs": [JOB]}).json()
        stack.wait_for(lambda: api.get(f"/runs/{first['id']}").json()["status"] == "running", 30, "running")
        queued = [
            api.post("/runs", json={"target_id": faulty["target"]["id"], "jobs": [JOB]}).json()["id"]
            for _ in range(2)
        ]
        broker.stop()  # the two queued messages are gone with it: --save "" --appendonly no
        broker.start()
    ended = _runs_end(stack, [first["id"], *queued], timeout_s=60)
    stuck = [run_id for run_id, run in ended.items() if run["status"] in ("queued", "running")]
    lost = [run_id for run_id, run in ended.items() if run["status"] == "completed" and not run["results"]]
    assert stuck == [] and lost == []
    assert all(run["status"] == "completed" for run in ended.values()), ended


def test_a_run_the_api_committed_but_never_enqueued_is_sent(faulty: dict[str, Any]) -> None:
    """As if the API died between its commit and the enqueue: the run is in the database only."""
    stack: Stack = faulty["stack"]
    engine = create_engine(stack.env["STORBENCH_DATABASE_URL"])
    with Session(engine) as db:
        target = db.get(Target, faulty["target"]["id"])
        assert target is not None
        run = Run(team_id=target.team_id, target_id=target.id, jobs=[JOB], status=RunStatus.queued)
        db.add(run)
        db.flush()
        db.add(
            Assignment(run_id=run.id, host_id=faulty["host"]["id"], status=RunStatus.queued, worker_info={})
        )
        db.commit()
        run_id = run.id
    engine.dispose()
    done = _terminal(stack, run_id, timeout_s=60)
    assert done["status"] == "completed", done["error"]
    assert len(done["results"]) == 1


def test_a_worker_killed_mid_run_and_restarted_fails_the_run_at_once_saying_why(
    faulty: dict[str, Any],
) -> None:
    stack: Stack = faulty["stack"]
    worker = faulty["worker"]
    with stack.client() as api:
        run = api.post(
            "/runs", json={"target_id": faulty["target"]["id"], "jobs": [{**JOB, "runtime": 60}]}
        ).json()
        stack.wait_for(lambda: api.get(f"/runs/{run['id']}").json()["status"] == "running", 30, "running")
        os.killpg(worker.pid, signal.SIGKILL)
        worker.wait()
        faulty["worker"] = stack.start_worker(faulty["token"], "fault-host", allow=faulty["scratch"])
        # Long before the run's deadline (60 s of fio plus grace) and before the host counts as offline.
        done = _terminal(stack, run["id"], timeout_s=50)
    assert done["status"] == "failed"
    assert "restarted" in done["error"]


def test_an_upload_refused_with_401_is_kept_and_delivered_with_the_new_credential(
    faulty: dict[str, Any],
) -> None:
    """The credential is rotated while fio runs: the result waits on the host, and arrives after.

    The server counts a host offline after three missed heartbeats; here they are 10 s apart, as in
    production, so replacing the token takes the operator less time than that.
    """
    stack: Stack = faulty["stack"]
    stack.stop_api()
    stack.env["STORBENCH_HEARTBEAT_INTERVAL"] = "10"
    stack.start_api()
    stack.token = ""
    with stack.client() as api:
        _online(stack, api, faulty)
        run = api.post("/runs", json={"target_id": faulty["target"]["id"], "jobs": [JOB]}).json()
        stack.wait_for(lambda: api.get(f"/runs/{run['id']}").json()["status"] == "running", 30, "running")
        rotated = api.post(f"/hosts/{faulty['host']['id']}/rotate-credential").json()
        spool = stack.workdir / "worker-fault-host" / "spool"
        stack.wait_for(lambda: list(spool.glob("*.json")), 30, "the refused result to wait in the spool")
        assert api.get(f"/runs/{run['id']}").json()["status"] == "running"
        stack.stop_worker(faulty["worker"])
        faulty["token"] = rotated["worker_token"]
        faulty["worker"] = stack.start_worker(faulty["token"], "fault-host", allow=faulty["scratch"])
        done = _terminal(stack, run["id"], timeout_s=60)
    stack.stop_api()
    stack.env["STORBENCH_HEARTBEAT_INTERVAL"] = "1"
    stack.start_api()
    stack.token = ""
    assert done["status"] == "completed", done["error"]
    assert len(done["results"]) == 1
    assert not list(spool.glob("*.json"))


def test_an_upload_refused_with_413_is_kept_and_delivered_once_the_limit_is_raised(
    faulty: dict[str, Any],
) -> None:
    stack: Stack = faulty["stack"]
    stack.stop_api()
    stack.env["STORBENCH_MAX_UPLOAD_BYTES"] = "1024"  # smaller than any fio report, even gzipped
    stack.start_api()
    stack.token = ""
    try:
        with stack.client() as api:
            _online(stack, api, faulty)
            run = api.post("/runs", json={"target_id": faulty["target"]["id"], "jobs": [JOB]}).json()
            spool = stack.workdir / "worker-fault-host" / "spool"
            stack.wait_for(lambda: list(spool.glob("*.json")), 60, "the refused result to wait in the spool")
    finally:
        stack.stop_api()
        del stack.env["STORBENCH_MAX_UPLOAD_BYTES"]
        stack.start_api()
        stack.token = ""
    # The worker retries with backoff from its heartbeat; nothing is lost meanwhile.
    done = _terminal(stack, run["id"], timeout_s=90)
    assert done["status"] == "completed", done["error"]
    assert len(done["results"]) == 1
