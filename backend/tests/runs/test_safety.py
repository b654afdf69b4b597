"""fio options that could harm a host or its data are refused before anything is queued."""

from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from storbench_api.models import Host, Role, Target, TargetKind
from tests.conftest import Caller, make_caller, make_host

WRITE = {"name": "w", "rw": "randwrite", "bs": "4k", "runtime": 5}


def _device(db: Session, owner: Caller) -> Target:
    host, _ = make_host(db, team=owner.team)
    target = Target(
        team_id=owner.team.id, host_id=host.id, name="vdb", path="/dev/vdb", kind=TargetKind.block_device
    )
    db.add(target)
    db.commit()
    return target


def test_a_write_job_on_a_block_device_needs_an_owner_and_a_confirmation(
    client: TestClient, db: Session, owner: Caller
) -> None:
    device = _device(db, owner)
    refused = client.post(
        "/api/v1/runs", json={"target_id": device.id, "jobs": [WRITE]}, headers=owner.headers
    )
    assert refused.status_code == 422
    assert "destroy" in refused.json()["errors"][0]["reason"]

    member = make_caller(db, team=owner.team, role=Role.member)
    patch = client.patch(f"/api/v1/targets/{device.id}", json={"destructive": True}, headers=member.headers)
    assert patch.status_code == 403
    patch = client.patch(f"/api/v1/targets/{device.id}", json={"destructive": True}, headers=owner.headers)
    assert patch.status_code == 200 and patch.json()["destructive"] is True

    unconfirmed = client.post(
        "/api/v1/runs", json={"target_id": device.id, "jobs": [WRITE]}, headers=owner.headers
    )
    assert unconfirmed.status_code == 422
    confirmed = client.post(
        "/api/v1/runs",
        json={"target_id": device.id, "jobs": [WRITE], "confirm_destructive": True},
        headers=owner.headers,
    )
    assert confirmed.status_code == 201, confirmed.text


def test_reads_on_a_block_device_need_no_confirmation(client: TestClient, db: Session, owner: Caller) -> None:
    device = _device(db, owner)
    job = {"name": "r", "rw": "randread", "bs": "4k", "runtime": 5}
    response = client.post(
        "/api/v1/runs", json={"target_id": device.id, "jobs": [job]}, headers=owner.headers
    )
    assert response.status_code == 201, response.text


def test_a_directory_cannot_be_marked_destructive(client: TestClient, db: Session, owner: Caller) -> None:
    host, _ = make_host(db, team=owner.team)
    created = client.post(
        "/api/v1/targets", json={"name": "d", "host_id": host.id, "path": "/mnt/d"}, headers=owner.headers
    ).json()
    response = client.patch(
        f"/api/v1/targets/{created['id']}", json={"destructive": True}, headers=owner.headers
    )
    assert response.status_code == 422


def test_a_directory_job_without_size_or_runtime_says_what_to_set(
    client: TestClient, db: Session, owner: Caller
) -> None:
    host, _ = make_host(db, team=owner.team)
    target = Target(
        team_id=owner.team.id, host_id=host.id, name="d", path="/mnt/d", kind=TargetKind.directory
    )
    db.add(target)
    db.commit()
    job = {"name": "r", "rw": "randread", "bs": "4k"}
    response = client.post(
        "/api/v1/runs", json={"target_id": target.id, "jobs": [job]}, headers=owner.headers
    )
    assert response.status_code == 422
    reasons = {e["option"]: e["reason"] for e in response.json()["errors"]}
    assert "size" in reasons and "runtime" in reasons


def test_pasted_options_that_run_programs_are_refused_with_a_reason(
    client: TestClient, owner: Caller
) -> None:
    text = "[global]\nexec_prerun=/bin/rm -rf /\n[r]\nrw=randread\nbs=4k\n"
    response = client.post("/api/v1/fio/validate", json={"text": text}, headers=owner.headers)
    assert response.status_code == 422
    error = next(e for e in response.json()["errors"] if e["option"] == "exec_prerun")
    assert error["reason"]


def test_a_block_device_is_never_written_by_several_hosts(
    client: TestClient, db: Session, owner: Caller
) -> None:
    device = _device(db, owner)
    other, _ = make_host(db, team=owner.team, name="host-b")
    other.facts = {**other.facts, "clock_offset_ms": 0.1}
    primary = db.get(Host, device.host_id)
    assert primary is not None
    primary.facts = {**primary.facts, "clock_offset_ms": 0.1}
    db.commit()
    job = {"name": "r", "rw": "randread", "bs": "4k", "runtime": 5}
    response = client.post(
        "/api/v1/runs",
        json={"target_id": device.id, "jobs": [job], "host_ids": [other.id]},
        headers=owner.headers,
    )
    assert response.status_code == 422
    assert response.json()["errors"][0]["option"] == "host_ids"
    assert "one host" in response.json()["errors"][0]["reason"]


def test_targets_outside_the_hosts_allowed_paths_are_refused_naming_them(
    client: TestClient, db: Session, owner: Caller
) -> None:
    host, _ = make_host(db, team=owner.team)
    for path, words in (
        ("/etc", "/etc holds system files"),
        ("/data/x", "/srv, /mnt, /dev/vdb"),
        ("/", "system folder"),
    ):
        response = client.post(
            "/api/v1/targets",
            json={"name": f"t{len(path)}", "host_id": host.id, "path": path},
            headers=owner.headers,
        )
        assert response.status_code == 422, path
        assert words in response.json()["message"]
    for device, words in (("/dev/vda", "mounted"), ("/dev/sdz", "--allow /dev/sdz")):
        response = client.post(
            "/api/v1/targets",
            json={"name": device, "host_id": host.id, "path": device, "kind": "block_device"},
            headers=owner.headers,
        )
        assert response.status_code == 422, device
        assert words in response.json()["message"]
