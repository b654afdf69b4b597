"""GET /attention: what the dashboard's panel and `storbench attention` list, on real PostgreSQL."""

from datetime import timedelta
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session

from storbench_api.db import utcnow
from storbench_api.models import (
    ChangePoint,
    FiringStatus,
    Result,
    RunStatus,
    Schedule,
    ScheduleFiring,
    StorageClass,
    StorageClassSpec,
    Target,
)
from tests.conftest import Caller, make_caller, make_host, make_target
from tests.support.factories import make_plan, make_result, make_run

API = "/api/v1/attention"


def _items(client: TestClient, caller: Caller, query: str = "") -> list[dict[str, Any]]:
    response = client.get(f"{API}{query}", headers=caller.headers)
    assert response.status_code == 200, response.text
    items: list[dict[str, Any]] = response.json()["items"]
    return items


def _step(
    db: Session, target: Target, result: Result, *, acknowledged: bool = False, kind: str = "regression"
) -> int:
    """A step of two figures (IOPS down, latency up) at a result; the id of its first change."""
    ids: list[int] = []
    for metric, before, after in (("iops", 10_000.0, 7_000.0), ("lat_mean_ns", 320_000.0, 457_000.0)):
        point = ChangePoint(
            team_id=target.team_id,
            target_id=target.id,
            job_name=result.job_name,
            direction="read",
            metric=metric,
            fingerprint=None,
            result_id=result.id,
            measured_at=result.measured_at,
            kind=kind,
            before_median=before,
            after_median=after,
            ratio=after / before,
            p_value=0.001,
            method="e_divisive",
            acknowledged_at=utcnow() if acknowledged else None,
            acknowledged_by="someone@example.com" if acknowledged else None,
            step_id=ids[0] if ids else None,
        )
        db.add(point)
        db.flush()
        if not ids:
            point.step_id = point.id
        ids.append(point.id)
    db.commit()
    return ids[0]


def test_all_is_well_for_a_team_with_an_online_host(client: TestClient, db: Session, owner: Caller) -> None:
    make_host(db, team=owner.team, name="busy-bee")
    response = client.get(API, headers=owner.headers)
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["items"] == []
    assert body["truncated"] is False
    assert body["limit"] == 10


def test_a_regression_step_is_one_item_until_acknowledged(
    client: TestClient, db: Session, owner: Caller
) -> None:
    host, _ = make_host(db, team=owner.team)
    target = make_target(db, host=host, name="nas-a")
    step = _step(db, target, make_result(db, team=owner.team, target=target))
    _step(db, target, make_result(db, team=owner.team, target=target), acknowledged=True)
    _step(db, target, make_result(db, team=owner.team, target=target), kind="improvement")

    (item,) = _items(client, owner)
    assert item["kind"] == "regression"
    assert item["id"] == step
    assert item["link"] == "/regressions"
    assert item["sentence"] == (
        "IOPS of randread-4k (read) on nas-a went from 10,000 to 7,000 (-30%): "
        "a regression nobody has acknowledged"
    )

    acknowledged = client.post(
        f"/api/v1/regressions/{step}/acknowledge", json={"comment": "noisy neighbour"}, headers=owner.headers
    )
    assert acknowledged.status_code == 200, acknowledged.text
    assert _items(client, owner) == []


def test_failed_runs_show_until_a_later_run_of_the_plan_completes(
    client: TestClient, db: Session, owner: Caller
) -> None:
    host, _ = make_host(db, team=owner.team)
    target = make_target(db, host=host, name="nas-a")
    nightly, weekly = make_plan(db, team=owner.team), make_plan(db, team=owner.team, name="weekly")
    fixed = make_run(db, target=target, plan=weekly, status=RunStatus.failed, error="fio: bad option")
    make_run(db, target=target, plan=weekly, status=RunStatus.completed)
    failed = make_run(
        db, target=target, plan=nightly, status=RunStatus.failed, error="fio exited 1\nfull log follows"
    )
    make_run(db, target=target, plan=nightly, status=RunStatus.cancelled)
    old = make_run(db, target=target, plan=nightly, status=RunStatus.failed, error="old")
    old.updated_at = utcnow() - timedelta(days=30)
    db.commit()

    items = _items(client, owner)
    assert [(i["kind"], i["id"], i["link"]) for i in items] == [
        ("failed_run", failed.id, f"/runs/{failed.id}")
    ]
    assert items[0]["sentence"] == f"Run {failed.id} (plan nightly randread on nas-a) failed: fio exited 1"
    assert fixed.id not in [i["id"] for i in items]
    # A wider window finds the old one too.
    assert [i["id"] for i in _items(client, owner, "?days=60")] == [failed.id, old.id]


