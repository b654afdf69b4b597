"""Plans keep jobs fio would accept, normalised."""

from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from tests.conftest import Caller, make_caller, make_host, make_target


def test_a_plan_normalises_fio_units(client: TestClient, owner: Caller) -> None:
    job = {"name": "r", "rw": "randread", "bs": "4k", "size": "1G", "iodepth": 32, "direct": 1}
    response = client.post("/api/v1/plans", json={"name": "nas", "jobs": [job]}, headers=owner.headers)
    assert response.status_code == 201, response.text
    saved = response.json()["jobs"][0]
    assert saved["bs"] == 4096
    assert saved["size"] == 1024**3
    assert saved["direct"] is True
    assert client.get("/api/v1/plans", headers=owner.headers).json()["total"] == 1


def test_each_offending_option_is_reported(client: TestClient, owner: Caller) -> None:
    job = {"name": "r", "rw": "randread", "bs": "4k", "iodepth": -1, "numjobs": 100000}
    response = client.post("/api/v1/plans", json={"name": "bad", "jobs": [job]}, headers=owner.headers)
    assert response.status_code == 422
    options = {e["option"] for e in response.json()["errors"]}
    assert {"iodepth", "numjobs"} <= options
    assert all(e["reason"] for e in response.json()["errors"])


def test_an_unknown_rw_mode_names_the_option(client: TestClient, owner: Caller) -> None:
    job = {"name": "r", "rw": "sideways"}
    response = client.post("/api/v1/plans", json={"name": "bad", "jobs": [job]}, headers=owner.headers)
    assert response.status_code == 422
    assert response.json()["errors"][0]["option"] == "rw"


def test_a_plan_without_jobs_is_refused(client: TestClient, owner: Caller) -> None:
    response = client.post("/api/v1/plans", json={"name": "empty", "jobs": []}, headers=owner.headers)
    assert response.status_code == 422


def test_preset_jobs_can_be_sent_back_and_null_options_mean_not_set(
    client: TestClient, owner: Caller
) -> None:
    presets = client.get("/api/v1/presets", headers=owner.headers).json()["items"]
    preset = next(p for p in presets if p["id"] == "randread-4k-iops")
    # A preset lists the options its recipe sets, not every option it leaves unset.
    assert all(value is not None for value in preset["jobs"][0].values())
    job = {**preset["jobs"][0], "ramp_time": None, "verify": None}
    response = client.post(
        "/api/v1/plans", json={"name": "from preset", "jobs": [job]}, headers=owner.headers
    )
    assert response.status_code == 201, response.text
    saved = response.json()["jobs"][0]
    assert saved["iodepth"] == preset["jobs"][0]["iodepth"]
    assert saved.get("ramp_time") is None and saved.get("verify") is None


# ---- everyday controls: edit (versions), duplicate, delete ---------------------------------

JOB = {"name": "r", "rw": "randread", "bs": "4k", "size": "16m", "runtime": 1, "time_based": True}


def _plan(client: TestClient, owner: Caller, name: str = "nightly") -> dict[str, object]:
    response = client.post("/api/v1/plans", json={"name": name, "jobs": [JOB]}, headers=owner.headers)
    assert response.status_code == 201, response.text
    body: dict[str, object] = response.json()
    return body


def test_editing_the_jobs_makes_a_new_version_and_runs_keep_the_one_they_ran(
    client: TestClient, owner: Caller, db: Session
) -> None:
    host, _ = make_host(db, team=owner.team)
    target = make_target(db, host=host)
    plan = _plan(client, owner)
    assert plan["version"] == 1
    first = client.post(
        "/api/v1/runs", json={"target_id": target.id, "plan_id": plan["id"]}, headers=owner.headers
    ).json()
    edited = client.patch(
        f"/api/v1/plans/{plan['id']}", json={"jobs": [{**JOB, "bs": "64k"}]}, headers=owner.headers
    )
    assert edited.status_code == 200, edited.text
    assert edited.json()["version"] == 2
    assert edited.json()["jobs"][0]["bs"] == 65536
    second = client.post(
        "/api/v1/runs", json={"target_id": target.id, "plan_id": plan["id"]}, headers=owner.headers
    ).json()
    assert (first["plan_version"], second["plan_version"]) == (1, 2)
    assert client.get(f"/api/v1/runs/{first['id']}", headers=owner.headers).json()["jobs"][0]["bs"] == 4096

    versions = client.get(f"/api/v1/plans/{plan['id']}/versions", headers=owner.headers).json()
    assert [(v["version"], v["jobs"][0]["bs"], v["runs"]) for v in versions["items"]] == [
        (2, 65536, 1),
        (1, 4096, 1),
    ]
    assert versions["items"][0]["created_by"] == owner.user.email


