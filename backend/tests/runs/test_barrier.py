"""The barrier of a synchronized run: hosts wait for the start, and hear it as soon as it is fixed."""

import asyncio
from datetime import datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session

from storbench_api import live
from storbench_api.db import utcnow
from storbench_api.models import Assignment, RunStatus
from storbench_api.runs import barrier
from storbench_api.settings import get_settings
from storbench_protocol.assignments import BarrierState
from tests.conftest import ONLINE_FACTS, Caller, make_host, make_target

JOB = {"name": "r", "rw": "randread", "bs": "4k", "size": "16m", "runtime": 1}
CLOCK = {"clock_offset_ms": 0.4, "clock_uncertainty_ms": 0.2}


def _two_host_run(client: TestClient, db: Session, owner: Caller) -> list[tuple[int, dict[str, str]]]:
    """A run on two hosts: each assignment's id and its host's worker headers."""
    hosts = []
    for name in ("barrier-1", "barrier-2"):
        host, token = make_host(db, team=owner.team, name=name)
        host.facts = {**ONLINE_FACTS, **CLOCK}
        db.commit()
        hosts.append((host, token))
    target = make_target(db, host=hosts[0][0])
    run = client.post(
        "/api/v1/runs",
        json={"target_id": target.id, "jobs": [JOB], "host_ids": [hosts[1][0].id]},
        headers=owner.headers,
    ).json()
    rows = db.execute(select(Assignment.host_id, Assignment.id).where(Assignment.run_id == run["id"]))
    by_host: dict[int, int] = dict(rows.tuples().all())
    return [(by_host[host.id], {"Authorization": f"Bearer {token}"}) for host, token in hosts]


def _ready(client: TestClient, assignment_id: int, worker: dict[str, str]) -> dict[str, Any]:
    response = client.post(f"/api/v1/worker/assignments/{assignment_id}/ready", headers=worker)
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


def test_a_host_ready_first_is_told_to_ask_again_and_then_gets_the_common_start(
    client: TestClient, db: Session, owner: Caller, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(barrier, "BARRIER_HOLD_S", 0.2)
    (first, first_worker), (second, second_worker) = _two_host_run(client, db, owner)
    waited = _ready(client, first, first_worker)
    assert waited["status"] == "queued" and waited["start_at"] is None
    last = _ready(client, second, second_worker)
    assert last["start_at"] is not None
    assert _ready(client, first, first_worker)["start_at"] == last["start_at"]
    # The start leaves the hosts at least the configured lead to hear it.
    start = datetime.fromisoformat(last["start_at"])
    assert start - datetime.fromisoformat(last["server_time"]) > get_settings().start_lead / 2


def test_another_hosts_assignment_is_not_found_at_the_barrier(
    client: TestClient, db: Session, owner: Caller
) -> None:
    (first, _), (_, second_worker) = _two_host_run(client, db, owner)
    response = client.post(f"/api/v1/worker/assignments/{first}/ready", headers=second_worker)
    assert response.status_code == 404


def test_the_server_clock_is_answered_without_a_credential(client: TestClient) -> None:
    response = client.get("/api/v1/worker/clock")
    assert response.status_code == 200
    assert abs(datetime.fromisoformat(response.json()["server_time"]) - utcnow()) < timedelta(minutes=1)


def test_a_waiting_host_is_answered_when_the_start_is_announced_not_when_its_hold_ends(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Only the run's change notification can end this wait: the hold and the re-checks are an hour."""
    monkeypatch.setattr(barrier, "RECHECK_S", 3600.0)
    monkeypatch.setattr(barrier, "DEGRADED_RECHECK_S", 3600.0)
    fixed = utcnow() + timedelta(seconds=2)
    start_known = False
    reads = 0

    def read_state() -> BarrierState:
        nonlocal reads
        reads += 1
        return BarrierState(
            id=1, status=RunStatus.queued, start_at=fixed if start_known else None, server_time=utcnow()
        )

    async def scenario() -> BarrierState:
        nonlocal start_known
        waiting = asyncio.create_task(barrier.wait_for_start(4242, read_state, hold_s=3600.0))
        while reads == 0 or not live.notifications().connected:
            await asyncio.sleep(0.01)
        start_known = True
        live.publish([4242])  # as the commit fixing the start does
        return await waiting

    state = asyncio.run(scenario())
    assert state.start_at == fixed


def test_the_lead_grows_with_slow_answers_and_with_the_number_of_hosts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(barrier, "answer_times", barrier.AnswerTimes())
    base = get_settings().start_lead
    assert barrier.start_lead(1) == timedelta()
    quiet = barrier.start_lead(3)
    assert quiet >= base
    assert barrier.start_lead(20) > quiet
    for _ in range(100):
        barrier.answer_times.record(2.0)  # a loaded server: ready reports answered in 2 s
    assert barrier.start_lead(3) >= base + timedelta(seconds=6)
    assert barrier.start_lead(3) <= max(barrier.LONGEST_LEAD, base)