def test_refused_and_missed_slots_show_until_a_later_slot_starts(
    client: TestClient, db: Session, owner: Caller
) -> None:
    host, _ = make_host(db, team=owner.team)
    target = make_target(db, host=host, name="nas-a")
    plan = make_plan(db, team=owner.team)
    schedule = Schedule(
        team_id=owner.team.id,
        name="nightly",
        plan_id=plan.id,
        target_id=target.id,
        cron="0 2 * * *",
        timezone="UTC",
    )
    db.add(schedule)
    db.flush()
    now = utcnow().replace(microsecond=0)
    for days_ago, status, reason in (
        (3, FiringStatus.missed, "the scheduler was down"),
        (2, FiringStatus.started, None),
        (1, FiringStatus.failed, "target 'nas-a' is on a revoked host"),
    ):
        db.add(
            ScheduleFiring(
                schedule_id=schedule.id,
                team_id=owner.team.id,
                slot_at=now - timedelta(days=days_ago),
                status=status,
                reason=reason,
            )
        )
    db.commit()

    (item,) = _items(client, owner)
    assert item["kind"] == "failed_slot"
    assert item["link"] == "/schedules"
    assert item["sentence"].startswith("Schedule 'nightly' could not start its run at ")
    assert item["sentence"].endswith(": target 'nas-a' is on a revoked host")


def test_revoked_and_never_connected_hosts_are_not_online(
    client: TestClient, db: Session, owner: Caller
) -> None:
    make_host(db, team=owner.team, name="fine")
    make_host(db, team=owner.team, name="new-one", online=False)
    revoked, _ = make_host(db, team=owner.team, name="stolen")
    removed, _ = make_host(db, team=owner.team, name="gone")
    stale, _ = make_host(db, team=owner.team, name="quiet")
    revoked.revoked_at = utcnow()
    removed.revoked_at = removed.removed_at = utcnow()
    stale.last_seen_at = utcnow() - timedelta(hours=2)
    db.commit()

    items = _items(client, owner)
    assert [(i["kind"], i["link"]) for i in items] == [
        ("host_revoked", "/hosts"),
        ("host_offline", "/hosts"),
        ("host_offline", "/hosts"),
    ]
    assert items[0]["sentence"].startswith("Host 'stolen' was revoked")
    offline = {i["sentence"].split("'")[1]: i["sentence"] for i in items[1:]}
    assert set(offline) == {"new-one", "quiet"}
    assert "has never connected" in offline["new-one"]
    assert "is offline (last heartbeat" in offline["quiet"]


def _check(verdict: str, percent: float) -> dict[str, Any]:
    return {
        "direction": "read",
        "metric": "iops",
        "workload": "any",
        "unit": "IOPS",
        "expected": 20000,
        "low": None,
        "measured": 200 * percent,
        "percent": percent,
        "verdict": verdict,
        "formula": "20000",
    }


def test_a_series_whose_newest_result_is_below_spec(client: TestClient, db: Session, owner: Caller) -> None:
    spec = db.scalars(
        select(StorageClassSpec).join(StorageClass).where(StorageClass.name == "SSD cloud disk")
    ).first()
    assert spec is not None
    host, _ = make_host(db, team=owner.team)
    target = make_target(db, host=host, name="ebs-a")
    now = utcnow()

    def judged(job: str, verdict: str, percent: float, hours_ago: int, **columns: Any) -> Result:
        return make_result(
            db,
            team=owner.team,
            target=target,
            job_name=job,
            measured_at=now - timedelta(hours=hours_ago),
            storage_class_spec_id=spec.id,
            spec_checks=[_check(verdict, percent)],
            **columns,
        )

    judged("randread", "meets", 101, 3)
    low = judged("randread", "below", 62, 2, label="after firmware 2.1")
    judged("randwrite", "below", 50, 3)
    judged("randwrite", "meets", 99, 1)  # measured again since: fine now
    judged("seqread", "below", 40, 24 * 30)  # older than the window

    (item,) = _items(client, owner)
    assert item["kind"] == "below_spec"
    assert item["link"] == f"/results/{low.id}"
    assert (
        item["sentence"]
        == "randread 'after firmware 2.1' on ebs-a is below its spec: read iops 62% of 20,000 IOPS"
    )


def test_items_are_the_team_s_own_bounded_per_kind(client: TestClient, db: Session, owner: Caller) -> None:
    other = make_caller(db)
    make_host(db, team=other.team, name="theirs", online=False)
    for index in range(3):
        make_host(db, team=owner.team, name=f"off-{index}", online=False)

    response = client.get(f"{API}?limit=2", headers=owner.headers)
    body = response.json()
    # Newest first: the hosts registered last.
    assert [i["sentence"].split("'")[1] for i in body["items"]] == ["off-2", "off-1"]
    assert body["truncated"] is True
    assert [i["kind"] for i in _items(client, other)] == ["host_offline"]
    assert client.get(f"{API}?days=0", headers=owner.headers).status_code == 422
    assert client.get(API).status_code == 401