def test_renaming_or_describing_a_plan_keeps_its_version(client: TestClient, owner: Caller) -> None:
    plan = _plan(client, owner)
    renamed = client.patch(
        f"/api/v1/plans/{plan['id']}", json={"name": "weekly", "description": "NAS"}, headers=owner.headers
    ).json()
    assert (renamed["name"], renamed["description"], renamed["version"]) == ("weekly", "NAS", 1)
    _plan(client, owner, "other")
    taken = client.patch(f"/api/v1/plans/{plan['id']}", json={"name": "other"}, headers=owner.headers)
    assert taken.status_code == 409
    unchanged = client.patch(f"/api/v1/plans/{plan['id']}", json={}, headers=owner.headers)
    assert unchanged.status_code == 200 and unchanged.json()["version"] == 1
    bad = client.patch(
        f"/api/v1/plans/{plan['id']}", json={"jobs": [{**JOB, "rw": "x"}]}, headers=owner.headers
    )
    assert bad.status_code == 422 and bad.json()["errors"][0]["option"] == "rw"


def test_a_duplicate_is_a_new_plan_named_as_a_copy(client: TestClient, owner: Caller) -> None:
    plan = _plan(client, owner)
    copy = client.post(f"/api/v1/plans/{plan['id']}/duplicate", json={}, headers=owner.headers)
    assert copy.status_code == 201, copy.text
    assert copy.json()["name"] == "nightly (copy)"
    assert copy.json()["jobs"] == plan["jobs"] and copy.json()["id"] != plan["id"]
    again = client.post(f"/api/v1/plans/{plan['id']}/duplicate", json={}, headers=owner.headers).json()
    assert again["name"] == "nightly (copy 2)"
    named = client.post(
        f"/api/v1/plans/{plan['id']}/duplicate", json={"name": "nightly"}, headers=owner.headers
    )
    assert named.status_code == 409


def test_deleting_a_plan_keeps_its_runs_with_its_name_and_is_audited(
    client: TestClient, owner: Caller, db: Session
) -> None:
    host, _ = make_host(db, team=owner.team)
    target = make_target(db, host=host)
    plan = _plan(client, owner)
    run = client.post(
        "/api/v1/runs", json={"target_id": target.id, "plan_id": plan["id"]}, headers=owner.headers
    ).json()
    assert client.delete(f"/api/v1/plans/{plan['id']}", headers=owner.headers).status_code == 204
    assert client.get(f"/api/v1/plans/{plan['id']}", headers=owner.headers).status_code == 404
    kept = client.get(f"/api/v1/runs/{run['id']}", headers=owner.headers).json()
    assert (kept["plan_id"], kept["plan_name"], kept["plan_version"]) == (None, "nightly", 1)
    events = client.get("/api/v1/audit", headers=owner.headers).json()["items"]
    assert any(e["action"] == "plan.deleted" and e["details"]["name"] == "nightly" for e in events)


def test_another_teams_plan_cannot_be_edited_copied_or_deleted(
    client: TestClient, owner: Caller, db: Session
) -> None:
    plan = _plan(client, owner)
    other = make_caller(db)
    assert (
        client.patch(f"/api/v1/plans/{plan['id']}", json={"name": "x"}, headers=other.headers).status_code
        == 404
    )
    assert (
        client.post(f"/api/v1/plans/{plan['id']}/duplicate", json={}, headers=other.headers).status_code
        == 404
    )
    assert client.delete(f"/api/v1/plans/{plan['id']}", headers=other.headers).status_code == 404
