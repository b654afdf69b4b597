"""Schedules through the API, and the scheduler firing them (driven by an injected clock)."""

from datetime import timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session

from storbench_api.db import utcnow
from storbench_api.models import Membership, Role, Run
from storbench_api.models.schedule import Schedule
from storbench_api.models.webhook import Webhook, WebhookDelivery
from storbench_api.schedules.scheduler import fire_due_once
from storbench_api.settings import get_settings
from tests.conftest import Caller, make_caller
from tests.schedules.conftest import Setup, make_setup


def _create(client: TestClient, caller: Caller, setup: Setup, **fields: Any) -> Any:
    body = {
        "name": "nightly",
        "plan_id": setup.plan.id,
        "target_id": setup.target.id,
        "cron": "0 * * * *",
        "timezone": "UTC",
        **fields,
    }
    return client.post("/api/v1/schedules", json=body, headers=caller.headers)


def _firings(client: TestClient, caller: Caller, schedule_id: int) -> list[dict[str, Any]]:
    response = client.get(f"/api/v1/schedules/{schedule_id}/firings", headers=caller.headers)
    assert response.status_code == 200, response.text
    items: list[dict[str, Any]] = response.json()["items"]
    return items


def _runs_of_team(db: Session, team_id: int) -> list[Run]:
    return list(db.scalars(select(Run).where(Run.team_id == team_id).order_by(Run.id)))


def test_a_schedule_shows_its_next_three_slots(client: TestClient, owner: Caller, setup: Setup) -> None:
    created = _create(client, owner, setup, cron="30  2 * * *", timezone="Europe/Berlin", label="nightly NAS")
    assert created.status_code == 201, created.text
    body = created.json()
    assert body["cron"] == "30 2 * * *" and body["timezone"] == "Europe/Berlin" and body["enabled"]
    assert body["plan"] == {"id": setup.plan.id, "name": "nightly randread"}
    assert body["target"]["name"] == setup.target.name
    assert body["created_by"] == owner.user.email
    times = body["next_fire_times"]
    assert len(times) == 3 and times == sorted(times) and times[0] == body["next_fire_at"]
    preview = client.get(
        "/api/v1/schedules/next-slots",
        params={"cron": "0 9 * * 1-5", "timezone": "Asia/Tokyo"},
        headers=owner.headers,
    )
    assert preview.status_code == 200 and len(preview.json()["next_fire_times"]) == 3


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"cron": "0 25 * * *"}, "cron"),
        ({"cron": "0 2 * *"}, "cron"),
        ({"timezone": "Mars/Base"}, "timezone"),
    ],
)
def test_a_bad_cron_or_timezone_is_a_422_naming_the_field(
    client: TestClient, owner: Caller, setup: Setup, fields: dict[str, str], field: str
) -> None:
    response = _create(client, owner, setup, **fields)
    assert response.status_code == 422, response.text
    assert response.json()["errors"][0]["field"] == field
    preview = client.get(
        "/api/v1/schedules/next-slots",
        params={"cron": "0 2 * * *", "timezone": "UTC", **fields},
        headers=owner.headers,
    )
    assert preview.status_code == 422 and preview.json()["errors"][0]["field"] == field


def test_teams_never_see_or_use_each_others_schedules(
    client: TestClient, db: Session, owner: Caller, setup: Setup
) -> None:
    schedule = _create(client, owner, setup).json()
    stranger = make_caller(db)
    assert client.get(f"/api/v1/schedules/{schedule['id']}", headers=stranger.headers).status_code == 404
    assert (
        client.get(f"/api/v1/schedules/{schedule['id']}/firings", headers=stranger.headers).status_code == 404
    )
    assert client.delete(f"/api/v1/schedules/{schedule['id']}", headers=stranger.headers).status_code == 404
    assert client.get("/api/v1/schedules", headers=stranger.headers).json()["items"] == []
    # Nor schedule our plan on their target.
    theirs = make_setup(db, stranger)
    mixed = _create(client, stranger, theirs, plan_id=setup.plan.id)
    assert mixed.status_code == 422 and mixed.json()["errors"][0]["field"] == "plan_id"
    viewer = make_caller(db, team=owner.team, role=Role.viewer)
    assert _create(client, viewer, setup).status_code == 403
    assert client.get("/api/v1/schedules", headers=viewer.headers).status_code == 200


