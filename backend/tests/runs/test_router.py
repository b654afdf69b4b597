"""Starting, following and cancelling runs, and what workers report back."""

import base64
import json
import os
from datetime import timedelta
from typing import Any

import pytest
import redis
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from storbench_api.db import utcnow
from storbench_api.models import Host, Target
from storbench_api.runs.lifecycle import sweep_stuck_assignments
from tests.conftest import Caller, make_caller, make_host, make_target
from tests.support.fio import quick_randread

JOB = {"name": "randread-4k", "rw": "randread", "bs": "4k", "size": "16m", "runtime": 1, "time_based": True}


@pytest.fixture
def host_and_target(db: Session, owner: Caller) -> tuple[Host, str, Target]:
    host, token = make_host(db, team=owner.team)
    return host, token, make_target(db, host=host)


@pytest.fixture(scope="session")
def real_fio_output(tmp_path_factory: pytest.TempPathFactory) -> str:
    """One real fio json+ output, made once for the session."""
    return quick_randread(tmp_path_factory.mktemp("fio"))


def _start(client: TestClient, caller: Caller, target: Target, **body: Any) -> Any:
    payload = {"target_id": target.id, **(body or {"jobs": [JOB]})}
    return client.post("/api/v1/runs", json=payload, headers=caller.headers)


def _queued_messages(queue: str) -> list[dict[str, Any]]:
    connection = redis.Redis.from_url(os.environ["STORBENCH_BROKER_URL"])
    return [json.loads(raw) for raw in connection.lrange(queue, 0, -1)]


def test_a_run_is_queued_on_its_hosts_own_queue_carrying_only_an_id(
    client: TestClient, owner: Caller, host_and_target: tuple[Host, str, Target]
) -> None:
    host, _, target = host_and_target
    response = _start(client, owner, target)
    assert response.status_code == 201, response.text
    run = response.json()
    assert run["status"] == "queued"
    assert run["jobs"][0]["bs"] == 4096
    assert run["host"]["name"] == host.name
    messages = _queued_messages(f"host.{host.id}")
    assert messages, "no message on the host's queue"
    message = messages[-1]
    assert message["headers"]["task"] == "storbench.execute_assignment"
    args, kwargs, _ = json.loads(base64.b64decode(message["body"]))
    assert len(args) == 1 and isinstance(args[0], int) and kwargs == {}


def test_unknown_target_is_a_clear_422(client: TestClient, owner: Caller) -> None:
    response = client.post("/api/v1/runs", json={"target_id": 424242, "jobs": [JOB]}, headers=owner.headers)
    assert response.status_code == 422
    assert response.json()["errors"][0]["field"] == "target_id"


def test_an_absurd_job_value_is_refused_before_anything_is_queued(
    client: TestClient, owner: Caller, host_and_target: tuple[Host, str, Target]
) -> None:
    host, _, target = host_and_target
    before = len(_queued_messages(f"host.{host.id}"))
    response = _start(client, owner, target, jobs=[{**JOB, "iodepth": 10**9}])
    assert response.status_code == 422
    assert response.json()["errors"][0]["option"] == "iodepth"
    assert len(_queued_messages(f"host.{host.id}")) == before


def test_a_host_whose_worker_is_not_running_is_refused_with_how_to_fix(
    client: TestClient, db: Session, owner: Caller
) -> None:
    host, _ = make_host(db, team=owner.team, name="sleepy", online=False)
    target = make_target(db, host=host)
    response = _start(client, owner, target)
    assert response.status_code == 409
    assert "storbench-worker" in response.json()["message"]


def test_give_exactly_one_job_source(
    client: TestClient, owner: Caller, host_and_target: tuple[Host, str, Target]
) -> None:
    _, _, target = host_and_target
    response = client.post("/api/v1/runs", json={"target_id": target.id}, headers=owner.headers)
    assert response.status_code == 422
    assert "exactly one" in response.json()["message"]


