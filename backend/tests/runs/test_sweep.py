"""Sweeps at start: the matrix as the hosts run it, refusals naming the field, the run shows its points."""

from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from storbench_api.models import Run
from storbench_api.runs import worker_service
from storbench_api.runs.repository import get_run
from tests.conftest import Caller, make_host, make_target

JOB = {"name": "randread-4k", "rw": "randread", "bs": "4k", "size": "16m", "runtime": 10, "time_based": True}


def _start(client: TestClient, caller: Caller, target_id: int, path: str = "", **fields: Any) -> Any:
    return client.post(
        f"/api/v1/runs{path}", json={"target_id": target_id, "jobs": [JOB], **fields}, headers=caller.headers
    )


def test_a_qd_sweep_runs_each_point_behind_a_stonewall_on_the_same_files(
    client: TestClient, db: Session, owner: Caller
) -> None:
    host, _ = make_host(db, team=owner.team)
    target = make_target(db, host=host)
    response = _start(client, owner, target.id, sweep=[{"option": "iodepth", "values": [1, 2, 4, 8, 16, 32]}])
    assert response.status_code == 201, response.text
    body = response.json()
    assert [p["values"] for p in body["sweep"]["points"]] == [{"iodepth": qd} for qd in (1, 2, 4, 8, 16, 32)]
    assert all(p["status"] == "pending" for p in body["sweep"]["points"])
    run = get_run(db, owner.team.id, body["id"])
    assert isinstance(run, Run)
    # What the host receives, loaded as the worker's fetch loads it (not through this session's cache).
    sent = worker_service.fetch(db, host, run.assignments[0].id).jobs
    assert [job["iodepth"] for job in sent] == [1, 2, 4, 8, 16, 32]
    assert all(job["stonewall"] and job["name"] == "randread-4k" for job in sent)


def test_a_geometric_range_includes_its_end_and_a_matrix_runs_the_first_axis_slowest(
    client: TestClient, db: Session, owner: Caller
) -> None:
    host, _ = make_host(db, team=owner.team)
    target = make_target(db, host=host)
    sweep = [
        {"option": "numjobs", "values": [1, 2]},
        {"option": "iodepth", "from": 1, "to": 256, "factor": 4},
    ]
    response = _start(client, owner, target.id, sweep=sweep)
    assert response.status_code == 201, response.text
    points = [p["values"] for p in response.json()["sweep"]["points"]]
    assert points[:5] == [{"numjobs": 1, "iodepth": qd} for qd in (1, 4, 16, 64, 256)]
    assert len(points) == 10 and points[5] == {"numjobs": 2, "iodepth": 1}


def test_a_shuffled_sweep_visits_every_point_in_an_order_its_seed_fixes(
    client: TestClient, db: Session, owner: Caller
) -> None:
    host, _ = make_host(db, team=owner.team)
    target = make_target(db, host=host)
    sweep = [{"option": "iodepth", "from": 1, "to": 256, "factor": 2}]
    orders = [
        [
            p["values"]["iodepth"]
            for p in _start(client, owner, target.id, sweep=sweep, sweep_shuffle=True, sweep_seed=7).json()[
                "sweep"
            ]["points"]
        ]
        for _ in range(2)
    ]
    assert orders[0] == orders[1] != sorted(orders[0])
    assert sorted(orders[0]) == [1, 2, 4, 8, 16, 32, 64, 128, 256]