def test_a_due_slot_starts_one_run_with_the_schedules_label(
    client: TestClient, db: Session, owner: Caller, setup: Setup, scheduler_in_test_transaction: None
) -> None:
    schedule = _create(client, owner, setup, label="nightly NAS").json()
    slot = schedule["next_fire_at"]
    row = db.get_one(Schedule, schedule["id"])
    at = row.next_fire_at
    assert at is not None
    [fired] = fire_due_once(now=lambda: at + timedelta(seconds=5))
    assert fired.status == "started" and fired.missed == 0 and fired.run_id is not None
    # The same moment again, and a little later: nothing more to fire.
    assert fire_due_once(now=lambda: at + timedelta(seconds=6)) == []
    assert fire_due_once(now=lambda: at + timedelta(minutes=30)) == []
    db.expire_all()
    [run] = _runs_of_team(db, owner.team.id)
    assert run.id == fired.run_id and run.plan_id == setup.plan.id and run.target_id == setup.target.id
    assert run.label == "nightly NAS" and run.created_by_id == owner.user.id
    [firing] = _firings(client, owner, schedule["id"])
    assert firing["status"] == "started" and firing["run_id"] == run.id
    assert firing["slot_at"].replace("Z", "+00:00") == slot.replace("Z", "+00:00")
    after = client.get(f"/api/v1/schedules/{schedule['id']}", headers=owner.headers).json()
    assert after["next_fire_at"] > slot and after["last_firing"]["status"] == "started"