def test_a_worker_reports_a_run_through_to_stored_figures(
    client: TestClient, owner: Caller, host_and_target: tuple[Host, str, Target], real_fio_output: str
) -> None:
    _, token, target = host_and_target
    worker = {"Authorization": f"Bearer {token}"}
    run = _start(client, owner, target).json()
    assignment_id = _assignment_id(client, worker, run["id"])
    fetched = client.get(f"/api/v1/worker/assignments/{assignment_id}", headers=worker).json()
    assert fetched["target"]["path"] == target.path
    assert client.post(f"/api/v1/worker/assignments/{assignment_id}/start", headers=worker).status_code == 200
    assert client.get(f"/api/v1/runs/{run['id']}", headers=owner.headers).json()["status"] == "running"

    upload = client.post(
        f"/api/v1/worker/assignments/{assignment_id}/result",
        json={"fio_output": real_fio_output},
        headers=worker,
    )
    assert upload.status_code == 200, upload.text
    again = client.post(
        f"/api/v1/worker/assignments/{assignment_id}/result",
        json={"fio_output": real_fio_output},
        headers=worker,
    )
    assert again.json() == upload.json()

    done = client.get(f"/api/v1/runs/{run['id']}", headers=owner.headers).json()
    assert done["status"] == "completed"
    assert done["finished_at"] is not None
    assert len(done["results"]) == 1
    read = done["results"][0]["directions"]["read"]
    assert read["iops"] > 0
    assert read["bw_bytes"] == pytest.approx(read["iops"] * 4096, rel=0.02)
    percentiles = read["clat_ns"]["percentiles"]
    assert {"50", "90", "95", "99", "99.9", "99.99"} <= set(percentiles)
    assert percentiles["50"] <= percentiles["99"] <= percentiles["99.99"]
    assert done["results"][0]["fio_version"].startswith("fio-3")


def _assignment_id(client: TestClient, worker: dict[str, str], run_id: int) -> int:
    """The assignment the API queued for this run, found as the worker finds it: from the queue."""
    me = client.get("/api/v1/worker/me", headers=worker).json()
    for message in reversed(_queued_messages(me["queue"])):
        (assignment_id,), _, _ = json.loads(base64.b64decode(message["body"]))
        fetched = client.get(f"/api/v1/worker/assignments/{assignment_id}", headers=worker)
        if fetched.status_code == 200 and fetched.json()["run_id"] == run_id:
            return int(assignment_id)
    raise AssertionError(f"no queued assignment for run {run_id}")


def test_another_host_cannot_see_or_report_an_assignment(
    client: TestClient, db: Session, owner: Caller, host_and_target: tuple[Host, str, Target]
) -> None:
    _, token, target = host_and_target
    _, other_token = make_host(db, team=owner.team, name="other")
    run = _start(client, owner, target).json()
    assignment_id = _assignment_id(client, {"Authorization": f"Bearer {token}"}, run["id"])
    other = {"Authorization": f"Bearer {other_token}"}
    assert client.get(f"/api/v1/worker/assignments/{assignment_id}", headers=other).status_code == 404
    assert client.post(f"/api/v1/worker/assignments/{assignment_id}/start", headers=other).status_code == 404


def test_a_failure_reported_by_the_worker_fails_the_run_with_its_reason(
    client: TestClient, owner: Caller, host_and_target: tuple[Host, str, Target]
) -> None:
    _, token, target = host_and_target
    worker = {"Authorization": f"Bearer {token}"}
    run = _start(client, owner, target).json()
    assignment_id = _assignment_id(client, worker, run["id"])
    reason = "target path /srv/scratch does not exist on host 'host-a'"
    client.post(
        f"/api/v1/worker/assignments/{assignment_id}/failure", json={"reason": reason}, headers=worker
    )
    failed = client.get(f"/api/v1/runs/{run['id']}", headers=owner.headers).json()
    assert failed["status"] == "failed"
    assert "does not exist" in failed["error"]


def test_output_fio_could_not_have_written_is_refused_and_nothing_is_stored(
    client: TestClient, owner: Caller, host_and_target: tuple[Host, str, Target]
) -> None:
    _, token, target = host_and_target
    worker = {"Authorization": f"Bearer {token}"}
    run = _start(client, owner, target).json()
    assignment_id = _assignment_id(client, worker, run["id"])
    client.post(f"/api/v1/worker/assignments/{assignment_id}/start", headers=worker)
    garbage = client.post(
        f"/api/v1/worker/assignments/{assignment_id}/result",
        json={"fio_output": '{"jobs": [{"x"'},
        headers=worker,
    )
    assert garbage.status_code == 422
    assert client.get(f"/api/v1/runs/{run['id']}", headers=owner.headers).json()["results"] == []