@pytest.mark.parametrize(
    ("sweep", "field", "words"),
    [
        ([{"option": "rw", "values": [1]}], "sweep.0.option", "sweepable options"),
        (
            [{"option": "iodepth", "values": [1]}, {"option": "iodepth", "values": [2]}],
            "sweep.1.option",
            "once",
        ),
        ([{"option": "iodepth", "values": [1, 0]}], "sweep.0.values", ""),
        (
            [
                {"option": "iodepth", "from": 1, "to": 256, "factor": 2},
                {"option": "numjobs", "from": 1, "to": 64, "factor": 2},
                {"option": "bs", "values": [4096, 8192, 16384, 65536, 131072]},
            ],
            "sweep",
            "at most 256",
        ),
    ],
)
def test_a_sweep_that_cannot_run_is_refused_naming_what_to_fix_and_check_says_the_same(
    client: TestClient, db: Session, owner: Caller, sweep: list[dict[str, Any]], field: str, words: str
) -> None:
    host, _ = make_host(db, team=owner.team)
    target = make_target(db, host=host)
    started = _start(client, owner, target.id, sweep=sweep)
    assert started.status_code == 422, started.text
    assert any(e["field"] == field and words in e["reason"] for e in started.json()["errors"]), started.text
    checked = _start(client, owner, target.id, path="/check", sweep=sweep)
    assert checked.status_code == 200 and not checked.json()["ok"]
    assert checked.json()["refusals"][0]["message"] == started.json()["message"]


@pytest.mark.parametrize(
    "axis",
    [
        {"option": "iodepth"},
        {"option": "iodepth", "values": [1], "from": 1, "to": 4, "factor": 2},
        {"option": "iodepth", "from": 8, "to": 2, "factor": 2},
        {"option": "iodepth", "from": 1, "to": 8, "factor": 1},
    ],
)
def test_an_axis_gives_values_or_a_growing_range(
    client: TestClient, db: Session, owner: Caller, axis: Any
) -> None:
    host, _ = make_host(db, team=owner.team)
    target = make_target(db, host=host)
    response = _start(client, owner, target.id, sweep=[axis])
    assert response.status_code == 422
    assert all("sweep" in (e.get("field") or "") for e in response.json()["errors"])


def test_a_sweep_longer_than_a_run_may_take_is_refused(
    client: TestClient, db: Session, owner: Caller
) -> None:
    host, _ = make_host(db, team=owner.team)
    target = make_target(db, host=host)
    long_job = {**JOB, "runtime": 3600}
    response = client.post(
        "/api/v1/runs",
        json={
            "target_id": target.id,
            "jobs": [long_job],
            "sweep": [{"option": "iodepth", "from": 1, "to": 256, "factor": 2}],
            "repetitions": 4,
        },
        headers=owner.headers,
    )
    assert response.status_code == 422, response.text
    # 9 points × 4 repetitions of an hour: beyond the 32 hours a run may take.
    [error] = response.json()["errors"]
    assert error["field"] == "sweep" and "fewer points or repetitions" in error["reason"]


def test_run_again_runs_the_same_sweep(client: TestClient, db: Session, owner: Caller) -> None:
    host, _ = make_host(db, team=owner.team)
    target = make_target(db, host=host)
    first = _start(client, owner, target.id, sweep=[{"option": "bs", "values": [4096, 65536]}]).json()
    client.post(f"/api/v1/runs/{first['id']}/cancel", headers=owner.headers)
    again = client.post(f"/api/v1/runs/{first['id']}/run-again", json={}, headers=owner.headers)
    assert again.status_code == 201, again.text
    assert again.json()["sweep"]["points"] == first["sweep"]["points"]
    assert len(again.json()["jobs"]) == 2


def test_the_sweep_presets_start_as_runs(client: TestClient, db: Session, owner: Caller) -> None:
    host, _ = make_host(db, team=owner.team)
    target = make_target(db, host=host)
    presets = client.get("/api/v1/presets/sweeps", headers=owner.headers).json()["items"]
    assert {"qd-randread-4k", "qd-randwrite-4k", "numjobs-randread-4k", "bs-read-4k-1m"} <= {
        p["id"] for p in presets
    }
    for preset in presets:
        body = {"target_id": target.id, "jobs": preset["jobs"], "sweep": preset["sweep"]}
        checked = client.post("/api/v1/runs/check", json=body, headers=owner.headers)
        assert checked.status_code == 200, checked.text
        assert (
            len(client.post("/api/v1/runs", json=body, headers=owner.headers).json()["sweep"]["points"])
            == preset["points"]
        )
