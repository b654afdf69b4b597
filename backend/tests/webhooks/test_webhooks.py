"""Team webhooks: registration, SSRF refusal, signed deliveries retried with backoff, the log."""

import hashlib
import hmac
import json
from datetime import timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session

from storbench_api.db import utcnow
from storbench_api.models import Role
from storbench_api.models.webhook import DeliveryStatus, WebhookDelivery
from storbench_api.settings import get_settings
from storbench_api.webhooks.dispatcher import deliver_due_once
from storbench_api.webhooks.service import enqueue_event
from tests.conftest import Caller, make_caller
from tests.support.receiver import receiver

PUBLIC_URL = "https://93.184.215.14/storbench"
EVENTS = ["change_point.regression"]


def _register(client: TestClient, caller: Caller, url: str, events: list[str] | None = None) -> Any:
    return client.post(
        "/api/v1/webhooks", json={"url": url, "events": events or EVENTS}, headers=caller.headers
    )


def _verify(secret: str, headers: dict[str, str], body: bytes) -> bool:
    expected = hmac.new(
        secret.encode(), f"{headers['x-storbench-timestamp']}.".encode() + body, hashlib.sha256
    )
    return hmac.compare_digest("sha256=" + expected.hexdigest(), headers["x-storbench-signature"])


def test_an_owner_registers_a_webhook_and_sees_its_secret_once(client: TestClient, owner: Caller) -> None:
    created = _register(client, owner, PUBLIC_URL)
    assert created.status_code == 201, created.text
    body = created.json()
    assert body["secret"].startswith("whsec_") and len(body["secret"]) > 30
    assert body["events"] == EVENTS and body["active"] is True
    listed = client.get("/api/v1/webhooks", headers=owner.headers).json()
    assert [w["id"] for w in listed["items"]] == [body["id"]]
    assert "secret" not in listed["items"][0]
    assert "change_point.improvement" in listed["events"]
    one = client.get(f"/api/v1/webhooks/{body['id']}", headers=owner.headers).json()
    assert "secret" not in one


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:8000/api/v1/health",
        "http://localhost/",
        "http://169.254.169.254/latest/meta-data/",
        "http://10.1.2.3/hook",
        "http://192.168.0.10/hook",
        "http://[::1]/hook",
        "http://[::ffff:127.0.0.1]/hook",
        "http://0.0.0.0/hook",
        "ftp://93.184.215.14/hook",
        "https://user:pw@93.184.215.14/hook",
    ],
)
def test_internal_destinations_are_refused_naming_the_url_field(
    client: TestClient, owner: Caller, url: str
) -> None:
    response = _register(client, owner, url)
    assert response.status_code == 422, response.text
    error = response.json()
    assert error["errors"][0]["field"] == "url"
    assert client.get("/api/v1/webhooks", headers=owner.headers).json()["items"] == []


@pytest.mark.parametrize(
    "url",
    [
        "http://[2002:7f00:1::1]/hook",  # 6to4 of 127.0.0.1
        "http://[2002:a00:1::]/hook",  # 6to4 of 10.0.0.1
        "http://[2001:0:a00:1::80ff:fffe]/hook",  # Teredo: server 10.0.0.1, client 127.0.0.1
        "http://[64:ff9b::7f00:1]/hook",  # NAT64 (well-known prefix) of 127.0.0.1
        "http://[64:ff9b::a00:1]/hook",  # NAT64 of 10.0.0.1
        "http://[64:ff9b:1::a00:1]/hook",  # NAT64 (local-use prefix) of 10.0.0.1
    ],
)
def test_ipv6_addresses_tunnelling_to_ipv4_are_refused(client: TestClient, owner: Caller, url: str) -> None:
    response = _register(client, owner, url)
    assert response.status_code == 422, response.text
    assert "6to4, Teredo or NAT64" in response.json()["errors"][0]["reason"]
    assert client.get("/api/v1/webhooks", headers=owner.headers).json()["items"] == []


def test_the_operator_setting_allows_a_named_network(
    client: TestClient, owner: Caller, allow_loopback: None
) -> None:
    assert _register(client, owner, "http://127.0.0.1:9/hook").status_code == 201
    # Only that network: the rest of loopback and the private ranges stay refused.
    assert _register(client, owner, "http://127.0.0.2:9/hook").status_code == 422
    assert _register(client, owner, "http://10.0.0.1/hook").status_code == 422


