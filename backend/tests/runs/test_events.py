"""A run's live stream: every event is a documented RunEvent a client can read by its schema."""

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Connection, select
from sqlalchemy.orm import Session

from storbench_api.models import Assignment
from storbench_api.runs import events
from storbench_api.runs.schemas import RunEvent, RunProgressEvent, RunStatusData, RunStatusEvent
from tests.conftest import Caller, make_host, make_target
from tests.support.fio import quick_randread

JOB = {"name": "randread-4k", "rw": "randread", "bs": "4k", "size": "16m", "runtime": 1, "time_based": True}


def _sample(second: int) -> dict[str, Any]:
    return {
        "elapsed_s": second,
        "eta_s": 1,
        "percent": 50.0,
        "timestamp_ms": 1_700_000_000_000 + second * 1000,
        "directions": {"read": {"iops": 1000.0, "bw_bytes": 4096000.0, "lat_mean_ns": 9000.0}},
    }


def _events(text: str) -> list[RunEvent]:
    """The stream as a client reads it: frames of `event:` and `data:` lines, comments skipped."""
    events = []
    for frame in text.split("\n\n"):
        fields = dict(line.split(": ", 1) for line in frame.splitlines() if not line.startswith(":"))
        if fields:
            events.append(RunEvent.model_validate(fields))
    return events


def test_a_finished_runs_stream_is_its_statuses_and_progress_as_documented(
    client: TestClient, db: Session, connection: Connection, owner: Caller, tmp_path: Path
) -> None:
    host, token = make_host(db, team=owner.team)
    target = make_target(db, host=host)
    worker = {"Authorization": f"Bearer {token}"}
    run = client.post(
        "/api/v1/runs", json={"target_id": target.id, "jobs": [JOB]}, headers=owner.headers
    ).json()
    assignment = db.scalar(select(Assignment.id).where(Assignment.run_id == run["id"]))
    base = f"/api/v1/worker/assignments/{assignment}"
    assert client.post(f"{base}/start", headers=worker).status_code == 200
    for second in (1, 2):
        progress = client.post(f"{base}/progress", json={"samples": [_sample(second)]}, headers=worker)
        assert progress.json()["status"] == "running"
    output = quick_randread(tmp_path)
    assert client.post(f"{base}/result", json={"fio_output": output}, headers=worker).status_code == 200

    with pytest.MonkeyPatch.context() as patch:
        # The stream reads in sessions of its own: let them see this test's (uncommitted) rows.
        def test_session() -> Session:
            return Session(bind=connection, join_transaction_mode="create_savepoint")

        patch.setattr(events, "get_sessionmaker", lambda: test_session)
        stream = client.get(f"/api/v1/runs/{run['id']}/events", headers=owner.headers)
    assert stream.status_code == 200
    assert stream.headers["content-type"].startswith("text/event-stream")
    received = _events(stream.text)
    progress_data = [e.root.data for e in received if isinstance(e.root, RunProgressEvent)]
    assert [p.elapsed_s for p in progress_data] == [1, 2]
    assert all(p.host_name == host.name and p.directions["read"].iops == 1000.0 for p in progress_data)
    statuses = [e.root.data for e in received if isinstance(e.root, RunStatusEvent)]
    assert statuses == [RunStatusData(run_id=run["id"], status="completed")]


def test_the_schema_documents_the_stream_event_by_event(client: TestClient) -> None:
    schema = client.get("/api/v1/openapi.json").json()
    stream = schema["paths"]["/api/v1/runs/{run_id}/events"]["get"]["responses"]["200"]["content"]
    assert stream["text/event-stream"]["itemSchema"] == {"$ref": "#/components/schemas/RunEvent"}
    components = schema["components"]["schemas"]
    mapping = components["RunEvent"]["discriminator"]["mapping"]
    assert set(mapping) == {"status", "progress"}
    progress = components["RunProgressEvent"]["properties"]
    assert progress["event"]["const"] == "progress"
    assert progress["data"]["contentSchema"] == {"$ref": "#/components/schemas/RunProgressData"}
    assert "host_name" in components["RunProgressData"]["required"]
