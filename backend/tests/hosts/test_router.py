"""Registering hosts and what their workers may see."""

from datetime import timedelta

from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from storbench_api.db import utcnow
from storbench_api.models import Role
from tests.conftest import Caller, make_caller, make_host


def test_a_registered_host_gets_a_worker_token_that_authenticates_it(
    client: TestClient, owner: Caller
) -> None:
    created = client.post("/api/v1/hosts", json={"name": "nas-client-01"}, headers=owner.headers)
    assert created.status_code == 201, created.text
    body = created.json()
    assert body["status"] == "offline"
    me = client.get("/api/v1/worker/me", headers={"Authorization": f"Bearer {body['worker_token']}"})
    assert me.status_code == 200
    assert me.json()["name"] == "nas-client-01"
    assert me.json()["queue"] == f"host.{body['id']}"
    listed = client.get("/api/v1/hosts", headers=owner.headers).json()
    assert "worker_token" not in listed["items"][0]


def test_heartbeat_brings_a_host_online_and_silence_takes_it_offline(
    client: TestClient, db: Session, owner: Caller
) -> None:
    host, token = make_host(db, team=owner.team, online=False)
    beat = client.post(
        "/api/v1/worker/heartbeat",
        json={"fio_version": "fio-3.33", "facts": {"cpu_count": 2}},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert beat.status_code == 200
    listed = client.get(f"/api/v1/hosts/{host.id}", headers=owner.headers).json()
    assert listed["status"] == "online"
    assert listed["fio_version"] == "fio-3.33"
    host.last_seen_at = utcnow() - timedelta(seconds=31)
    db.commit()
    assert client.get(f"/api/v1/hosts/{host.id}", headers=owner.headers).json()["status"] == "offline"


def test_a_worker_that_has_only_signed_in_is_not_online_until_its_first_heartbeat(
    client: TestClient, db: Session, owner: Caller
) -> None:
    host, token = make_host(db, team=owner.team, online=False)
    worker = {"Authorization": f"Bearer {token}"}
    assert client.get("/api/v1/worker/me", headers=worker).status_code == 200
    # Heard from, but its allowed paths are unknown: a run on it could not be planned yet.
    assert client.get(f"/api/v1/hosts/{host.id}", headers=owner.headers).json()["status"] == "offline"
    beat = client.post(
        "/api/v1/worker/heartbeat",
        json={"fio_version": "fio-3.33", "facts": {"cpu_count": 2, "allowed_roots": ["/srv"]}},
        headers=worker,
    )
    assert beat.status_code == 200
    assert client.get(f"/api/v1/hosts/{host.id}", headers=owner.headers).json()["status"] == "online"


def test_duplicate_host_names_conflict(client: TestClient, owner: Caller) -> None:
    assert client.post("/api/v1/hosts", json={"name": "h1"}, headers=owner.headers).status_code == 201
    again = client.post("/api/v1/hosts", json={"name": "h1"}, headers=owner.headers)
    assert again.status_code == 409
    assert "already exists" in again.json()["message"]


def test_a_host_name_with_spaces_is_refused_with_the_field_named(client: TestClient, owner: Caller) -> None:
    response = client.post("/api/v1/hosts", json={"name": "my host"}, headers=owner.headers)
    assert response.status_code == 422
    assert response.json()["errors"][0]["field"] == "name"


def test_another_teams_host_is_not_found(client: TestClient, db: Session, owner: Caller) -> None:
    stranger = make_caller(db)
    host, _ = make_host(db, team=stranger.team)
    assert client.get(f"/api/v1/hosts/{host.id}", headers=owner.headers).status_code == 404


def test_a_viewer_cannot_register_hosts(client: TestClient, db: Session, owner: Caller) -> None:
    viewer = make_caller(db, team=owner.team, role=Role.viewer)
    response = client.post("/api/v1/hosts", json={"name": "h2"}, headers=viewer.headers)
    assert response.status_code == 403
    assert "read" in response.json()["message"]


def test_a_bad_worker_token_is_refused(client: TestClient) -> None:
    response = client.get("/api/v1/worker/me", headers={"Authorization": "Bearer sbh_forged"})
    assert response.status_code == 401
