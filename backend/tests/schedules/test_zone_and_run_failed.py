"""Schedules name the zone of their next slots; a scheduled run that fails is told, not only the slot."""

from datetime import timedelta
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session

from storbench_api.models import Assignment, Run
from storbench_api.models.schedule import Schedule
from storbench_api.models.webhook import WebhookDelivery
from storbench_api.runs import lifecycle
from storbench_api.runs import repository as runs_repository
from storbench_api.schedules.scheduler import fire_due_once
from tests.conftest import Caller
from tests.schedules.conftest import Setup


def _create(client: TestClient, owner: Caller, setup: Setup, **fields: Any) -> Any:
    body = {
        "name": "nightly",
        "plan_id": setup.plan.id,
        "target_id": setup.target.id,
        "cron": "0 * * * *",
        "timezone": "UTC",
        **fields,
    }
    response = client.post("/api/v1/schedules", json=body, headers=owner.headers)
    assert response.status_code == 201, response.text
    return response.json()


def test_next_slots_carry_the_zones_offset_and_name(client: TestClient, owner: Caller, setup: Setup) -> None:
    body = _create(client, owner, setup, cron="30 2 * * *", timezone="Europe/Berlin")
    slots = body["next_slots"]
    assert len(slots) == 3
    for slot, utc in zip(slots, body["next_fire_times"], strict=True):
        assert slot["timezone"] == "Europe/Berlin"
        assert slot["abbreviation"] in ("CET", "CEST")
        assert slot["utc_offset"] == ("+01:00" if slot["abbreviation"] == "CET" else "+02:00")
        assert slot["at"][11:19] == "02:30:00"
        assert slot["at"].endswith(slot["utc_offset"])
        assert utc.endswith("Z") or utc.endswith("+00:00")
    preview = client.get(
        "/api/v1/schedules/next-slots",
        params={"cron": "0 9 * * 1-5", "timezone": "Asia/Tokyo"},
        headers=owner.headers,
    ).json()
    shown = [(s["abbreviation"], s["at"][11:]) for s in preview["next_slots"]]
    assert shown == [("JST", "09:00:00+09:00")] * 3


def test_a_scheduled_run_that_fails_marks_its_slot_and_fires_an_event(
    client: TestClient, db: Session, owner: Caller, setup: Setup, scheduler_in_test_transaction: None
) -> None:
    hook = client.post(
        "/api/v1/webhooks",
        json={"url": "https://93.184.215.14/hook", "events": ["schedule.run_failed"]},
        headers=owner.headers,
    )
    assert hook.status_code == 201, hook.text
    schedule = _create(client, owner, setup)
    at = db.get_one(Schedule, schedule["id"]).next_fire_at
    assert at is not None
    [fired] = fire_due_once(now=lambda: at + timedelta(seconds=1))
    assert fired.status == "started" and fired.run_id is not None
    db.expire_all()
    found = db.scalar(select(Assignment.id).where(Assignment.run_id == fired.run_id))
    assert found is not None
    assignment = runs_repository.get_assignment_for_host(db, setup.host.id, found)
    assert assignment is not None
    lifecycle.record_failure(db, assignment, "fio: No space left on device")
    db.commit()

    assert db.get_one(Run, fired.run_id).status == "failed"
    firings = client.get(f"/api/v1/schedules/{schedule['id']}/firings", headers=owner.headers).json()
    [firing] = firings["items"]
    assert firing["status"] == "run_failed" and "No space left on device" in firing["reason"]
    [delivery] = db.scalars(select(WebhookDelivery).where(WebhookDelivery.team_id == owner.team.id))
    assert delivery.event == "schedule.run_failed"
    assert delivery.payload["run_id"] == fired.run_id and delivery.payload["schedule"] == "nightly"
    assert "No space left on device" in delivery.payload["reason"]
