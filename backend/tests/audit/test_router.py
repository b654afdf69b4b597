"""Owners see who did what."""

from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from storbench_api.models import Role
from tests.conftest import Caller, make_caller, make_host, make_target

JOB = {"name": "r", "rw": "randread", "bs": "4k", "size": "16m", "runtime": 1}


def test_starting_and_cancelling_a_run_is_audited_with_its_hosts(
    client: TestClient, db: Session, owner: Caller
) -> None:
    member = make_caller(db, team=owner.team, role=Role.member)
    host, _ = make_host(db, team=owner.team, name="nas-client-7")
    target = make_target(db, host=host)
    run = client.post(
        "/api/v1/runs", json={"target_id": target.id, "jobs": [JOB]}, headers=member.headers
    ).json()
    client.post(f"/api/v1/runs/{run['id']}/cancel", headers=owner.headers)
    events = client.get("/api/v1/audit", headers=owner.headers).json()["items"]
    by_action = {e["action"]: e for e in events}
    assert by_action["run.started"]["actor"] == member.user.email
    assert by_action["run.started"]["hosts"] == ["nas-client-7"]
    assert by_action["run.cancelled"]["actor"] == owner.user.email
    assert client.get("/api/v1/audit", headers=member.headers).status_code == 403


def test_a_host_enrolls_with_an_enrollment_token_that_can_do_nothing_else(
    client: TestClient, owner: Caller
) -> None:
    created = client.post("/api/v1/enrollment-tokens", json={"uses": 1}, headers=owner.headers).json()
    enrolled = client.post("/api/v1/worker/enroll", json={"token": created["token"], "name": "cfs-client-1"})
    assert enrolled.status_code == 201, enrolled.text
    worker = {"Authorization": f"Bearer {enrolled.json()['worker_token']}"}
    assert client.get("/api/v1/worker/me", headers=worker).json()["name"] == "cfs-client-1"
    used_up = client.post("/api/v1/worker/enroll", json={"token": created["token"], "name": "cfs-client-2"})
    assert used_up.status_code == 401
    as_user = client.get("/api/v1/hosts", headers={"Authorization": f"Bearer {created['token']}"})
    assert as_user.status_code == 401
    actions = [e["action"] for e in client.get("/api/v1/audit", headers=owner.headers).json()["items"]]
    assert "host.enrolled" in actions
