"""A target's directory is checked by its host's worker: creation and runs refuse one it found missing."""

from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from storbench_api.models import Host
from tests.conftest import ONLINE_FACTS, Caller, make_host, make_target

JOB = {"name": "randread", "rw": "randread", "bs": "4k", "size": "16m", "runtime": 5}


def _beat(client: TestClient, token: str, facts: dict[str, Any]) -> dict[str, Any]:
    answer = client.post(
        "/api/v1/worker/heartbeat",
        json={"fio_version": "fio-3.33", "facts": facts},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def _reports(path: str, *, exists: bool, directory: bool = True, writable: bool = True) -> dict[str, Any]:
    state = {"path": path, "exists": exists, "is_directory": exists and directory, "writable": writable}
    return {**ONLINE_FACTS, "target_paths": [state]}


def _create(client: TestClient, caller: Caller, host: Host, name: str, path: str) -> Any:
    body = {"name": name, "host_id": host.id, "path": path, "kind": "directory"}
    return client.post("/api/v1/targets", json=body, headers=caller.headers)


def test_the_heartbeat_answer_names_the_hosts_target_directories(
    client: TestClient, db: Session, owner: Caller
) -> None:
    host, token = make_host(db, team=owner.team)
    other, _ = make_host(db, team=owner.team, name="host-b")
    make_target(db, host=host, name="one", path="/srv/one")
    make_target(db, host=host, name="two", path="/mnt/two")
    make_target(db, host=other, name="elsewhere", path="/srv/elsewhere")
    assert _beat(client, token, ONLINE_FACTS)["target_paths"] == ["/mnt/two", "/srv/one"]
    me = client.get("/api/v1/worker/me", headers={"Authorization": f"Bearer {token}"}).json()
    assert me["target_paths"] == ["/mnt/two", "/srv/one"]


def test_a_new_target_is_not_yet_checked_then_shows_what_the_worker_found(
    client: TestClient, db: Session, owner: Caller
) -> None:
    host, token = make_host(db, team=owner.team)
    created = _create(client, owner, host, "bench", "/srv/bench")
    assert created.status_code == 201, created.text
    directory = created.json()["directory"]
    assert (directory["state"], directory["checked_at"]) == ("not_checked", None)
    assert "next heartbeat" in directory["message"]
    # A worker that does not report directories (an older one) leaves it unchecked: nothing refused.
    _beat(client, token, ONLINE_FACTS)
    target = client.get(f"/api/v1/targets/{created.json()['id']}", headers=owner.headers).json()
    assert target["directory"]["state"] == "not_checked"

    _beat(client, token, _reports("/srv/bench", exists=True))
    target = client.get(f"/api/v1/targets/{created.json()['id']}", headers=owner.headers).json()
    assert target["directory"]["state"] == "exists"
    assert target["directory"]["checked_at"] is not None
    assert "/srv/bench exists on host 'host-a' (checked at " in target["directory"]["message"]


def test_a_directory_the_worker_found_missing_is_refused_at_creation_and_at_run_time(
    client: TestClient, db: Session, owner: Caller
) -> None:
    host, token = make_host(db, team=owner.team)
    target = make_target(db, host=host, name="bench", path="/srv/bench")
    _beat(client, token, _reports("/srv/bench", exists=False))

    shown = client.get(f"/api/v1/targets/{target.id}", headers=owner.headers).json()["directory"]
    assert shown["state"] == "missing"
    assert "does not exist on host 'host-a' yet (checked at " in shown["message"]
    assert "mkdir -p /srv/bench" in shown["message"] and "/srv, /mnt" in shown["message"]

    again = _create(client, owner, host, "bench-2", "/srv/bench")
    assert again.status_code == 422
    assert again.json()["message"] == shown["message"]
    assert again.json()["errors"] == [{"field": "path", "value": "/srv/bench", "reason": "missing"}]

    check = client.post(
        "/api/v1/runs/check", json={"target_id": target.id, "jobs": [JOB]}, headers=owner.headers
    )
    assert check.status_code == 200, check.text
    assert check.json()["ok"] is False
    assert any("mkdir -p /srv/bench" in r["message"] for r in check.json()["refusals"])
    started = client.post("/api/v1/runs", json={"target_id": target.id, "jobs": [JOB]}, headers=owner.headers)
    assert started.status_code == 422
    assert "does not exist on host 'host-a' yet" in started.json()["message"]
    assert client.get("/api/v1/runs", headers=owner.headers).json()["total"] == 0

    # Created on the host: the next heartbeat says so, and the run may start.
    _beat(client, token, _reports("/srv/bench", exists=True))
    check = client.post(
        "/api/v1/runs/check", json={"target_id": target.id, "jobs": [JOB]}, headers=owner.headers
    )
    assert check.json()["ok"] is True, check.json()


def test_a_file_or_a_read_only_directory_is_refused_with_what_to_do(
    client: TestClient, db: Session, owner: Caller
) -> None:
    host, token = make_host(db, team=owner.team)
    _beat(client, token, _reports("/srv/a-file", exists=True, directory=False))
    refused = _create(client, owner, host, "file", "/srv/a-file")
    assert refused.status_code == 422
    assert "is not a directory" in refused.json()["message"]
    _beat(client, token, _reports("/srv/ro", exists=True, writable=False))
    refused = _create(client, owner, host, "ro", "/srv/ro")
    assert refused.status_code == 422
    assert "cannot write to /srv/ro" in refused.json()["message"]
