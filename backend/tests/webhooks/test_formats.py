"""Webhooks that send a Slack- or Teams-shaped message: the verdict in words, a link to the run."""

import json
from datetime import timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from storbench_api.db import utcnow
from storbench_api.settings import get_settings
from storbench_api.webhooks.dispatcher import deliver_due_once
from storbench_api.webhooks.service import enqueue_event
from tests.conftest import Caller
from tests.support.receiver import receiver

REGRESSION = {
    "target_id": 3,
    "job_name": "randread-4k",
    "direction": "read",
    "metric": "iops",
    "before_median": 20_000.0,
    "after_median": 15_000.0,
    "ratio": 0.75,
    "kind": "regression",
    "result_id": 41,
    "run": "/runs/17",
    "trend": "/history?target_id=3",
}


def _register(client: TestClient, owner: Caller, url: str, fmt: str) -> Any:
    body = {"url": url, "events": ["change_point.regression"], "format": fmt}
    return client.post("/api/v1/webhooks", json=body, headers=owner.headers)


def _delivered(client: TestClient, db: Session, owner: Caller, fmt: str) -> dict[str, Any]:
    with receiver([(200, {})]) as hook:
        created = _register(client, owner, hook.url, fmt)
        assert created.status_code == 201, created.text
        assert created.json()["format"] == fmt
        enqueue_event(db, owner.team.id, "change_point.regression", REGRESSION)
        db.commit()
        assert deliver_due_once(now=lambda: utcnow() + timedelta(seconds=1)) == 1
    [request] = hook.received
    document: dict[str, Any] = json.loads(request.body)
    return document


@pytest.fixture
def public_url(monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setattr(get_settings(), "public_url", "https://bench.example.com/")
    return "https://bench.example.com"


def test_a_slack_webhook_gets_the_verdict_in_words_with_a_link_to_the_run(
    client: TestClient,
    db: Session,
    owner: Caller,
    allow_loopback: None,
    sweep_in_test_transaction: None,
    public_url: str,
) -> None:
    document = _delivered(client, db, owner, "slack")
    assert set(document) == {"text", "blocks"}
    assert document["text"].startswith("Regression: read IOPS of randread-4k on target #3 fell 25 %")
    section = document["blocks"][0]["text"]["text"]
    assert "20,000 → 15,000" in section
    assert f"<{public_url}/runs/17|Open in storbench>" in section


def test_a_teams_webhook_gets_a_message_card(
    client: TestClient,
    db: Session,
    owner: Caller,
    allow_loopback: None,
    sweep_in_test_transaction: None,
    public_url: str,
) -> None:
    document = _delivered(client, db, owner, "teams")
    assert document["@type"] == "MessageCard"
    assert document["title"].startswith("Regression: read IOPS")
    [action] = document["potentialAction"]
    assert action["targets"][0]["uri"] == f"{public_url}/runs/17"


def test_a_format_can_be_changed_and_an_unknown_one_is_refused(client: TestClient, owner: Caller) -> None:
    created = _register(client, owner, "https://93.184.215.14/hook", "storbench").json()
    assert created["format"] == "storbench"
    changed = client.patch(
        f"/api/v1/webhooks/{created['id']}", json={"format": "teams"}, headers=owner.headers
    )
    assert changed.status_code == 200 and changed.json()["format"] == "teams"
    refused = _register(client, owner, "https://93.184.215.14/hook", "discord")
    assert refused.status_code == 422 and "format" in refused.text


def test_chat_formats_keep_the_same_refusal_of_internal_addresses(client: TestClient, owner: Caller) -> None:
    refused = _register(client, owner, "http://127.0.0.1:8000/hook", "slack")
    assert refused.status_code == 422 and "url" in refused.text
