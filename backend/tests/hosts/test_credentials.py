"""Host credentials: revoked at once, rotated, never taken over silently; lost messages sent again."""

from datetime import timedelta

from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session

from storbench_api.db import utcnow
from storbench_api.models import Assignment, Role, RunStatus
from storbench_api.runs.lifecycle import assignments_to_redispatch
from tests.conftest import Caller, make_caller, make_host, make_target

JOB = {"name": "r", "rw": "randread", "bs": "4k", "size": "16m", "runtime": 1}


def _assignment_of(db: Session, run_id: int) -> Assignment:
    return db.scalars(select(Assignment).where(Assignment.run_id == run_id)).one()


def _worker(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _actions(client: TestClient, owner: Caller) -> list[str]:
    return [e["action"] for e in client.get("/api/v1/audit", headers=owner.headers).json()["items"]]


def test_a_revoked_host_is_refused_at_once_and_its_queued_work_fails(
    client: TestClient, db: Session, owner: Caller
) -> None:
    host, token = make_host(db, team=owner.team)
    target = make_target(db, host=host)
    run = client.post(
        "/api/v1/runs", json={"target_id": target.id, "jobs": [JOB]}, headers=owner.headers
    ).json()
    assert client.get("/api/v1/worker/me", headers=_worker(token)).status_code == 200

    member = make_caller(db, team=owner.team, role=Role.member)
    assert client.post(f"/api/v1/hosts/{host.id}/revoke", headers=member.headers).status_code == 403
    revoked = client.post(f"/api/v1/hosts/{host.id}/revoke", headers=owner.headers)
    assert revoked.status_code == 200, revoked.text
    assert revoked.json()["status"] == "revoked"

    assert client.get("/api/v1/worker/me", headers=_worker(token)).status_code == 401
    done = client.get(f"/api/v1/runs/{run['id']}", headers=owner.headers).json()
    assert done["status"] == "failed"
    assert "revoked" in done["error"]
    refused = client.post("/api/v1/runs", json={"target_id": target.id, "jobs": [JOB]}, headers=owner.headers)
    assert refused.status_code == 409
    assert "revoked" in refused.json()["message"]
    assert "host.revoked" in _actions(client, owner)


def test_rotating_a_credential_gives_a_new_token_and_the_old_one_stops(
    client: TestClient, db: Session, owner: Caller
) -> None:
    host, old = make_host(db, team=owner.team)
    rotated = client.post(f"/api/v1/hosts/{host.id}/rotate-credential", headers=owner.headers)
    assert rotated.status_code == 200, rotated.text
    new = rotated.json()["worker_token"]
    assert client.get("/api/v1/worker/me", headers=_worker(old)).status_code == 401
    assert client.get("/api/v1/worker/me", headers=_worker(new)).json()["name"] == host.name
    assert "host.credential_rotated" in _actions(client, owner)


def test_enrolling_an_existing_name_needs_an_owners_explicit_replace(
    client: TestClient, db: Session, owner: Caller
) -> None:
    host, old = make_host(db, team=owner.team, name="nas-client-1", online=False)
    plain = client.post("/api/v1/enrollment-tokens", json={}, headers=owner.headers).json()
    assert plain["uses_left"] == 1, "one host per token unless the owner asks for more"
    taken = client.post("/api/v1/worker/enroll", json={"token": plain["token"], "name": "nas-client-1"})
    assert taken.status_code == 409
    assert "replace" in taken.json()["message"]
    assert client.get("/api/v1/worker/me", headers=_worker(old)).status_code == 200, "not taken over"

    replace = client.post(
        "/api/v1/enrollment-tokens", json={"replaces_host_id": host.id, "uses": 5}, headers=owner.headers
    ).json()
    assert replace["uses_left"] == 1
    wrong_name = client.post("/api/v1/worker/enroll", json={"token": replace["token"], "name": "other"})
    assert wrong_name.status_code == 409
    enrolled = client.post("/api/v1/worker/enroll", json={"token": replace["token"], "name": "nas-client-1"})
    assert enrolled.status_code == 201, enrolled.text
    assert enrolled.json()["host_id"] == host.id
    assert client.get("/api/v1/worker/me", headers=_worker(old)).status_code == 401
    assert "host.replaced" in _actions(client, owner)


def test_an_enrollment_token_command_keeps_the_token_out_of_argv(client: TestClient, owner: Caller) -> None:
    created = client.post("/api/v1/enrollment-tokens", json={"uses": 3}, headers=owner.headers).json()
    assert "--token-file" in created["command"]
    assert f"--token {created['token']}" not in created["command"]
    assert "http://testserver" in created["command"]
    revoked = client.delete(f"/api/v1/enrollment-tokens/{created['id']}", headers=owner.headers)
    assert revoked.status_code == 204
    assert "enrollment_token.revoked" in _actions(client, owner)


def test_a_queued_assignment_its_idle_host_never_fetched_is_sent_again(
    client: TestClient, db: Session, owner: Caller
) -> None:
    host, token = make_host(db, team=owner.team)
    target = make_target(db, host=host)
    run = client.post(
        "/api/v1/runs", json={"target_id": target.id, "jobs": [JOB]}, headers=owner.headers
    ).json()
    assignment = _assignment_of(db, run["id"])
    assignment_id = assignment.id
    assert assignments_to_redispatch(db) == [], "just sent: its message is on its way"

    later = utcnow() + timedelta(seconds=11)
    host.last_seen_at = later  # still heartbeating
    assert [a.id for a in assignments_to_redispatch(db, now=later)] == [assignment_id]
    assert assignments_to_redispatch(db, now=later + timedelta(seconds=1)) == [], "not again at once"

    client.get(f"/api/v1/worker/assignments/{assignment_id}", headers=_worker(token))
    db.refresh(assignment)
    host.last_seen_at = later + timedelta(seconds=30)
    assert assignments_to_redispatch(db, now=later + timedelta(seconds=30)) == [], "fetched: it arrived"


def test_a_restarted_worker_fails_what_it_had_begun_at_once_but_not_what_it_spooled(
    client: TestClient, db: Session, owner: Caller
) -> None:
    host, token = make_host(db, team=owner.team)
    target = make_target(db, host=host)
    runs = [
        client.post(
            "/api/v1/runs", json={"target_id": target.id, "jobs": [JOB]}, headers=owner.headers
        ).json()
        for _ in range(3)
    ]
    begun, spooled, waiting = (_assignment_of(db, r["id"]).id for r in runs)
    for assignment_id in (begun, spooled):
        client.get(f"/api/v1/worker/assignments/{assignment_id}", headers=_worker(token))
    answer = client.post("/api/v1/worker/restarted", json={"spooled": [spooled]}, headers=_worker(token))
    assert answer.json() == {"failed": 1}
    statuses = {
        a: db.get(Assignment, a).status  # type: ignore[union-attr]
        for a in (begun, spooled, waiting)
    }
    assert statuses == {begun: RunStatus.failed, spooled: RunStatus.queued, waiting: RunStatus.queued}
    failed = client.get(f"/api/v1/runs/{runs[0]['id']}", headers=owner.headers).json()
    assert "restarted" in failed["error"]
