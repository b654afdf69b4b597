"""A team's fleet: hosts removed (history kept), renamed, labelled, deleted when they never connected."""

from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session

from storbench_api.models import Assignment, Host, Role
from tests.conftest import Caller, make_caller, make_host, make_target

JOB = {"name": "r", "rw": "randread", "bs": "4k", "size": "16m", "runtime": 1}


def _worker(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _audit(client: TestClient, owner: Caller) -> list[dict[str, object]]:
    items: list[dict[str, object]] = client.get("/api/v1/audit", headers=owner.headers).json()["items"]
    return items


def _names(client: TestClient, caller: Caller) -> list[str]:
    return [h["name"] for h in client.get("/api/v1/hosts", headers=caller.headers).json()["items"]]


# ---- remove -------------------------------------------------------------------------------------


def test_a_removed_host_leaves_lists_and_pickers_but_its_runs_stay(
    client: TestClient, db: Session, owner: Caller
) -> None:
    host, token = make_host(db, team=owner.team, name="nas-client-01")
    target = make_target(db, host=host, name="nas on client 01")
    run = client.post("/api/v1/runs", json={"target_id": target.id, "jobs": [JOB]}, headers=owner.headers)
    assert run.status_code == 201, run.text

    removed = client.post(f"/api/v1/hosts/{host.id}/remove", headers=owner.headers)
    assert removed.status_code == 204, removed.text

    assert "nas-client-01" not in _names(client, owner)
    assert client.get(f"/api/v1/hosts/{host.id}", headers=owner.headers).status_code == 404
    targets = client.get("/api/v1/targets", headers=owner.headers).json()["items"]
    assert target.id not in [t["id"] for t in targets]
    # Its credential is gone, and so is the work it had not done.
    assert client.get("/api/v1/worker/me", headers=_worker(token)).status_code == 401
    kept = client.get(f"/api/v1/runs/{run.json()['id']}", headers=owner.headers)
    assert kept.status_code == 200
    assert kept.json()["status"] == "failed"
    assert "nas-client-01' was removed" in kept.json()["error"]
    assert db.scalars(select(Assignment).where(Assignment.host_id == host.id)).all()
    # Picked for a run by id or label, it is not there.
    other, _ = make_host(db, team=owner.team, name="nas-client-02")
    other_target = make_target(db, host=other, name="nas on client 02")
    picked = client.post(
        "/api/v1/runs",
        json={"target_id": other_target.id, "host_ids": [host.id], "jobs": [JOB]},
        headers=owner.headers,
    )
    assert picked.status_code == 422
    assert "does not exist" in picked.json()["message"]
    event = next(e for e in _audit(client, owner) if e["action"] == "host.removed")
    assert event["hosts"] == ["nas-client-01"]
    assert event["actor"] == owner.user.email


def test_a_removed_hosts_name_is_free_for_a_new_host(client: TestClient, db: Session, owner: Caller) -> None:
    host, _ = make_host(db, team=owner.team, name="nas-client-01")
    assert client.post(f"/api/v1/hosts/{host.id}/remove", headers=owner.headers).status_code == 204
    again = client.post("/api/v1/hosts", json={"name": "nas-client-01"}, headers=owner.headers)
    assert again.status_code == 201, again.text
    assert again.json()["id"] != host.id
    assert _names(client, owner) == ["nas-client-01"]


def test_only_owners_remove_hosts_and_only_their_teams(
    client: TestClient, db: Session, owner: Caller
) -> None:
    host, token = make_host(db, team=owner.team)
    member = make_caller(db, team=owner.team, role=Role.member)
    refused = client.post(f"/api/v1/hosts/{host.id}/remove", headers=member.headers)
    assert refused.status_code == 403
    stranger = make_caller(db)
    assert client.post(f"/api/v1/hosts/{host.id}/remove", headers=stranger.headers).status_code == 404
    assert client.get("/api/v1/worker/me", headers=_worker(token)).status_code == 200
    assert _names(client, owner) == ["host-a"]


def test_removing_a_host_twice_answers_404_the_second_time(
    client: TestClient, db: Session, owner: Caller
) -> None:
    host, _ = make_host(db, team=owner.team)
    assert client.post(f"/api/v1/hosts/{host.id}/remove", headers=owner.headers).status_code == 204
    again = client.post(f"/api/v1/hosts/{host.id}/remove", headers=owner.headers)
    assert again.status_code == 404
    assert again.json()["code"]


# ---- rename and labels --------------------------------------------------------------------------


def test_a_host_is_renamed_and_the_audit_says_from_what(
    client: TestClient, db: Session, owner: Caller
) -> None:
    host, token = make_host(db, team=owner.team, name="old-name")
    member = make_caller(db, team=owner.team, role=Role.member)
    renamed = client.patch(f"/api/v1/hosts/{host.id}", json={"name": "new-name"}, headers=member.headers)
    assert renamed.status_code == 200, renamed.text
    assert renamed.json()["name"] == "new-name"
    assert _names(client, owner) == ["new-name"]
    assert client.get("/api/v1/worker/me", headers=_worker(token)).json()["name"] == "new-name"
    event = next(e for e in _audit(client, owner) if e["action"] == "host.renamed")
    assert event["details"] == {"name": "new-name", "previous_name": "old-name"}


def test_renaming_to_a_taken_name_is_a_clear_409(client: TestClient, db: Session, owner: Caller) -> None:
    host, _ = make_host(db, team=owner.team, name="a")
    make_host(db, team=owner.team, name="b")
    taken = client.patch(f"/api/v1/hosts/{host.id}", json={"name": "b"}, headers=owner.headers)
    assert taken.status_code == 409
    assert taken.json()["message"] == "a host named 'b' already exists in this team: choose another name"
    assert sorted(_names(client, owner)) == ["a", "b"]


def test_the_same_name_in_another_team_is_fine(client: TestClient, db: Session, owner: Caller) -> None:
    stranger = make_caller(db)
    make_host(db, team=stranger.team, name="shared-name")
    host, _ = make_host(db, team=owner.team, name="mine")
    renamed = client.patch(f"/api/v1/hosts/{host.id}", json={"name": "shared-name"}, headers=owner.headers)
    assert renamed.status_code == 200, renamed.text


def test_a_bad_name_is_refused_with_the_field_named(client: TestClient, db: Session, owner: Caller) -> None:
    host, _ = make_host(db, team=owner.team)
    for bad in ("two words", "", "-dash-first", "x" * 121):
        response = client.patch(f"/api/v1/hosts/{host.id}", json={"name": bad}, headers=owner.headers)
        assert response.status_code == 422, bad
        assert response.json()["errors"][0]["field"] == "name"
    null = client.patch(f"/api/v1/hosts/{host.id}", json={"name": 5}, headers=owner.headers)
    assert null.status_code == 422


def test_viewers_and_other_teams_cannot_rename(client: TestClient, db: Session, owner: Caller) -> None:
    host, _ = make_host(db, team=owner.team, name="keep")
    viewer = make_caller(db, team=owner.team, role=Role.viewer)
    assert (
        client.patch(f"/api/v1/hosts/{host.id}", json={"name": "x"}, headers=viewer.headers).status_code
        == 403
    )
    stranger = make_caller(db)
    assert (
        client.patch(f"/api/v1/hosts/{host.id}", json={"name": "x"}, headers=stranger.headers).status_code
        == 404
    )
    assert _names(client, owner) == ["keep"]


def test_labels_change_without_the_name_and_are_audited(
    client: TestClient, db: Session, owner: Caller
) -> None:
    host, _ = make_host(db, team=owner.team, name="keep")
    changed = client.patch(
        f"/api/v1/hosts/{host.id}", json={"labels": ["rack4", "nfs", "rack4"]}, headers=owner.headers
    )
    assert changed.status_code == 200, changed.text
    assert changed.json() == {**changed.json(), "name": "keep", "labels": ["nfs", "rack4"]}
    event = next(e for e in _audit(client, owner) if e["action"] == "host.labelled")
    assert event["details"] == {"labels": ["nfs", "rack4"]}
    bad = client.patch(f"/api/v1/hosts/{host.id}", json={"labels": ["no spaces"]}, headers=owner.headers)
    assert bad.status_code == 422


# ---- delete ---------------------------------------------------------------------------------------


def test_a_host_that_never_connected_is_deleted_with_its_targets(
    client: TestClient, db: Session, owner: Caller
) -> None:
    host, _ = make_host(db, team=owner.team, name="typo-host", online=False)
    target = make_target(db, host=host)
    deleted = client.delete(f"/api/v1/hosts/{host.id}", headers=owner.headers)
    assert deleted.status_code == 204, deleted.text
    assert client.get(f"/api/v1/hosts/{host.id}", headers=owner.headers).status_code == 404
    assert client.get(f"/api/v1/targets/{target.id}", headers=owner.headers).status_code == 404
    db.expire_all()
    assert db.get(Host, host.id) is None
    event = next(e for e in _audit(client, owner) if e["action"] == "host.deleted")
    assert event["hosts"] == ["typo-host"]


def test_a_host_that_connected_or_ran_is_removed_not_deleted(
    client: TestClient, db: Session, owner: Caller
) -> None:
    connected, _ = make_host(db, team=owner.team, name="connected", online=True)
    refused = client.delete(f"/api/v1/hosts/{connected.id}", headers=owner.headers)
    assert refused.status_code == 409
    assert "remove it instead" in refused.json()["message"]
    ran, _ = make_host(db, team=owner.team, name="ran", online=True)
    target = make_target(db, host=ran)
    assert (
        client.post(
            "/api/v1/runs", json={"target_id": target.id, "jobs": [JOB]}, headers=owner.headers
        ).status_code
        == 201
    )
    ran.last_seen_at = None  # it went silent, but it has a run
    db.commit()
    assert client.delete(f"/api/v1/hosts/{ran.id}", headers=owner.headers).status_code == 409
    assert sorted(_names(client, owner)) == ["connected", "ran"]


def test_only_owners_delete_and_only_their_teams_hosts(
    client: TestClient, db: Session, owner: Caller
) -> None:
    host, _ = make_host(db, team=owner.team, online=False)
    member = make_caller(db, team=owner.team, role=Role.member)
    assert client.delete(f"/api/v1/hosts/{host.id}", headers=member.headers).status_code == 403
    stranger = make_caller(db)
    assert client.delete(f"/api/v1/hosts/{host.id}", headers=stranger.headers).status_code == 404
    assert _names(client, owner) == ["host-a"]
