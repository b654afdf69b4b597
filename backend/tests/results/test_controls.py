"""What a team does with stored results: relabel, delete, download fio's output and the job file."""

import base64
import json
import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import redis
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from storbench_api.models import Role
from storbench_fio.job import validate_job_dict
from storbench_fio.jobfile import parse_job_file
from tests.conftest import Caller, make_caller, make_host, make_target
from tests.support.fio import quick_randread

GOLDEN = Path(__file__).resolve().parents[3] / "fio" / "tests" / "golden"
JOB = {"name": "randread-4k", "rw": "randread", "bs": "4k", "size": "16m", "runtime": 1, "time_based": True}


@pytest.fixture(scope="module")
def fio_json(tmp_path_factory: pytest.TempPathFactory) -> str:
    return quick_randread(tmp_path_factory.mktemp("fio-json"))


def _import(client: TestClient, caller: Caller, content: bytes, name: str = "out.json", **form: str) -> Any:
    files = {"file": (name, content, "application/octet-stream")}
    response = client.post("/api/v1/results/import", files=files, data=form, headers=caller.headers)
    assert response.status_code == 201, response.text
    return response.json()["results"]


def _audit(client: TestClient, owner: Caller, action: str) -> list[dict[str, Any]]:
    events = client.get(f"/api/v1/audit?action={action}", headers=owner.headers).json()["items"]
    return list(events)


# ---- relabel ------------------------------------------------------------------------------------


def test_a_member_relabels_a_result_and_the_history_shows_it(
    client: TestClient, db: Session, owner: Caller, fio_json: str
) -> None:
    (result,) = _import(client, owner, fio_json.encode(), label="before")
    member = make_caller(db, team=owner.team, role=Role.member)
    response = client.patch(
        f"/api/v1/results/{result['id']}", json={"label": "  nconnect=8 "}, headers=member.headers
    )
    assert response.status_code == 200, response.text
    assert response.json()["label"] == "nconnect=8"
    listed = client.get("/api/v1/results", headers=owner.headers).json()["items"]
    assert listed[0]["label"] == "nconnect=8"
    (event,) = _audit(client, owner, "result.relabelled")
    assert event["resource_id"] == result["id"]
    assert event["details"]["previous_label"] == "before"
    assert event["details"]["label"] == "nconnect=8"
    assert event["actor"] == member.user.email


def test_a_blank_label_clears_it(client: TestClient, owner: Caller, fio_json: str) -> None:
    (result,) = _import(client, owner, fio_json.encode(), label="x")
    response = client.patch(f"/api/v1/results/{result['id']}", json={"label": "  "}, headers=owner.headers)
    assert response.json()["label"] is None


def test_relabel_needs_a_label_field_of_the_right_type(
    client: TestClient, owner: Caller, fio_json: str
) -> None:
    (result,) = _import(client, owner, fio_json.encode())
    for body in ({}, {"label": 5}, {"label": "x" * 201}):
        response = client.patch(f"/api/v1/results/{result['id']}", json=body, headers=owner.headers)
        assert response.status_code == 422, body


def test_several_results_take_one_label_at_once_or_none_does(
    client: TestClient, db: Session, owner: Caller, fio_json: str
) -> None:
    first = _import(client, owner, fio_json.encode())[0]
    second = _import(client, owner, (GOLDEN / "fio-2.2.10.json").read_bytes())[0]
    response = client.patch(
        "/api/v1/results",
        json={"ids": [first["id"], second["id"]], "label": "firmware 2.1"},
        headers=owner.headers,
    )
    assert response.status_code == 200, response.text
    assert [r["label"] for r in response.json()["items"]] == ["firmware 2.1", "firmware 2.1"]
    stranger = make_caller(db)
    theirs = _import(client, stranger, fio_json.encode())[0]
    refused = client.patch(
        "/api/v1/results", json={"ids": [first["id"], theirs["id"]], "label": "mine"}, headers=owner.headers
    )
    assert refused.status_code == 404
    assert str(theirs["id"]) in refused.json()["message"]
    labels = {r["label"] for r in client.get("/api/v1/results", headers=owner.headers).json()["items"]}
    assert labels == {"firmware 2.1"}


