"""Choosing the hosts of a synchronized run, and refusing the ones that would spoil it."""

from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from storbench_api.models import Host, Target
from tests.conftest import ONLINE_FACTS, Caller, make_caller, make_host, make_target

JOB = {"name": "r", "rw": "randread", "bs": "4k", "size": "16m", "runtime": 1}


def _host(
    db: Session, owner: Caller, name: str, offset_ms: float | None = 0.4, uncertainty_ms: float = 0.2
) -> Host:
    host, _ = make_host(db, team=owner.team, name=name)
    clock = {"clock_offset_ms": offset_ms, "clock_uncertainty_ms": uncertainty_ms}
    host.facts = ONLINE_FACTS if offset_ms is None else {**ONLINE_FACTS, **clock}
    db.commit()
    return host


def _start(client: TestClient, owner: Caller, target: Target, **extra: object) -> object:
    return client.post(
        "/api/v1/runs", json={"target_id": target.id, "jobs": [JOB], **extra}, headers=owner.headers
    )


def test_one_assignment_per_named_host(client: TestClient, db: Session, owner: Caller) -> None:
    primary = _host(db, owner, "client-1")
    others = [_host(db, owner, "client-2"), _host(db, owner, "client-3")]
    target = make_target(db, host=primary)
    response = _start(client, owner, target, host_ids=[h.id for h in others])
    assert response.status_code == 201, response.text
    assert [a["host"]["name"] for a in response.json()["assignments"]] == ["client-1", "client-2", "client-3"]


def test_a_host_whose_clock_is_too_far_off_is_refused_with_the_reason(
    client: TestClient, db: Session, owner: Caller
) -> None:
    primary = _host(db, owner, "client-1")
    drifting = _host(db, owner, "drifting", offset_ms=900.0)
    target = make_target(db, host=primary)
    response = _start(client, owner, target, host_ids=[drifting.id])
    assert response.status_code == 409
    assert "drifting" in response.json()["message"] and "900 ms" in response.json()["message"]
    assert "chrony" in response.json()["message"] or "NTP" in response.json()["message"]


def test_an_offset_within_its_measurement_uncertainty_of_the_limit_is_not_refused(
    client: TestClient, db: Session, owner: Caller
) -> None:
    # Measured over a 700 ms round trip (a loaded API): 300 ms off, give or take 350 ms.
    primary = _host(db, owner, "client-1")
    loaded = _host(db, owner, "loaded", offset_ms=300.0, uncertainty_ms=350.0)
    far = _host(db, owner, "far", offset_ms=700.0, uncertainty_ms=350.0)
    target = make_target(db, host=primary)

    assert _start(client, owner, target, host_ids=[loaded.id]).status_code == 201
    refused = _start(client, owner, target, host_ids=[far.id])
    assert refused.status_code == 409
    assert "far" in refused.json()["message"] and "700 ms (± 350 ms)" in refused.json()["message"]


def test_a_host_that_has_not_measured_its_clock_yet_is_refused(
    client: TestClient, db: Session, owner: Caller
) -> None:
    primary = _host(db, owner, "client-1")
    fresh = _host(db, owner, "fresh", offset_ms=None)
    target = make_target(db, host=primary)
    response = _start(client, owner, target, host_ids=[fresh.id])
    assert response.status_code == 409
    assert "clock offset" in response.json()["message"]


def test_hosts_by_label_and_unknown_labels(client: TestClient, db: Session, owner: Caller) -> None:
    primary = _host(db, owner, "client-1")
    labelled = _host(db, owner, "rack4-a")
    labelled.labels = ["rack4"]
    db.commit()
    target = make_target(db, host=primary)
    response = _start(client, owner, target, host_label="rack4")
    assert response.status_code == 201
    assert len(response.json()["assignments"]) == 2
    unknown = _start(client, owner, target, host_label="rack9")
    assert unknown.status_code == 422
    assert unknown.json()["errors"][0]["field"] == "host_label"


def test_another_teams_host_cannot_join_a_run(client: TestClient, db: Session, owner: Caller) -> None:
    primary = _host(db, owner, "client-1")
    stranger = make_caller(db)
    foreign, _ = make_host(db, team=stranger.team, name="foreign")
    target = make_target(db, host=primary)
    response = _start(client, owner, target, host_ids=[foreign.id])
    assert response.status_code == 422
    assert response.json()["errors"][0]["field"] == "host_ids"
