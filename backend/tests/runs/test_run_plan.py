"""A run is planned once: POST /runs/check refuses exactly what POST /runs refuses, in the same words."""

from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from storbench_api.db import utcnow
from storbench_api.models import Host, Target, TargetKind
from storbench_api.settings import get_settings
from tests.conftest import ONLINE_FACTS, Caller, make_host, make_target

JOB = {"name": "randread-4k", "rw": "randread", "bs": "4k", "size": "16m", "runtime": 1, "time_based": True}
LINUX_FACTS = {
    **ONLINE_FACTS,
    "os": "Linux-6.1.0-13-amd64-x86_64-with-glibc2.36",
    "path_space": [{"path": "/srv", "free_bytes": 40 << 30, "total_bytes": 100 << 30}],
    "clock_offset_ms": 0.4,
    "clock_uncertainty_ms": 0.2,
}


@dataclass
class Team:
    """A team's hosts and targets, each ready to be the cause of one refusal."""

    directory: Target
    device: Target
    peer: Host
    asleep: Host
    drifting: Host
    unmeasured: Host
    plan_id: int


def _host(db: Session, owner: Caller, name: str, **facts: Any) -> Host:
    host, _ = make_host(db, team=owner.team, name=name)
    host.facts = {**LINUX_FACTS, **facts}
    db.commit()
    return host


@pytest.fixture
def team(client: TestClient, db: Session, owner: Caller) -> Team:
    primary = _host(db, owner, "client-1")
    asleep = _host(db, owner, "asleep")
    asleep.last_seen_at = utcnow() - timedelta(hours=1)
    device = Target(
        team_id=owner.team.id, host_id=primary.id, name="vdb", path="/dev/vdb", kind=TargetKind.block_device
    )
    db.add(device)
    db.commit()
    plan = client.post("/api/v1/plans", json={"name": "nightly", "jobs": [JOB]}, headers=owner.headers)
    assert plan.status_code == 201, plan.text
    return Team(
        directory=make_target(db, host=primary),
        device=device,
        peer=_host(db, owner, "client-2"),
        asleep=asleep,
        drifting=_host(db, owner, "drifting", clock_offset_ms=900.0),
        unmeasured=_host(db, owner, "unmeasured", clock_offset_ms=None),
        plan_id=plan.json()["id"],
    )


def _on_directory(t: Team, **fields: Any) -> dict[str, Any]:
    return {"target_id": t.directory.id, "jobs": [JOB], **fields}


# Each request, built from the team: a name a failing case is reported by, and the body.
CASES: dict[str, Callable[[Team], dict[str, Any]]] = {
    "fits": lambda t: _on_directory(t),
    "a saved plan": lambda t: {"target_id": t.directory.id, "plan_id": t.plan_id},
    "two hosts in step": lambda t: _on_directory(t, host_ids=[t.peer.id]),
    "repetitions out of range": lambda t: _on_directory(t, repetitions=101),
    "repetitions over the run's budget": lambda t: _on_directory(
        t, jobs=[{**JOB, "runtime": 3600}], repetitions=40
    ),
    "repetitions over fio's job count": lambda t: _on_directory(
        t, jobs=[{**JOB, "numjobs": 128}], repetitions=40
    ),
    "unknown target": lambda t: {"target_id": 424242, "jobs": [JOB]},
    "unknown plan": lambda t: {"target_id": t.directory.id, "plan_id": 424242},
    "unknown preset": lambda t: {"target_id": t.directory.id, "preset_id": "no-such-preset"},
    "unknown host": lambda t: _on_directory(t, host_ids=[424242]),
    "unknown label": lambda t: _on_directory(t, host_label="nobody-has-it"),
    "offline host": lambda t: _on_directory(t, host_ids=[t.asleep.id]),
    "clock too far off": lambda t: _on_directory(t, host_ids=[t.drifting.id]),
    "clock not measured": lambda t: _on_directory(t, host_ids=[t.unmeasured.id]),
    "offline and drifting": lambda t: _on_directory(t, host_ids=[t.drifting.id, t.asleep.id]),
    "a job beyond the service's limits": lambda t: _on_directory(t, jobs=[{**JOB, "iodepth": 100000}]),
    "more than the free space": lambda t: _on_directory(t, jobs=[{**JOB, "size": "160g"}]),
    "writes to a device unconfirmed": lambda t: {
        "target_id": t.device.id,
        "jobs": [{**JOB, "rw": "randwrite"}],
    },
    "shared files on a device": lambda t: {"target_id": t.device.id, "jobs": [JOB], "shared_files": True},
    "a Windows preset on Linux": lambda t: {
        "target_id": t.directory.id,
        "preset_id": "nas-windows-randread-iops",
    },
    "a misspelt field": lambda t: _on_directory(t, repetiton=3),
    "two sources": lambda t: _on_directory(t, plan_id=t.plan_id),
}