def test_a_viewer_cannot_relabel(client: TestClient, db: Session, owner: Caller, fio_json: str) -> None:
    (result,) = _import(client, owner, fio_json.encode())
    viewer = make_caller(db, team=owner.team, role=Role.viewer)
    response = client.patch(f"/api/v1/results/{result['id']}", json={"label": "x"}, headers=viewer.headers)
    assert response.status_code == 403


# ---- delete -------------------------------------------------------------------------------------


def test_an_owner_deletes_a_result_recorded_in_the_audit_log(
    client: TestClient, owner: Caller, fio_json: str
) -> None:
    (result,) = _import(client, owner, fio_json.encode(), label="old nas")
    assert client.delete(f"/api/v1/results/{result['id']}", headers=owner.headers).status_code == 204
    assert client.get("/api/v1/results", headers=owner.headers).json()["total"] == 0
    assert client.get(f"/api/v1/results/{result['id']}/raw", headers=owner.headers).status_code == 404
    assert client.delete(f"/api/v1/results/{result['id']}", headers=owner.headers).status_code == 404
    (event,) = _audit(client, owner, "result.deleted")
    assert event["resource_id"] == result["id"]
    assert event["details"]["label"] == "old nas"
    assert event["details"]["job"] == "randread-4k"
    assert event["details"]["imported"] is True


def test_members_and_viewers_cannot_delete(
    client: TestClient, db: Session, owner: Caller, fio_json: str
) -> None:
    (result,) = _import(client, owner, fio_json.encode())
    for role in (Role.member, Role.viewer):
        caller = make_caller(db, team=owner.team, role=role)
        response = client.delete(f"/api/v1/results/{result['id']}", headers=caller.headers)
        assert response.status_code == 403
        assert "owner" in response.json()["message"]
    assert client.get("/api/v1/results", headers=owner.headers).json()["total"] == 1


def test_another_teams_result_is_not_found_for_anything(
    client: TestClient, db: Session, owner: Caller, fio_json: str
) -> None:
    (result,) = _import(client, owner, fio_json.encode())
    stranger = make_caller(db)
    rid = result["id"]
    assert (
        client.patch(f"/api/v1/results/{rid}", json={"label": "x"}, headers=stranger.headers).status_code
        == 404
    )
    assert client.delete(f"/api/v1/results/{rid}", headers=stranger.headers).status_code == 404
    assert client.get(f"/api/v1/results/{rid}/raw", headers=stranger.headers).status_code == 404
    assert client.get(f"/api/v1/results/{rid}/job-file", headers=stranger.headers).status_code == 404
    assert client.get("/api/v1/results", headers=owner.headers).json()["items"][0]["label"] == result["label"]


def test_deleting_one_job_of_an_output_keeps_the_output_for_the_others(
    client: TestClient, owner: Caller
) -> None:
    content = (GOLDEN / "fio-3.x-pasted.txt").read_bytes()
    first, second = _import(client, owner, content, name="two-jobs.txt")
    assert client.delete(f"/api/v1/results/{first['id']}", headers=owner.headers).status_code == 204
    raw = client.get(f"/api/v1/results/{second['id']}/raw", headers=owner.headers)
    assert raw.status_code == 200
    assert raw.content == content


# ---- downloads ----------------------------------------------------------------------------------


def test_the_raw_output_downloads_byte_for_byte_as_uploaded(
    client: TestClient, db: Session, owner: Caller, fio_json: str
) -> None:
    content = fio_json.encode()
    (result,) = _import(client, owner, content)
    viewer = make_caller(db, team=owner.team, role=Role.viewer)
    response = client.get(f"/api/v1/results/{result['id']}/raw", headers=viewer.headers)
    assert response.status_code == 200
    assert response.content == content
    assert response.headers["content-type"] == "application/json"
    assert (
        response.headers["content-disposition"]
        == f'attachment; filename="fio-output-result-{result["id"]}.json"'
    )