def test_slots_missed_while_down_are_recorded_and_only_the_latest_starts(
    client: TestClient,
    db: Session,
    owner: Caller,
    setup: Setup,
    scheduler_in_test_transaction: None,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(get_settings(), "schedule_missed_listed", 3)
    schedule = _create(client, owner, setup).json()
    first = db.get_one(Schedule, schedule["id"]).next_fire_at
    assert first is not None
    # Storbench was down for 6 hours and 10 minutes: 7 hourly slots came; the last one starts.
    [fired] = fire_due_once(now=lambda: first + timedelta(hours=6, minutes=10))
    assert fired.slot_at == first + timedelta(hours=6) and fired.status == "started" and fired.missed == 6
    firings = _firings(client, owner, schedule["id"])
    assert [f["status"] for f in firings] == ["started", "missed", "missed", "missed", "missed"]
    listed, summary = firings[1:4], firings[4]
    assert all(f["missed_count"] == 1 and "no scheduler ran" in f["reason"] for f in listed)
    assert summary["missed_count"] == 3 and "3 slots" in summary["reason"]
    assert sum(f["missed_count"] for f in firings[1:]) == 6
    assert len(_runs_of_team(db, owner.team.id)) == 1
    listed_schedule = client.get("/api/v1/schedules", headers=owner.headers).json()["items"][0]
    assert listed_schedule["missed_total"] == 6


def test_a_removed_creators_schedule_does_not_fire_and_says_why(
    client: TestClient, db: Session, owner: Caller, setup: Setup, scheduler_in_test_transaction: None
) -> None:
    member = make_caller(db, team=owner.team, role=Role.member)
    schedule = _create(client, member, setup).json()
    hook = Webhook(
        team_id=owner.team.id,
        url="https://93.184.215.14/x",
        secret="whsec_x",
        events=["schedule.firing_failed"],
    )
    db.add(hook)
    db.delete(db.scalars(select(Membership).where(Membership.user_id == member.user.id)).one())
    db.commit()
    at = db.get_one(Schedule, schedule["id"]).next_fire_at
    assert at is not None
    [fired] = fire_due_once(now=lambda: at + timedelta(seconds=1))
    assert fired.status == "failed" and fired.run_id is None
    [firing] = _firings(client, owner, schedule["id"])
    assert firing["status"] == "failed" and "no longer a member" in firing["reason"]
    assert _runs_of_team(db, owner.team.id) == []
    [sent] = db.scalars(select(WebhookDelivery).where(WebhookDelivery.webhook_id == hook.id)).all()
    assert sent.event == "schedule.firing_failed" and sent.payload["schedule_id"] == schedule["id"]


def test_a_refused_start_is_a_failed_firing_with_the_refusal(
    client: TestClient, db: Session, owner: Caller, setup: Setup, scheduler_in_test_transaction: None
) -> None:
    schedule = _create(client, owner, setup).json()
    setup.host.last_seen_at = utcnow() - timedelta(hours=1)  # the host went offline
    db.commit()
    at = db.get_one(Schedule, schedule["id"]).next_fire_at
    assert at is not None
    [fired] = fire_due_once(now=lambda: at + timedelta(seconds=1))
    assert fired.status == "failed"
    [firing] = _firings(client, owner, schedule["id"])
    assert firing["reason"].startswith("the run was refused") and setup.host.name in firing["reason"]


def test_a_disabled_schedule_does_not_fire_and_re_enabling_owes_only_future_slots(
    client: TestClient, db: Session, owner: Caller, setup: Setup, scheduler_in_test_transaction: None
) -> None:
    schedule = _create(client, owner, setup, enabled=False).json()
    assert schedule["next_fire_times"] == []
    later = utcnow() + timedelta(days=2)
    assert fire_due_once(now=lambda: later) == []
    enabled = client.patch(
        f"/api/v1/schedules/{schedule['id']}", json={"enabled": True}, headers=owner.headers
    )
    assert enabled.status_code == 200 and len(enabled.json()["next_fire_times"]) == 3
    assert _firings(client, owner, schedule["id"]) == []
    assert client.delete(f"/api/v1/schedules/{schedule['id']}", headers=owner.headers).status_code == 204
    assert client.get(f"/api/v1/schedules/{schedule['id']}", headers=owner.headers).status_code == 404


def test_a_long_outage_lists_the_latest_missed_slots_and_counts_the_rest(
    client: TestClient,
    db: Session,
    owner: Caller,
    setup: Setup,
    scheduler_in_test_transaction: None,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from storbench_api.schedules import scheduler

    monkeypatch.setattr(get_settings(), "schedule_missed_listed", 3)
    monkeypatch.setattr(get_settings(), "schedule_min_interval", timedelta(0))  # an operator may allow it
    monkeypatch.setattr(scheduler, "_COUNT_CAP", 5)  # more slots than the scheduler walks one by one
    schedule = _create(client, owner, setup, cron="* * * * *").json()
    first = db.get_one(Schedule, schedule["id"]).next_fire_at
    assert first is not None
    [fired] = fire_due_once(now=lambda: first + timedelta(minutes=30, seconds=20))
    assert fired.slot_at == first + timedelta(minutes=30) and fired.missed == 30
    firings = _firings(client, owner, schedule["id"])
    assert [f["status"] for f in firings] == ["started", "missed", "missed", "missed", "missed"]
    listed = [f["slot_at"] for f in firings[1:4]]
    expected = [first + timedelta(minutes=m) for m in (29, 28, 27)]
    assert [s.replace("Z", "+00:00") for s in listed] == [e.isoformat() for e in expected]
    summary = firings[4]
    assert summary["missed_count"] == 27 and summary["slot_at"].replace("Z", "+00:00") == first.isoformat()


def test_a_plan_run_by_a_schedule_is_not_deleted_under_it(
    client: TestClient, owner: Caller, setup: Setup
) -> None:
    schedule = _create(client, owner, setup).json()
    refused = client.delete(f"/api/v1/plans/{setup.plan.id}", headers=owner.headers)
    assert refused.status_code == 409, refused.text
    assert "nightly" in refused.json()["message"] and "schedule" in refused.json()["message"]
    assert client.get(f"/api/v1/schedules/{schedule['id']}", headers=owner.headers).status_code == 200
    # Once the schedule is gone the plan can go.
    assert client.delete(f"/api/v1/schedules/{schedule['id']}", headers=owner.headers).status_code == 204
    assert client.delete(f"/api/v1/plans/{setup.plan.id}", headers=owner.headers).status_code == 204


@pytest.mark.parametrize("expression", ["* * * * *", "*/5 * * * *", "0,10 3 * * *", "55,5 2,3 * * *"])
def test_a_cron_firing_closer_than_the_minimum_interval_is_refused(
    client: TestClient, owner: Caller, setup: Setup, expression: str
) -> None:
    refused = _create(client, owner, setup, cron=expression)
    assert refused.status_code == 422, refused.text
    assert "at least 15 min apart" in refused.json()["message"]
    assert refused.json()["errors"][0]["field"] == "cron"
    schedule = _create(client, owner, setup).json()
    changed = client.patch(
        f"/api/v1/schedules/{schedule['id']}", json={"cron": expression}, headers=owner.headers
    )
    assert changed.status_code == 422


@pytest.mark.parametrize("expression", ["*/15 * * * *", "0,30 3 * * *", "55 2,4 * * *", "50 23 * * *"])
def test_a_cron_at_least_the_minimum_interval_apart_is_accepted(
    client: TestClient, owner: Caller, setup: Setup, expression: str
) -> None:
    assert _create(client, owner, setup, cron=expression).status_code == 201