def test_only_owners_manage_webhooks_and_teams_never_see_each_others(
    client: TestClient, db: Session, owner: Caller
) -> None:
    webhook = _register(client, owner, PUBLIC_URL).json()
    member = make_caller(db, team=owner.team, role=Role.member)
    assert client.get("/api/v1/webhooks", headers=member.headers).status_code == 403
    assert _register(client, member, PUBLIC_URL).status_code == 403
    stranger = make_caller(db)
    assert client.get(f"/api/v1/webhooks/{webhook['id']}", headers=stranger.headers).status_code == 404
    assert (
        client.get(f"/api/v1/webhooks/{webhook['id']}/deliveries", headers=stranger.headers).status_code
        == 404
    )
    assert client.post(f"/api/v1/webhooks/{webhook['id']}/test", headers=stranger.headers).status_code == 404
    assert client.delete(f"/api/v1/webhooks/{webhook['id']}", headers=stranger.headers).status_code == 404
    assert client.get("/api/v1/webhooks", headers=stranger.headers).json()["items"] == []
    # An event of the stranger's team reaches none of ours.
    enqueue_event(db, stranger.team.id, "change_point.regression", {"x": 1})
    db.commit()
    assert (
        client.get(f"/api/v1/webhooks/{webhook['id']}/deliveries", headers=owner.headers).json()["items"]
        == []
    )


def test_events_go_to_active_subscribed_webhooks_only(client: TestClient, db: Session, owner: Caller) -> None:
    regressions = _register(client, owner, PUBLIC_URL, ["change_point.regression"]).json()
    improvements = _register(client, owner, PUBLIC_URL, ["change_point.improvement"]).json()
    paused = _register(client, owner, PUBLIC_URL, ["change_point.regression"]).json()
    client.patch(f"/api/v1/webhooks/{paused['id']}", json={"active": False}, headers=owner.headers)
    enqueue_event(db, owner.team.id, "change_point.regression", {"result_id": 7, "at": utcnow()})
    enqueue_event(db, make_caller(db).team.id, "change_point.regression", {"nobody": "listens"})
    db.commit()

    def log(webhook: dict[str, Any]) -> list[dict[str, Any]]:
        items: list[dict[str, Any]] = client.get(
            f"/api/v1/webhooks/{webhook['id']}/deliveries", headers=owner.headers
        ).json()["items"]
        return items

    [delivery] = log(regressions)
    assert delivery["event"] == "change_point.regression" and delivery["status"] == "pending"
    assert delivery["payload"]["result_id"] == 7
    assert log(improvements) == [] and log(paused) == []


def test_a_failed_delivery_is_retried_with_backoff_logged_and_signed(
    client: TestClient, db: Session, owner: Caller, allow_loopback: None, sweep_in_test_transaction: None
) -> None:
    with receiver([(500, {}), (200, {})]) as hook:
        created = _register(client, owner, hook.url).json()
        enqueue_event(db, owner.team.id, "change_point.regression", {"result_id": 42})
        db.commit()
        start = utcnow()

        assert deliver_due_once(now=lambda: start) == 1
        db.expire_all()
        [first] = client.get(f"/api/v1/webhooks/{created['id']}/deliveries", headers=owner.headers).json()[
            "items"
        ]
        assert first["status"] == "pending" and first["attempts"] == 1
        assert first["last_status_code"] == 500 and "500" in first["last_error"]
        # Only an excerpt of the answer is kept.
        assert len(first["response_excerpt"]) <= 500
        retry_at = first["next_attempt_at"]
        assert retry_at is not None

        # Not due yet half a minute later; due after the first backoff (one minute).
        assert deliver_due_once(now=lambda: start + timedelta(seconds=30)) == 0
        assert len(hook.received) == 1
        assert deliver_due_once(now=lambda: start + timedelta(seconds=61)) == 1
        assert len(hook.received) == 2

    db.expire_all()
    [done] = client.get(f"/api/v1/webhooks/{created['id']}/deliveries", headers=owner.headers).json()["items"]
    assert done["status"] == "delivered" and done["attempts"] == 2 and done["last_status_code"] == 200
    assert done["last_error"] is None and done["delivered_at"] is not None
    listed = client.get("/api/v1/webhooks", headers=owner.headers).json()["items"][0]
    assert listed["latest_delivery"]["status"] == "delivered"

    first_request, second_request = hook.received
    for request in hook.received:
        assert request.headers["x-storbench-event"] == "change_point.regression"
        assert request.headers["x-storbench-delivery"] == done["delivery_uid"]
        assert request.headers["content-type"] == "application/json"
        assert _verify(created["secret"], request.headers, request.body)
        assert not _verify("whsec_wrong", request.headers, request.body)
    assert first_request.body == second_request.body
    document = json.loads(second_request.body)
    assert document["event"] == "change_point.regression" and document["data"] == {"result_id": 42}
    assert document["id"] == done["delivery_uid"]


