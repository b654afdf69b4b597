"""Repetitions at start: bounded, counted in the run's budget, sent to the worker, shown on the run."""

from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from storbench_api.models import Run
from storbench_api.runs import presenters
from storbench_api.runs.repository import get_run
from tests.conftest import Caller, make_host, make_target

JOB = {"name": "randread-4k", "rw": "randread", "bs": "4k", "size": "16m", "runtime": 60, "time_based": True}


def _start(client: TestClient, caller: Caller, target_id: int, **fields: Any) -> Any:
    return client.post(
        "/api/v1/runs", json={"target_id": target_id, "jobs": [JOB], **fields}, headers=caller.headers
    )


def test_a_run_of_three_repetitions_is_sent_to_its_worker_as_such(
    client: TestClient, db: Session, owner: Caller
) -> None:
    host, _ = make_host(db, team=owner.team)
    target = make_target(db, host=host)
    response = _start(client, owner, target.id, repetitions=3)
    assert response.status_code == 201, response.text
    assert response.json()["repetitions"] == 3 and len(response.json()["jobs"]) == 1
    run = get_run(db, owner.team.id, response.json()["id"])
    assert isinstance(run, Run)
    assert presenters.worker_assignment(run.assignments[0]).repetitions == 3


@pytest.mark.parametrize("repetitions", [0, 101, "3", True])
def test_repetitions_out_of_range_name_the_field(
    client: TestClient, db: Session, owner: Caller, repetitions: object
) -> None:
    host, _ = make_host(db, team=owner.team)
    target = make_target(db, host=host)
    response = _start(client, owner, target.id, repetitions=repetitions)
    assert response.status_code == 422
    assert any("repetitions" in (e.get("field") or "") for e in response.json()["errors"])


def test_the_runs_budget_counts_its_repetitions(client: TestClient, db: Session, owner: Caller) -> None:
    host, _ = make_host(db, team=owner.team)
    target = make_target(db, host=host)
    long_job = {**JOB, "runtime": 3600}
    # 40 hours of fio: beyond what one run may take (32 jobs of at most an hour by default).
    response = client.post(
        "/api/v1/runs",
        json={"target_id": target.id, "jobs": [long_job], "repetitions": 40},
        headers=owner.headers,
    )
    assert response.status_code == 422, response.text
    [error] = response.json()["errors"]
    assert error["field"] == "repetitions" and "at most 32 repetitions" in error["reason"]
    assert _start(client, owner, target.id, repetitions=32).status_code == 201
