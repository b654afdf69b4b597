"""A saved plan holds a sweep and preconditioning; its runs execute them."""

from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from tests.conftest import Caller, make_host, make_target

JOB = {"name": "randread-4k", "rw": "randread", "bs": "4k", "size": "16m", "runtime": 5, "time_based": True}
SWEEP = {"axes": [{"option": "iodepth", "values": [1, 2, 4]}], "stop": {"above_ns": 5_000_000}}


def test_a_plan_with_a_sweep_starts_runs_that_sweep_and_precondition(
    client: TestClient, db: Session, owner: Caller
) -> None:
    body = {"name": "qd sweep", "jobs": [JOB], "sweep": SWEEP, "precondition": True}
    created = client.post("/api/v1/plans", json=body, headers=owner.headers)
    assert created.status_code == 201, created.text
    plan = created.json()
    assert plan["sweep"]["axes"][0]["values"] == [1, 2, 4] and plan["precondition"] is True
    host, _ = make_host(db, team=owner.team)
    target = make_target(db, host=host)
    run = client.post(
        "/api/v1/runs", json={"target_id": target.id, "plan_id": plan["id"]}, headers=owner.headers
    )
    assert run.status_code == 201, run.text
    assert [p["values"]["iodepth"] for p in run.json()["sweep"]["points"]] == [1, 2, 4]
    assert run.json()["sweep"]["stop"]["above_ns"] == 5_000_000
    assert run.json()["precondition"] is True
    # A run's own sweep replaces the plan's.
    own = {"target_id": target.id, "plan_id": plan["id"], "sweep": [{"option": "iodepth", "values": [8]}]}
    replaced = client.post("/api/v1/runs", json=own, headers=owner.headers)
    assert replaced.status_code == 201, replaced.text
    assert [p["values"]["iodepth"] for p in replaced.json()["sweep"]["points"]] == [8]


def test_a_plan_sweep_is_edited_removed_and_refused_naming_its_field(
    client: TestClient, owner: Caller
) -> None:
    created = client.post(
        "/api/v1/plans", json={"name": "p", "jobs": [JOB], "sweep": SWEEP}, headers=owner.headers
    )
    plan_id = created.json()["id"]
    bad = client.post(
        "/api/v1/plans",
        json={"name": "bad", "jobs": [JOB], "sweep": {"axes": [{"option": "direct", "values": [0, 1]}]}},
        headers=owner.headers,
    )
    assert bad.status_code == 422
    assert bad.json()["errors"][0]["field"] == "sweep.axes.0.option"
    edited = client.patch(
        f"/api/v1/plans/{plan_id}",
        json={"sweep": {"axes": [{"option": "numjobs", "values": [1, 2]}]}, "precondition": True},
        headers=owner.headers,
    )
    assert edited.status_code == 200, edited.text
    assert edited.json()["sweep"]["axes"][0]["option"] == "numjobs" and edited.json()["precondition"]
    removed = client.patch(f"/api/v1/plans/{plan_id}", json={"sweep": None}, headers=owner.headers)
    assert removed.status_code == 200 and removed.json()["sweep"] is None