@pytest.mark.parametrize("case", CASES)
def test_the_check_refuses_exactly_what_the_start_refuses(
    client: TestClient, owner: Caller, team: Team, case: str
) -> None:
    body = CASES[case](team)
    check = client.post("/api/v1/runs/check", json=body, headers=owner.headers)
    started = client.post("/api/v1/runs", json=body, headers=owner.headers)
    if started.status_code == 201:
        assert check.status_code == 200, check.text
        assert check.json()["ok"] is True and check.json()["refusals"] == [], check.text
        return
    assert started.status_code in (409, 422), started.text
    refused = {"errors": [], **started.json()}
    if check.status_code != 200:
        # Nothing to plan (an unknown target, plan or preset, or a body the schema refuses).
        assert (check.status_code, check.json()) == (started.status_code, started.json())
        return
    answer = check.json()
    assert answer["ok"] is False
    first = answer["refusals"][0]
    assert {**first, "errors": _given(first["errors"])} == {"status": started.status_code, **refused}
    assert all(item in _given(answer["problems"]) for item in refused["errors"])


def _given(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Error items without their null fields (an error body leaves them out)."""
    return [{k: v for k, v in item.items() if v is not None} for item in items]


def test_every_case_above_but_three_is_refused(client: TestClient, owner: Caller, team: Team) -> None:
    """The table tests refusals: each of its bad requests is refused by the start."""
    accepted = {
        case
        for case, body in CASES.items()
        if client.post("/api/v1/runs", json=body(team), headers=owner.headers).status_code == 201
    }
    assert accepted == {"fits", "a saved plan", "two hosts in step"}


def test_the_check_lists_every_problem_the_start_stops_at_the_first_of(
    client: TestClient, owner: Caller, team: Team
) -> None:
    hosts = [team.asleep.id, team.drifting.id, 424242]
    body = _on_directory(team, host_ids=hosts, jobs=[{**JOB, "runtime": 3600}], repetitions=40)
    answer = client.post("/api/v1/runs/check", json=body, headers=owner.headers).json()
    messages = [r["message"] for r in answer["refusals"]]
    assert [r["status"] for r in answer["refusals"]] == [422, 422, 409, 409]
    assert "40 repetitions" in messages[0] and "host 424242 does not exist" in messages[1]
    assert "asleep" in messages[2] and "drifting" in messages[3]
    started = client.post("/api/v1/runs", json=body, headers=owner.headers)
    assert (started.status_code, started.json()["message"]) == (422, messages[0])


def test_more_hosts_than_a_run_may_use_is_refused_by_both(
    client: TestClient, owner: Caller, team: Team, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(get_settings(), "max_hosts_per_run", 1)
    body = _on_directory(team, host_ids=[team.peer.id])
    started = client.post("/api/v1/runs", json=body, headers=owner.headers)
    assert started.status_code == 422 and "at most 1 hosts" in started.json()["message"]
    check = client.post("/api/v1/runs/check", json=body, headers=owner.headers).json()
    assert check["refusals"][0]["message"] == started.json()["message"]
