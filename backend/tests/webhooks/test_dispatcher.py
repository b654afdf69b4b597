"""A slow receiver holds only its own team's share of slots, and each attempt only until its deadline."""

import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update
from sqlalchemy.orm import Session

from storbench_api.db import utcnow
from storbench_api.models.webhook import WebhookDelivery
from storbench_api.settings import get_settings
from storbench_api.webhooks.dispatcher import deliver_due_once, deliver_until_stopped
from storbench_api.webhooks.service import enqueue_event
from tests.conftest import Caller, make_caller
from tests.support.receiver import receiver, trickler

EVENT = "change_point.regression"


def _wait_until(condition: Callable[[], bool], seconds: float) -> bool:
    """True as soon as condition holds; False if it still does not after seconds."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


def _register(client: TestClient, caller: Caller, url: str) -> int:
    created = client.post("/api/v1/webhooks", json={"url": url, "events": [EVENT]}, headers=caller.headers)
    assert created.status_code == 201, created.text
    webhook_id: int = created.json()["id"]
    return webhook_id


def _log(client: TestClient, caller: Caller, webhook_id: int) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = client.get(
        f"/api/v1/webhooks/{webhook_id}/deliveries", headers=caller.headers
    ).json()["items"]
    return items


def test_a_trickling_receiver_holds_neither_another_team_nor_its_attempt_past_the_deadline(
    client: TestClient,
    db: Session,
    owner: Caller,
    allow_loopback: None,
    sweep_in_test_transaction: None,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(get_settings(), "webhook_timeout", timedelta(seconds=4))
    monkeypatch.setattr(get_settings(), "webhook_team_concurrency", 2)
    other_team = make_caller(db)
    # Exits in reverse: the receivers close first, which ends any attempt still open, then the
    # sweep's thread is joined before the test's transaction is rolled back.
    with (
        ThreadPoolExecutor(1) as pool,
        trickler(total_bytes=120) as slow,
        receiver([(200, {})]) as healthy,
    ):
        slow_hook = _register(client, owner, slow.url)
        healthy_hook = _register(client, other_team, healthy.url)
        # Team A's five deliveries are older than team B's one: oldest first, B came last.
        for n in range(5):
            enqueue_event(db, owner.team.id, EVENT, {"n": n})
        enqueue_event(db, other_team.team.id, EVENT, {"n": "b"})
        db.commit()

        # The sweep runs beside the test, which only watches the receivers meanwhile (the
        # sweep's sessions share the test's connection).
        sweep = pool.submit(deliver_due_once, now=lambda: utcnow() + timedelta(seconds=1))
        assert _wait_until(lambda: len(healthy.received) == 1, 30), "team B's delivery never arrived"
        # B's delivery arrived before any of A's attempts ended: it did not wait for them.
        assert slow.cut_off == 0 and slow.finished == 0
        # Each attempt ends at its deadline, well before the receiver's two minutes.
        assert sweep.result(timeout=60) == 3
        assert _wait_until(lambda: slow.cut_off == 2, 15), "the sender never hung up on the trickler"
        assert slow.started == 2 and slow.finished == 0

    db.expire_all()
    [delivered] = _log(client, other_team, healthy_hook)
    assert delivered["status"] == "delivered" and delivered["attempts"] == 1
    attempted = [d for d in _log(client, owner, slow_hook) if d["attempts"]]
    untouched = [d for d in _log(client, owner, slow_hook) if not d["attempts"]]
    # Team A's share was two: two attempts, each to be retried with backoff; three wait their turn.
    assert len(attempted) == 2 and len(untouched) == 3
    for delivery in attempted:
        assert delivery["status"] == "pending" and delivery["next_attempt_at"] is not None
        assert "exceeded the 4 s deadline" in delivery["last_error"]
        assert delivery["last_status_code"] is None


def test_a_slot_freed_or_a_delivery_falling_due_is_sent_without_waiting_for_a_slow_one(
    client: TestClient,
    db: Session,
    owner: Caller,
    allow_loopback: None,
    sweep_in_test_transaction: None,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(get_settings(), "webhook_timeout", timedelta(seconds=6))
    monkeypatch.setattr(get_settings(), "webhook_interval", timedelta(seconds=0.2))
    other_team = make_caller(db)
    stop = threading.Event()
    # Exits in reverse: the receivers close first, which ends any attempt still open, then the
    # sweep's thread is joined before the test's transaction is rolled back.
    with (
        ThreadPoolExecutor(1) as pool,
        trickler(total_bytes=120) as slow,
        receiver([(200, {})]) as healthy,
    ):
        slow_hook = _register(client, owner, slow.url)
        healthy_hook = _register(client, other_team, healthy.url)
        enqueue_event(db, owner.team.id, EVENT, {"n": "a"})
        enqueue_event(db, other_team.team.id, EVENT, {"n": "b"})
        # B's delivery falls due a second after A's attempt has started.
        db.execute(
            update(WebhookDelivery)
            .where(WebhookDelivery.team_id == other_team.team.id)
            .values(next_attempt_at=utcnow() + timedelta(seconds=1))
        )
        db.commit()

        running = pool.submit(deliver_until_stopped, stop)
        try:
            assert _wait_until(lambda: slow.started == 1, 30), "team A's attempt never started"
            assert _wait_until(lambda: len(healthy.received) == 1, 30), "team B's delivery never arrived"
            # Sent while A's attempt was still open: not held until the end of A's pass.
            assert slow.open_now == 1
        finally:
            stop.set()
            running.result(timeout=60)

    db.expire_all()
    assert _log(client, other_team, healthy_hook)[0]["status"] == "delivered"
    [slow_delivery] = _log(client, owner, slow_hook)
    assert slow_delivery["status"] == "pending" and slow_delivery["attempts"] == 1
    assert "exceeded the 6 s deadline" in slow_delivery["last_error"]