def test_a_delivery_fails_for_good_after_the_last_attempt_and_can_be_sent_again(
    client: TestClient,
    db: Session,
    owner: Caller,
    allow_loopback: None,
    sweep_in_test_transaction: None,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(get_settings(), "webhook_max_attempts", 3)
    with receiver([(503, {}), (503, {}), (503, {}), (204, {})]) as hook:
        created = _register(client, owner, hook.url).json()
        enqueue_event(db, owner.team.id, "change_point.regression", {"n": 1})
        db.commit()
        now = utcnow()
        for minutes in (0, 1, 3, 10, 60):  # 1 then 2 minutes of backoff; nothing after the last
            deliver_due_once(now=lambda m=minutes: now + timedelta(minutes=m, seconds=1))
        assert len(hook.received) == 3
        db.expire_all()
        [failed] = client.get(f"/api/v1/webhooks/{created['id']}/deliveries", headers=owner.headers).json()[
            "items"
        ]
        assert failed["status"] == "failed" and failed["attempts"] == 3 and failed["next_attempt_at"] is None
        assert failed["last_status_code"] == 503

        again = client.post(
            f"/api/v1/webhooks/{created['id']}/deliveries/{failed['id']}/retry", headers=owner.headers
        )
        assert again.status_code == 202, again.text
        deliver_due_once(now=lambda: utcnow() + timedelta(seconds=1))
        assert len(hook.received) == 4
    db.expire_all()
    row = db.scalar(select(WebhookDelivery).where(WebhookDelivery.id == failed["id"]))
    assert row is not None and row.status == DeliveryStatus.delivered
    twice = client.post(
        f"/api/v1/webhooks/{created['id']}/deliveries/{failed['id']}/retry", headers=owner.headers
    )
    assert twice.status_code == 409


def test_send_test_event_reaches_the_receiver(
    client: TestClient, db: Session, owner: Caller, allow_loopback: None, sweep_in_test_transaction: None
) -> None:
    with receiver([(200, {})]) as hook:
        created = _register(client, owner, hook.url).json()
        queued = client.post(f"/api/v1/webhooks/{created['id']}/test", headers=owner.headers)
        assert queued.status_code == 202 and queued.json()["event"] == "ping"
        deliver_due_once(now=lambda: utcnow() + timedelta(seconds=1))
    [request] = hook.received
    assert request.headers["x-storbench-event"] == "ping"
    assert _verify(created["secret"], request.headers, request.body)


def test_redirects_are_not_followed(
    client: TestClient, db: Session, owner: Caller, allow_loopback: None, sweep_in_test_transaction: None
) -> None:
    with receiver([(302, {"Location": "http://127.0.0.1:1/elsewhere"})]) as hook:
        created = _register(client, owner, hook.url).json()
        client.post(f"/api/v1/webhooks/{created['id']}/test", headers=owner.headers)
        deliver_due_once(now=lambda: utcnow() + timedelta(seconds=1))
    assert len(hook.received) == 1
    db.expire_all()
    [delivery] = client.get(f"/api/v1/webhooks/{created['id']}/deliveries", headers=owner.headers).json()[
        "items"
    ]
    assert delivery["status"] == "pending" and delivery["last_status_code"] == 302
    assert "redirects are not followed" in delivery["last_error"]


def test_a_destination_refused_at_delivery_time_is_not_contacted(
    client: TestClient,
    db: Session,
    owner: Caller,
    allow_loopback: None,
    sweep_in_test_transaction: None,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with receiver([(200, {})]) as hook:
        created = _register(client, owner, hook.url).json()
        client.post(f"/api/v1/webhooks/{created['id']}/test", headers=owner.headers)
        # The operator withdraws the permission before the delivery is sent.
        monkeypatch.setattr(get_settings(), "webhook_allowed_networks", [])
        deliver_due_once(now=lambda: utcnow() + timedelta(seconds=1))
    assert hook.received == []
    db.expire_all()
    [delivery] = client.get(f"/api/v1/webhooks/{created['id']}/deliveries", headers=owner.headers).json()[
        "items"
    ]
    assert "loopback" in delivery["last_error"]


def test_enqueue_event_on_a_team_without_webhooks_records_nothing(db: Session, owner: Caller) -> None:
    enqueue_event(db, owner.team.id, "change_point.improvement", {"result_id": 1})
    assert db.scalars(select(WebhookDelivery).where(WebhookDelivery.team_id == owner.team.id)).all() == []