def test_cancel_a_queued_run_then_the_worker_is_told_to_skip_it(
    client: TestClient, owner: Caller, host_and_target: tuple[Host, str, Target]
) -> None:
    _, token, target = host_and_target
    worker = {"Authorization": f"Bearer {token}"}
    run = _start(client, owner, target).json()
    cancelled = client.post(f"/api/v1/runs/{run['id']}/cancel", headers=owner.headers)
    assert cancelled.status_code == 200
    assert cancelled.json()["status"] == "cancelled"
    assignment_id = _assignment_id(client, worker, run["id"])
    fetched = client.get(f"/api/v1/worker/assignments/{assignment_id}", headers=worker).json()
    assert fetched["status"] == "cancelled", "the worker skips an assignment that is no longer queued"
    asked = client.post(f"/api/v1/worker/assignments/{assignment_id}/progress", json={}, headers=worker)
    assert asked.json()["status"] == "cancelled", "a host laying out files asks this, and stops"
    assert client.post(f"/api/v1/worker/assignments/{assignment_id}/start", headers=worker).status_code == 409
    again = client.post(f"/api/v1/runs/{run['id']}/cancel", headers=owner.headers)
    assert again.status_code == 409


def test_a_run_whose_host_goes_silent_is_failed_not_left_hanging(
    client: TestClient, db: Session, owner: Caller, host_and_target: tuple[Host, str, Target]
) -> None:
    host, token, target = host_and_target
    worker = {"Authorization": f"Bearer {token}"}
    run = _start(client, owner, target).json()
    assignment_id = _assignment_id(client, worker, run["id"])
    client.post(f"/api/v1/worker/assignments/{assignment_id}/start", headers=worker)
    host.last_seen_at = utcnow() - timedelta(minutes=5)
    db.commit()
    assert sweep_stuck_assignments(db) >= 1
    failed = client.get(f"/api/v1/runs/{run['id']}", headers=owner.headers).json()
    assert failed["status"] == "failed"
    assert "lost contact" in failed["error"]


def test_every_request_of_a_worker_keeps_its_host_online(
    client: TestClient, db: Session, owner: Caller, host_and_target: tuple[Host, str, Target]
) -> None:
    host, token, target = host_and_target
    worker = {"Authorization": f"Bearer {token}"}
    run = _start(client, owner, target).json()
    assignment_id = _assignment_id(client, worker, run["id"])
    work = f"/api/v1/worker/assignments/{assignment_id}"
    for method, path in [("GET", work), ("POST", f"{work}/ready"), ("POST", f"{work}/start")]:
        host.last_seen_at = utcnow() - timedelta(minutes=5)
        db.commit()
        assert client.get(f"/api/v1/hosts/{host.id}", headers=owner.headers).json()["status"] == "offline"
        assert client.request(method, path, headers=worker).status_code == 200, path
        shown = client.get(f"/api/v1/hosts/{host.id}", headers=owner.headers).json()
        assert shown["status"] in ("online", "busy"), path
    # No heartbeat came, but the host's worker is at work: its run is not failed as lost.
    assert sweep_stuck_assignments(db) == 0
    assert client.get(f"/api/v1/runs/{run['id']}", headers=owner.headers).json()["status"] == "running"


def test_another_teams_run_is_not_found(
    client: TestClient, db: Session, owner: Caller, host_and_target: tuple[Host, str, Target]
) -> None:
    _, _, target = host_and_target
    run = _start(client, owner, target).json()
    stranger = make_caller(db)
    assert client.get(f"/api/v1/runs/{run['id']}", headers=stranger.headers).status_code == 404
    assert client.post(f"/api/v1/runs/{run['id']}/cancel", headers=stranger.headers).status_code == 404


def test_runs_are_listed_newest_first_and_filter_by_status(
    client: TestClient, owner: Caller, host_and_target: tuple[Host, str, Target]
) -> None:
    _, _, target = host_and_target
    first = _start(client, owner, target).json()
    second = _start(client, owner, target).json()
    client.post(f"/api/v1/runs/{first['id']}/cancel", headers=owner.headers)
    listed = client.get("/api/v1/runs", headers=owner.headers).json()
    assert [r["id"] for r in listed["items"]][:2] == [second["id"], first["id"]]
    queued = client.get("/api/v1/runs?status=queued", headers=owner.headers).json()
    assert [r["id"] for r in queued["items"]] == [second["id"]]
