"""Preconditioning: the fill of the working set runs first, writes only where the run may write."""

from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from storbench_api.models import Run, Target, TargetKind
from storbench_api.runs import presenters
from storbench_api.runs.repository import get_run
from storbench_fio.precondition import PRECONDITION_DESCRIPTION
from tests.conftest import Caller, make_host, make_target

READ = {"name": "randread-4k", "rw": "randread", "bs": "4k", "size": "16m", "runtime": 10, "time_based": True}


def _sent(db: Session, owner: Caller, run_id: int) -> list[dict[str, Any]]:
    run = get_run(db, owner.team.id, run_id)
    assert isinstance(run, Run)
    return presenters.worker_assignment(run.assignments[0]).jobs


def test_a_preconditioned_run_first_fills_its_working_set_twice_sequentially(
    client: TestClient, db: Session, owner: Caller
) -> None:
    host, _ = make_host(db, team=owner.team)
    target = make_target(db, host=host)
    body = {"target_id": target.id, "jobs": [READ], "precondition": True, "repetitions": 2}
    response = client.post("/api/v1/runs", json=body, headers=owner.headers)
    assert response.status_code == 201, response.text
    assert response.json()["precondition"] is True
    # The run shows the jobs it measures; the hosts get the fill first, then each repetition.
    assert [job["name"] for job in response.json()["jobs"]] == ["randread-4k"]
    fill, *measured = _sent(db, owner, response.json()["id"])
    assert fill["name"] == "randread-4k" and fill["size"] == 16 * 2**20
    assert (fill["rw"], fill["bs"], fill["loops"]) == ("write", 128 * 1024, 2)
    assert fill["description"] == PRECONDITION_DESCRIPTION
    assert fill["runtime"] == 3600 and "time_based" not in fill
    assert [(job["rw"], job.get("stonewall")) for job in measured] == [("randread", True)] * 2
    again = client.post(f"/api/v1/runs/{response.json()['id']}/run-again", json={}, headers=owner.headers)
    assert again.status_code == 201, again.text
    assert again.json()["precondition"] is True


def test_a_fill_on_a_block_device_is_refused_unless_the_run_may_destroy_its_data(
    client: TestClient, db: Session, owner: Caller
) -> None:
    host, _ = make_host(db, team=owner.team)
    device = Target(
        team_id=owner.team.id, host_id=host.id, name="vdb", path="/dev/vdb", kind=TargetKind.block_device
    )
    db.add(device)
    db.commit()
    job = {"name": "r", "rw": "randread", "bs": "4k", "runtime": 5}
    reads = client.post("/api/v1/runs", json={"target_id": device.id, "jobs": [job]}, headers=owner.headers)
    assert reads.status_code == 201, reads.text
    filled = client.post(
        "/api/v1/runs",
        json={"target_id": device.id, "jobs": [job], "precondition": True},
        headers=owner.headers,
    )
    assert filled.status_code == 422
    assert "destroy" in filled.json()["errors"][0]["reason"]


def test_a_sweep_preconditions_once_before_its_first_point(
    client: TestClient, db: Session, owner: Caller
) -> None:
    host, _ = make_host(db, team=owner.team)
    target = make_target(db, host=host)
    body = {
        "target_id": target.id,
        "jobs": [READ],
        "precondition": True,
        "sweep": [{"option": "iodepth", "values": [1, 4]}],
    }
    response = client.post("/api/v1/runs", json=body, headers=owner.headers)
    assert response.status_code == 201, response.text
    sent = _sent(db, owner, response.json()["id"])
    assert [(job["rw"], job.get("iodepth")) for job in sent] == [
        ("write", 32),
        ("randread", 1),
        ("randread", 4),
    ]


def test_the_write_sweep_presets_precondition(client: TestClient, owner: Caller) -> None:
    presets = client.get("/api/v1/presets/sweeps", headers=owner.headers).json()["items"]
    preconditioned = {p["id"] for p in presets if p["precondition"]}
    assert preconditioned == {"qd-randwrite-4k", "bs-write-4k-1m"}
