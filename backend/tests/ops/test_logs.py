"""Structured log lines: a request id in and out, and the run and host a worker route works on."""

import io
import json
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from storbench_api.kit.logs import configure_logging
from storbench_api.models import Assignment, Run, RunStatus
from storbench_api.settings import get_settings
from tests.conftest import Caller, make_host, make_target


@pytest.fixture
def json_lines() -> Iterator[io.StringIO]:
    """Log lines rendered as JSON into a buffer for the test."""
    stream = io.StringIO()
    configure_logging("json", stream)
    yield stream
    configure_logging(get_settings().effective_log_format)


def lines(stream: io.StringIO) -> list[dict[str, Any]]:
    """Every line written so far, parsed (each must be one JSON object)."""
    return [json.loads(line) for line in stream.getvalue().splitlines() if line.strip()]


def test_a_callers_request_id_comes_back_and_is_in_the_json_log_line(
    client: TestClient, owner: Caller, json_lines: io.StringIO
) -> None:
    answer = client.get("/api/v1/hosts", headers={**owner.headers, "X-Request-ID": "req-7f3a-42"})
    assert answer.status_code == 200
    assert answer.headers["X-Request-ID"] == "req-7f3a-42"
    request_lines = [line for line in lines(json_lines) if line.get("request_id") == "req-7f3a-42"]
    assert request_lines, json_lines.getvalue()
    line = request_lines[-1]
    assert (line["event"], line["route"], line["status"], line["level"]) == (
        "request",
        "/api/v1/hosts",
        200,
        "info",
    )
    assert "timestamp" in line


def test_a_request_without_a_sane_id_gets_a_fresh_one(client: TestClient, json_lines: io.StringIO) -> None:
    first = client.get("/api/v1/health", headers={"X-Request-ID": "bad id\twith spaces"})
    second = client.get("/api/v1/health")
    ids = {first.headers["X-Request-ID"], second.headers["X-Request-ID"]}
    assert len(ids) == 2 and "bad id\twith spaces" not in ids
    assert ids <= {line.get("request_id") for line in lines(json_lines)}


def test_a_worker_routes_log_line_names_its_host_and_run(
    client: TestClient, db: Session, owner: Caller, json_lines: io.StringIO
) -> None:
    host, token = make_host(db, team=owner.team, name="logged-host")
    run = Run(team_id=owner.team.id, target_id=make_target(db, host=host).id, jobs=[])
    db.add(run)
    db.flush()
    assignment = Assignment(run_id=run.id, host_id=host.id, status=RunStatus.queued)
    db.add(assignment)
    db.commit()

    answer = client.get(
        f"/api/v1/worker/assignments/{assignment.id}",
        headers={"Authorization": f"Bearer {token}", "X-Request-ID": "fetch-1"},
    )

    assert answer.status_code == 200
    (line,) = [line for line in lines(json_lines) if line.get("request_id") == "fetch-1"]
    assert line["route"] == "/api/v1/worker/assignments/{assignment_id}"
    assert (line["host"], line["host_id"], line["run_id"]) == ("logged-host", host.id, run.id)
