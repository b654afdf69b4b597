"""Webhook signing secrets: sealed at rest, rotatable, and readable across a server key change."""

import hashlib
import hmac
import importlib.util
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from alembic.migration import MigrationContext
from alembic.operations import Operations
from fastapi.testclient import TestClient
from sqlalchemy import select, text
from sqlalchemy.orm import Session

from storbench_api.db import utcnow
from storbench_api.models import AuditEvent
from storbench_api.models.webhook import Webhook, WebhookDelivery
from storbench_api.security import seal, unseal
from storbench_api.settings import Settings, get_settings
from storbench_api.webhooks.dispatcher import deliver_due_once
from tests.conftest import Caller
from tests.support.receiver import Received, receiver

MIGRATION = next((Path(__file__).parents[3] / "migrations" / "versions").glob("*_sealed_webhook_secrets.py"))


def _verifies(secret: str, request: Received) -> bool:
    headers = request.headers
    expected = hmac.new(
        secret.encode(), f"{headers['x-storbench-timestamp']}.".encode() + request.body, hashlib.sha256
    )
    return hmac.compare_digest("sha256=" + expected.hexdigest(), headers["x-storbench-signature"])


def _register(client: TestClient, owner: Caller, url: str) -> Any:
    created = client.post(
        "/api/v1/webhooks", json={"url": url, "events": ["change_point.regression"]}, headers=owner.headers
    )
    assert created.status_code == 201, created.text
    return created.json()


def _ping(client: TestClient, owner: Caller, webhook_id: int) -> None:
    queued = client.post(f"/api/v1/webhooks/{webhook_id}/test", headers=owner.headers)
    assert queued.status_code == 202, queued.text
    deliver_due_once(now=lambda: utcnow() + timedelta(seconds=1))


def _stored_secret(db: Session, webhook_id: int) -> str:
    value = db.execute(text("SELECT secret FROM webhooks WHERE id = :id"), {"id": webhook_id}).scalar_one()
    assert isinstance(value, str)
    return value


def test_the_stored_secret_is_sealed_and_deliveries_verify_with_the_shown_one(
    client: TestClient, db: Session, owner: Caller, allow_loopback: None, sweep_in_test_transaction: None
) -> None:
    with receiver([(200, {})]) as hook:
        created = _register(client, owner, hook.url)
        _ping(client, owner, created["id"])
    stored = _stored_secret(db, created["id"])
    assert created["secret"] not in stored and not stored.startswith("whsec_")
    assert unseal(stored) == created["secret"]
    [request] = hook.received
    assert _verifies(created["secret"], request)


def test_after_rotation_deliveries_verify_with_the_new_secret_only(
    client: TestClient, db: Session, owner: Caller, allow_loopback: None, sweep_in_test_transaction: None
) -> None:
    with receiver([(200, {})]) as hook:
        created = _register(client, owner, hook.url)
        _ping(client, owner, created["id"])
        rotated = client.post(f"/api/v1/webhooks/{created['id']}/rotate-secret", headers=owner.headers)
        assert rotated.status_code == 200, rotated.text
        _ping(client, owner, created["id"])
    new = rotated.json()
    assert new["id"] == created["id"] and new["url"] == hook.url
    assert new["secret"].startswith("whsec_") and new["secret"] != created["secret"]
    before, after = hook.received
    assert _verifies(created["secret"], before)
    assert _verifies(new["secret"], after) and not _verifies(created["secret"], after)
    assert new["secret"] not in _stored_secret(db, created["id"])
    actions = db.scalars(
        select(AuditEvent.action).where(
            AuditEvent.resource_type == "webhook", AuditEvent.resource_id == created["id"]
        )
    ).all()
    assert "webhook.secret_rotated" in actions
    listed = client.get(f"/api/v1/webhooks/{created['id']}", headers=owner.headers).json()
    assert "secret" not in listed


def test_a_secret_sealed_under_a_previous_server_key_still_signs(
    client: TestClient,
    db: Session,
    owner: Caller,
    allow_loopback: None,
    sweep_in_test_transaction: None,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    settings = get_settings()
    monkeypatch.setattr(settings, "secret_key", "the-old-server-key")
    with receiver([(200, {})]) as hook:
        created = _register(client, owner, hook.url)
        # The operator changes STORBENCH_SECRET_KEY and keeps the old one among the previous keys.
        monkeypatch.setattr(settings, "secret_key", "the-new-server-key")
        monkeypatch.setattr(settings, "previous_secret_keys", ["an-older-key", "the-old-server-key"])
        _ping(client, owner, created["id"])
    [request] = hook.received
    assert _verifies(created["secret"], request)


def test_a_secret_no_configured_key_opens_fails_the_delivery_saying_why(
    client: TestClient,
    db: Session,
    owner: Caller,
    allow_loopback: None,
    sweep_in_test_transaction: None,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    settings = get_settings()
    monkeypatch.setattr(settings, "secret_key", "the-old-server-key")
    with receiver([(200, {})]) as hook:
        created = _register(client, owner, hook.url)
        monkeypatch.setattr(settings, "secret_key", "the-new-server-key")
        monkeypatch.setattr(settings, "previous_secret_keys", [])
        _ping(client, owner, created["id"])
    assert hook.received == []
    delivery = db.scalars(select(WebhookDelivery).where(WebhookDelivery.webhook_id == created["id"])).one()
    db.refresh(delivery)
    assert delivery.last_error is not None and "STORBENCH_PREVIOUS_SECRET_KEYS" in delivery.last_error


def test_previous_secret_keys_are_read_comma_separated(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STORBENCH_PREVIOUS_SECRET_KEYS", "older, oldest,")
    assert Settings().previous_secret_keys == ["older", "oldest"]
    monkeypatch.delenv("STORBENCH_PREVIOUS_SECRET_KEYS")
    assert Settings().previous_secret_keys == []


def _migration() -> Any:
    spec = importlib.util.spec_from_file_location("sealed_webhook_secrets_migration", MIGRATION)
    assert spec is not None and spec.loader is not None
    migration = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(migration)
    return migration


def test_the_migration_seals_plain_secrets_and_leaves_sealed_ones(db: Session, owner: Caller) -> None:
    plain = Webhook(team_id=owner.team.id, url="https://93.184.215.14/a", secret="whsec_plain-one", events=[])
    already = Webhook(team_id=owner.team.id, url="https://93.184.215.14/b", secret=seal("whsec_b"), events=[])
    db.add_all([plain, already])
    db.flush()
    sealed_before = _stored_secret(db, already.id)
    migration = _migration()
    with Operations.context(MigrationContext.configure(db.connection())):
        migration.upgrade()
    assert _stored_secret(db, already.id) == sealed_before
    stored = _stored_secret(db, plain.id)
    assert "whsec_plain-one" not in stored and unseal(stored) == "whsec_plain-one"
    with Operations.context(MigrationContext.configure(db.connection())):
        migration.downgrade()
    assert _stored_secret(db, plain.id) == "whsec_plain-one"
    assert _stored_secret(db, already.id) == "whsec_b"
