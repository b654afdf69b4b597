"""Storage targets."""

from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from tests.conftest import Caller, make_caller, make_host, make_target


def test_create_and_list_a_directory_target(client: TestClient, db: Session, owner: Caller) -> None:
    host, _ = make_host(db, team=owner.team)
    body = {"name": "nas perf", "host_id": host.id, "path": "/mnt/nas//bench/", "kind": "directory"}
    created = client.post("/api/v1/targets", json=body, headers=owner.headers)
    assert created.status_code == 201, created.text
    assert created.json()["path"] == "/mnt/nas/bench"
    assert created.json()["host_name"] == host.name
    listed = client.get("/api/v1/targets", headers=owner.headers).json()
    assert [t["name"] for t in listed["items"]] == ["nas perf"]


def test_relative_path_is_refused_with_what_to_do(client: TestClient, db: Session, owner: Caller) -> None:
    host, _ = make_host(db, team=owner.team)
    body = {"name": "t", "host_id": host.id, "path": "mnt/nas", "kind": "directory"}
    response = client.post("/api/v1/targets", json=body, headers=owner.headers)
    assert response.status_code == 422
    assert response.json()["errors"][0]["field"] == "path"
    assert "absolute" in response.json()["errors"][0]["reason"]


def test_unknown_host_is_a_clear_422(client: TestClient, owner: Caller) -> None:
    body = {"name": "t", "host_id": 999999, "path": "/mnt/x", "kind": "directory"}
    response = client.post("/api/v1/targets", json=body, headers=owner.headers)
    assert response.status_code == 422
    assert response.json()["errors"][0]["field"] == "host_id"


def test_block_device_must_be_under_dev(client: TestClient, db: Session, owner: Caller) -> None:
    host, _ = make_host(db, team=owner.team)
    body = {"name": "disk", "host_id": host.id, "path": "/mnt/disk", "kind": "block_device"}
    response = client.post("/api/v1/targets", json=body, headers=owner.headers)
    assert response.status_code == 422
    assert "/dev" in response.json()["message"]


def test_a_target_cannot_be_placed_on_another_teams_host(
    client: TestClient, db: Session, owner: Caller
) -> None:
    stranger = make_caller(db)
    foreign_host, _ = make_host(db, team=stranger.team)
    body = {"name": "t", "host_id": foreign_host.id, "path": "/mnt/x", "kind": "directory"}
    assert client.post("/api/v1/targets", json=body, headers=owner.headers).status_code == 422
    foreign_target = make_target(db, host=foreign_host)
    assert client.get(f"/api/v1/targets/{foreign_target.id}", headers=owner.headers).status_code == 404


def test_a_target_takes_a_storage_class_and_its_provisioned_capacity(
    client: TestClient, db: Session, owner: Caller
) -> None:
    host, _ = make_host(db, team=owner.team)
    classes = client.get("/api/v1/storage-classes", headers=owner.headers).json()["items"]
    essd = next(c for c in classes if c["name"].startswith("Enhanced SSD"))
    body = {
        "name": "essd-2t",
        "host_id": host.id,
        "path": "/srv/essd",
        "storage_class_id": essd["id"],
        "capacity_gib": 2000,
    }
    created = client.post("/api/v1/targets", json=body, headers=owner.headers)
    assert created.status_code == 201, created.text
    assert created.json()["storage_class"] == essd["name"]  # the label follows the class
    assert created.json()["capacity_gib"] == 2000
    unknown = client.post(
        "/api/v1/targets", json={**body, "name": "x", "storage_class_id": 999999}, headers=owner.headers
    )
    assert unknown.status_code == 422
    assert unknown.json()["errors"][0]["field"] == "storage_class_id"
    negative = client.post(
        "/api/v1/targets", json={**body, "name": "y", "capacity_gib": -1}, headers=owner.headers
    )
    assert negative.status_code == 422