def test_a_text_output_downloads_as_text(client: TestClient, owner: Caller) -> None:
    content = (GOLDEN / "fio-2.2.10.txt").read_bytes()
    (result,) = _import(client, owner, content, name="terminal.txt")
    response = client.get(f"/api/v1/results/{result['id']}/raw", headers=owner.headers)
    assert response.content == content
    assert response.headers["content-type"] == "text/plain; charset=utf-8"
    assert response.headers["content-disposition"].endswith('.txt"')


def test_an_imported_json_output_gives_the_job_options_fio_printed(
    client: TestClient, owner: Caller, fio_json: str
) -> None:
    (result,) = _import(client, owner, fio_json.encode())
    response = client.get(f"/api/v1/results/{result['id']}/job-file", headers=owner.headers)
    assert response.status_code == 200
    assert response.headers["content-type"] == "text/plain; charset=utf-8"
    assert "attachment" in response.headers["content-disposition"]
    (job,) = parse_job_file(response.text)
    assert job.name == "randread-4k"
    assert (job.rw, job.bs, job.runtime) == ("randread", 4096, 1)


def test_an_import_whose_output_printed_no_options_has_no_job_file(client: TestClient, owner: Caller) -> None:
    # A terminal paste that starts at the results: fio's setup line (rw, ioengine, iodepth) left out.
    text = (GOLDEN / "fio-2.2.10.txt").read_text().split("\n", 1)[1]
    (result,) = _import(client, owner, text.encode(), name="bare.txt")
    assert result["options"] == {}
    response = client.get(f"/api/v1/results/{result['id']}/job-file", headers=owner.headers)
    assert response.status_code == 404
    assert "carried no job options" in response.json()["message"]


def _queued_assignment(client: TestClient, worker: dict[str, str], run_id: int) -> dict[str, Any]:
    me = client.get("/api/v1/worker/me", headers=worker).json()
    connection = redis.Redis.from_url(os.environ["STORBENCH_BROKER_URL"])
    for raw in reversed(connection.lrange(me["queue"], 0, -1)):
        (assignment_id,), _, _ = json.loads(base64.b64decode(json.loads(raw)["body"]))
        fetched = client.get(f"/api/v1/worker/assignments/{assignment_id}", headers=worker)
        if fetched.status_code == 200 and fetched.json()["run_id"] == run_id:
            return dict(fetched.json())
    raise AssertionError(f"no queued assignment for run {run_id}")


def test_a_runs_result_gives_the_job_file_its_worker_ran_and_its_raw_output(
    client: TestClient, db: Session, owner: Caller, fio_json: str
) -> None:
    host, token = make_host(db, team=owner.team)
    target = make_target(db, host=host)
    worker = {"Authorization": f"Bearer {token}"}
    run = client.post(
        "/api/v1/runs", json={"target_id": target.id, "jobs": [JOB]}, headers=owner.headers
    ).json()
    assignment = _queued_assignment(client, worker, run["id"])
    assert (
        client.post(f"/api/v1/worker/assignments/{assignment['id']}/start", headers=worker).status_code == 200
    )
    upload = client.post(
        f"/api/v1/worker/assignments/{assignment['id']}/result", json={"fio_output": fio_json}, headers=worker
    )
    assert upload.status_code == 200, upload.text
    (result,) = client.get(f"/api/v1/runs/{run['id']}", headers=owner.headers).json()["results"]

    job_file = client.get(f"/api/v1/results/{result['id']}/job-file", headers=owner.headers)
    assert job_file.status_code == 200
    assert job_file.headers["content-disposition"] == f'attachment; filename="run-{run["id"]}.fio"'
    # The jobs the worker was given, and validated before building fio's command line.
    ran = [validate_job_dict(job) for job in assignment["jobs"]]
    assert parse_job_file(job_file.text) == ran

    raw = client.get(f"/api/v1/results/{result['id']}/raw", headers=owner.headers)
    assert raw.content == fio_json.encode()
    # Measured when fio finished: its own timestamp (earlier than the upload, never later than now).
    stamp = int(fio_json.split('"timestamp" : ', 1)[1].split(",", 1)[0])
    assert datetime.fromisoformat(result["measured_at"]) == datetime.fromtimestamp(stamp, UTC)
