"""Quotas per team: saved views, schedules, storage classes, webhooks and pending deliveries."""

from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session

from storbench_api.models.webhook import DeliveryStatus, WebhookDelivery
from storbench_api.settings import get_settings
from storbench_api.webhooks.service import enqueue_event
from tests.conftest import Caller, make_caller
from tests.schedules.conftest import Setup, make_setup
from tests.storage_classes.test_router import _team_class

PUBLIC_URL = "https://93.184.215.14/storbench"
EVENT = "change_point.regression"


def _view(client: TestClient, caller: Caller, db: Session, n: int) -> Any:
    body = {"name": f"view {n}", "kind": "groups", "query": {"by": "label"}}
    return client.post("/api/v1/compare/views", json=body, headers=caller.headers)


def _class(client: TestClient, caller: Caller, db: Session, n: int) -> Any:
    return client.post("/api/v1/storage-classes", json=_team_class(name=f"class {n}"), headers=caller.headers)


def _webhook(client: TestClient, caller: Caller, db: Session, n: int) -> Any:
    body = {"url": f"{PUBLIC_URL}/{n}", "events": [EVENT]}
    return client.post("/api/v1/webhooks", json=body, headers=caller.headers)


def _schedule(client: TestClient, caller: Caller, db: Session, n: int) -> Any:
    # One plan and target per team, made at its first schedule.
    setup = _setups.get(caller.team.id) or _setups.setdefault(caller.team.id, make_setup(db, caller))
    body = {"name": f"s{n}", "plan_id": setup.plan.id, "target_id": setup.target.id, "cron": "0 * * * *"}
    return client.post("/api/v1/schedules", json=body, headers=caller.headers)


_setups: dict[int, Setup] = {}
Create = Callable[[TestClient, Caller, Session, int], Any]


@pytest.mark.parametrize(
    ("setting", "create", "path"),
    [
        ("quota_saved_views", _view, "/api/v1/compare/views"),
        ("quota_storage_classes", _class, "/api/v1/storage-classes"),
        ("quota_webhooks", _webhook, "/api/v1/webhooks"),
        ("quota_schedules", _schedule, "/api/v1/schedules"),
    ],
)
def test_a_team_at_its_quota_is_refused_with_the_setting_that_raises_it(
    client: TestClient,
    db: Session,
    owner: Caller,
    monkeypatch: pytest.MonkeyPatch,
    setting: str,
    create: Create,
    path: str,
) -> None:
    monkeypatch.setattr(get_settings(), setting, 2)
    for n in range(2):
        assert create(client, owner, db, n).status_code == 201
    refused = create(client, owner, db, 2)
    assert refused.status_code == 409, refused.text
    assert refused.json()["code"] == "quota_reached"
    assert f"STORBENCH_{setting.upper()}" in refused.json()["message"]
    # Another team has a quota of its own.
    other = make_caller(db)
    assert create(client, other, db, 0).status_code == 201


def test_past_the_pending_quota_new_events_are_recorded_as_dropped(
    client: TestClient, db: Session, owner: Caller, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(get_settings(), "quota_pending_deliveries", 2)
    assert _webhook(client, owner, db, 0).status_code == 201
    for n in range(3):
        enqueue_event(db, owner.team.id, EVENT, {"n": n})
    db.commit()
    rows = db.scalars(
        select(WebhookDelivery).where(WebhookDelivery.team_id == owner.team.id).order_by(WebhookDelivery.id)
    ).all()
    assert [r.status for r in rows] == [DeliveryStatus.pending, DeliveryStatus.pending, DeliveryStatus.failed]
    assert "STORBENCH_QUOTA_PENDING_DELIVERIES" in (rows[2].last_error or "")
    webhook_id = rows[0].webhook_id
    log = client.get(f"/api/v1/webhooks/{webhook_id}/deliveries", headers=owner.headers).json()["items"]
    assert [d["status"] for d in log] == ["failed", "pending", "pending"]
