"""Shared files: one host lays out one set of files for all, the last host to let go removes it."""

from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session

from storbench_api.models import Assignment, Host, Target, TargetKind
from tests.conftest import ONLINE_FACTS, Caller, make_host, make_target

JOB = {"name": "r", "rw": "randread", "bs": "4k", "size": "16m", "runtime": 1}


def _hosts(db: Session, owner: Caller, count: int) -> list[tuple[Host, dict[str, str]]]:
    hosts = []
    for index in range(count):
        host, token = make_host(db, team=owner.team, name=f"client-{index + 1}")
        host.facts = {**ONLINE_FACTS, "clock_offset_ms": 0.3}
        hosts.append((host, {"Authorization": f"Bearer {token}"}))
    db.commit()
    return hosts


def _start(client: TestClient, owner: Caller, target: Target, hosts: list[Host], **extra: object) -> dict:  # type: ignore[type-arg]
    response = client.post(
        "/api/v1/runs",
        json={"target_id": target.id, "jobs": [JOB], "host_ids": [h.id for h in hosts[1:]], **extra},
        headers=owner.headers,
    )
    assert response.status_code == 201, response.text
    run: dict = response.json()  # type: ignore[type-arg]
    return run


def _assignment_ids(db: Session, run_id: int) -> list[int]:
    return list(db.scalars(select(Assignment.id).where(Assignment.run_id == run_id).order_by(Assignment.id)))


def test_one_host_lays_out_the_shared_set_and_the_last_to_let_go_removes_it(
    client: TestClient, db: Session, owner: Caller
) -> None:
    hosts = _hosts(db, owner, 3)
    target = make_target(db, host=hosts[0][0])
    run = _start(client, owner, target, [h for h, _ in hosts], shared_files=True)
    assert run["shared_files"] is True
    ids = _assignment_ids(db, run["id"])
    fetched = [
        client.get(f"/api/v1/worker/assignments/{aid}", headers=auth).json()
        for aid, (_, auth) in zip(ids, hosts, strict=True)
    ]
    assert [a["shared_files"] for a in fetched] == [True, True, True]
    assert [a["lays_out"] for a in fetched] == [True, False, False]
    for aid, (_, auth) in zip(ids, hosts, strict=True):
        assert client.post(f"/api/v1/worker/assignments/{aid}/start", headers=auth).status_code == 200

    def release(index: int) -> bool:
        response = client.post(
            f"/api/v1/worker/assignments/{ids[index]}/files-released", headers=hosts[index][1]
        )
        assert response.status_code == 200, response.text
        return bool(response.json()["remove"])

    # Whoever finishes first must leave the files to the hosts still measuring on them.
    assert release(1) is False
    assert release(0) is False
    assert release(2) is True
    # Asking again (a worker retrying after a lost answer) does not change the verdict.
    assert release(2) is True


def test_each_host_removes_its_own_files_when_they_are_not_shared(
    client: TestClient, db: Session, owner: Caller
) -> None:
    hosts = _hosts(db, owner, 2)
    target = make_target(db, host=hosts[0][0])
    run = _start(client, owner, target, [h for h, _ in hosts])
    assert run["shared_files"] is False
    ids = _assignment_ids(db, run["id"])
    for aid, (_, auth) in zip(ids, hosts, strict=True):
        assert client.get(f"/api/v1/worker/assignments/{aid}", headers=auth).json()["lays_out"] is True
        assert client.post(f"/api/v1/worker/assignments/{aid}/files-released", headers=auth).json() == {
            "remove": True
        }


def test_a_host_that_never_started_does_not_hold_the_shared_files(
    client: TestClient, db: Session, owner: Caller
) -> None:
    hosts = _hosts(db, owner, 2)
    target = make_target(db, host=hosts[0][0])
    run = _start(client, owner, target, [h for h, _ in hosts], shared_files=True)
    ids = _assignment_ids(db, run["id"])
    client.post(
        f"/api/v1/worker/assignments/{ids[1]}/failure", json={"reason": "no mount"}, headers=hosts[1][1]
    )
    released = client.post(f"/api/v1/worker/assignments/{ids[0]}/files-released", headers=hosts[0][1])
    assert released.json() == {"remove": True}


def test_a_plan_asks_for_shared_files_and_a_run_may_say_otherwise(
    client: TestClient, db: Session, owner: Caller
) -> None:
    hosts = _hosts(db, owner, 2)
    target = make_target(db, host=hosts[0][0])
    plan = client.post(
        "/api/v1/plans",
        json={"name": "shared set", "jobs": [JOB], "shared_files": True},
        headers=owner.headers,
    ).json()
    assert plan["shared_files"] is True
    host_ids = [hosts[1][0].id]
    from_plan = client.post(
        "/api/v1/runs",
        json={"target_id": target.id, "plan_id": plan["id"], "host_ids": host_ids},
        headers=owner.headers,
    ).json()
    assert from_plan["shared_files"] is True
    overridden = client.post(
        "/api/v1/runs",
        json={"target_id": target.id, "plan_id": plan["id"], "host_ids": host_ids, "shared_files": False},
        headers=owner.headers,
    ).json()
    assert overridden["shared_files"] is False


def test_shared_files_on_a_block_device_is_refused_with_why(
    client: TestClient, db: Session, owner: Caller
) -> None:
    host, _ = _hosts(db, owner, 1)[0]
    device = Target(
        team_id=host.team_id, host_id=host.id, name="vdb", path="/dev/vdb", kind=TargetKind.block_device
    )
    db.add(device)
    db.commit()
    response = client.post(
        "/api/v1/runs",
        json={"target_id": device.id, "jobs": [{**JOB, "rw": "randread"}], "shared_files": True},
        headers=owner.headers,
    )
    assert response.status_code == 422
    assert response.json()["errors"][0]["field"] == "shared_files"
    assert "block device" in response.json()["message"]
