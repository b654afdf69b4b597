"""Retention: past a team's windows, raw outputs and per-second series go; summaries stay forever."""

import base64
import gzip
import json
import os
from datetime import timedelta
from typing import Any

import pytest
import redis
from fastapi.testclient import TestClient
from sqlalchemy import delete, update
from sqlalchemy.orm import Session

from storbench_api.db import get_sessionmaker, utcnow
from storbench_api.models import ProgressSample, RawOutput, Role, Run, Team
from storbench_api.retention.service import apply_once, prune_team
from storbench_api.security import new_token
from tests.conftest import Caller, make_caller, make_host, make_target
from tests.support.fio import quick_randread

JOB = {"name": "randread-4k", "rw": "randread", "bs": "4k", "size": "16m", "runtime": 1, "time_based": True}
SAMPLE = {
    "elapsed_s": 1.0,
    "percent": 50.0,
    "directions": {"read": {"iops": 900.0, "bw_bytes": 3.6e6, "lat_mean_ns": 1.1e6}},
}


@pytest.fixture(scope="module")
def fio_json(tmp_path_factory: pytest.TempPathFactory) -> str:
    return quick_randread(tmp_path_factory.mktemp("fio-json"))


def imported(client: TestClient, caller: Caller, content: str) -> dict[str, Any]:
    files = {"file": ("out.json", content.encode(), "application/octet-stream")}
    answer = client.post("/api/v1/results/import", files=files, headers=caller.headers)
    assert answer.status_code == 201, answer.text
    (result,) = answer.json()["results"]
    return dict(result)


def measured_run(client: TestClient, db: Session, owner: Caller, fio_json: str) -> tuple[int, int]:
    """A run measured by a worker that reported a second of progress: (run id, result id)."""
    host, token = make_host(db, team=owner.team)
    worker = {"Authorization": f"Bearer {token}"}
    run = client.post(
        "/api/v1/runs",
        json={"target_id": make_target(db, host=host).id, "jobs": [JOB]},
        headers=owner.headers,
    ).json()
    queue = client.get("/api/v1/worker/me", headers=worker).json()["queue"]
    raw = redis.Redis.from_url(os.environ["STORBENCH_BROKER_URL"]).lrange(queue, 0, -1)[-1]
    (assignment_id,), _, _ = json.loads(base64.b64decode(json.loads(raw)["body"]))
    base = f"/api/v1/worker/assignments/{assignment_id}"
    assert client.get(base, headers=worker).status_code == 200
    assert client.post(f"{base}/start", headers=worker).status_code == 200
    assert client.post(f"{base}/progress", json={"samples": [SAMPLE]}, headers=worker).status_code == 200
    upload = client.post(f"{base}/result", json={"fio_output": fio_json}, headers=worker)
    assert upload.status_code == 200, upload.text
    (result,) = client.get(f"/api/v1/runs/{run['id']}", headers=owner.headers).json()["results"]
    return int(run["id"]), int(result["id"])


def age_everything_of(db: Session, team: Team, days: int) -> None:
    """Make the team's stored outputs and ended runs `days` older."""
    then = utcnow() - timedelta(days=days)
    db.execute(update(RawOutput).where(RawOutput.team_id == team.id).values(created_at=then))
    db.execute(update(Run).where(Run.team_id == team.id).values(finished_at=then))
    db.commit()


def prune_all(db: Session, team: Team) -> None:
    """Apply the team's settings as the sweeper does, until nothing is due."""
    db.refresh(team)
    while prune_team(db, team, utcnow()).raw_outputs:
        pass
    db.commit()


def set_retention(client: TestClient, caller: Caller, raw: int | None, series: int | None) -> Any:
    body = {"raw_output_days": raw, "series_days": series}
    return client.put("/api/v1/teams/current/retention", json=body, headers=caller.headers)


def history_item(client: TestClient, caller: Caller, result_id: int) -> dict[str, Any]:
    items = client.get("/api/v1/results?limit=1000", headers=caller.headers).json()["items"]
    return dict(next(item for item in items if item["id"] == result_id))


def test_a_team_keeps_everything_until_an_owner_sets_a_window(client: TestClient, owner: Caller) -> None:
    assert client.get("/api/v1/teams/current/retention", headers=owner.headers).json() == {
        "raw_output_days": None,
        "series_days": None,
    }
    answer = set_retention(client, owner, 30, 7)
    assert answer.status_code == 200
    assert answer.json() == {"raw_output_days": 30, "series_days": 7}
    events = client.get("/api/v1/audit?action=team.retention_changed", headers=owner.headers).json()["items"]
    details = events[0]["details"]
    assert sorted(details.pop("changed")) == ["raw_output_days", "series_days"]
    assert details == {"raw_output_days": 30, "series_days": 7}


def test_only_owners_set_retention_and_members_read_it(
    client: TestClient, db: Session, owner: Caller
) -> None:
    member = make_caller(db, team=owner.team, role=Role.member)
    assert set_retention(client, member, 30, 30).status_code == 403
    assert client.get("/api/v1/teams/current/retention", headers=member.headers).status_code == 200


@pytest.mark.parametrize("days", [0, -1, 3651, "30", 1.5])
def test_a_window_outside_one_day_to_ten_years_is_refused(
    client: TestClient, owner: Caller, days: Any
) -> None:
    answer = set_retention(client, owner, days, None)
    assert answer.status_code == 422
    assert "raw_output_days" in answer.text


def test_past_the_windows_a_result_loses_its_raw_output_and_series_but_keeps_its_figures(
    client: TestClient, db: Session, owner: Caller, fio_json: str
) -> None:
    run_id, result_id = measured_run(client, db, owner, fio_json)
    old_import = imported(client, owner, fio_json.replace('"timestamp" : ', '"timestamp" : 1', 1))
    age_everything_of(db, owner.team, days=40)
    fresh_import = imported(client, owner, fio_json.replace('"timestamp" : ', '"timestamp" : 2', 1))
    before = {rid: history_item(client, owner, rid) for rid in (result_id, old_import["id"])}
    compared_before = client.get(f"/api/v1/compare?ids={result_id},{old_import['id']}", headers=owner.headers)
    assert compared_before.status_code == 200

    assert set_retention(client, owner, 30, 30).status_code == 200
    prune_all(db, owner.team)

    for rid in (result_id, old_import["id"]):
        gone = client.get(f"/api/v1/results/{rid}/raw", headers=owner.headers)
        assert gone.status_code == 404
        assert "retention" in gone.json()["message"]
        # Every figure, its place in history and the job file stay.
        assert history_item(client, owner, rid) == before[rid]
        assert client.get(f"/api/v1/results/{rid}/job-file", headers=owner.headers).status_code == 200
    compared = client.get(f"/api/v1/compare?ids={result_id},{old_import['id']}", headers=owner.headers)
    assert compared.json() == compared_before.json()
    # What is inside the window stays whole.
    assert client.get(f"/api/v1/results/{fresh_import['id']}/raw", headers=owner.headers).status_code == 200

    progress = client.get(f"/api/v1/runs/{run_id}/progress", headers=owner.headers).json()
    assert [host["samples"] for host in progress["hosts"]] == [[]]
    run = client.get(f"/api/v1/runs/{run_id}", headers=owner.headers).json()
    assert run["series_pruned_at"] is not None
    assert [r["id"] for r in run["results"]] == [result_id]


def test_within_the_windows_nothing_goes(
    client: TestClient, db: Session, owner: Caller, fio_json: str
) -> None:
    run_id, result_id = measured_run(client, db, owner, fio_json)
    age_everything_of(db, owner.team, days=20)
    assert set_retention(client, owner, 30, 30).status_code == 200
    prune_all(db, owner.team)
    assert client.get(f"/api/v1/results/{result_id}/raw", headers=owner.headers).content == fio_json.encode()
    progress = client.get(f"/api/v1/runs/{run_id}/progress", headers=owner.headers).json()
    assert len(progress["hosts"][0]["samples"]) == 1
    assert db.query(ProgressSample).count() > 0


def test_another_teams_window_leaves_this_teams_outputs_alone(
    client: TestClient, db: Session, owner: Caller, fio_json: str
) -> None:
    mine = imported(client, owner, fio_json)
    age_everything_of(db, owner.team, days=40)
    other = make_caller(db)
    assert set_retention(client, other, 1, 1).status_code == 200
    prune_all(db, other.team)
    assert client.get(f"/api/v1/results/{mine['id']}/raw", headers=owner.headers).status_code == 200


def test_an_identical_output_imported_again_is_still_recognised_after_its_content_went(
    client: TestClient, db: Session, owner: Caller, fio_json: str
) -> None:
    first = imported(client, owner, fio_json)
    age_everything_of(db, owner.team, days=40)
    set_retention(client, owner, 30, None)
    prune_all(db, owner.team)
    files = {"file": ("out.json", fio_json.encode(), "application/octet-stream")}
    again = client.post("/api/v1/results/import", files=files, headers=owner.headers)
    assert again.status_code == 200
    assert again.json()["duplicate"] is True
    assert [r["id"] for r in again.json()["results"]] == [first["id"]]


def test_the_sweepers_pass_empties_what_is_past_a_window_in_transactions_of_its_own(engine: Any) -> None:
    # apply_once commits in sessions of its own, as the sweeper runs it: this test commits too,
    # and removes its team (and with it what it stored) at the end.
    sessions = get_sessionmaker()
    with sessions() as db:
        team = Team(name=f"retention-{new_token('t')[-8:]}", raw_output_retention_days=30)
        db.add(team)
        db.flush()
        old, fresh = (
            RawOutput(
                team_id=team.id,
                source_format="json",
                size_bytes=2,
                content_gz=gzip.compress(b"{}"),
                created_at=utcnow() - timedelta(days=days),
            )
            for days in (31, 29)
        )
        db.add_all([old, fresh])
        db.commit()
    try:
        assert apply_once().raw_outputs >= 1
        with sessions() as db:
            emptied, kept = db.get_one(RawOutput, old.id), db.get_one(RawOutput, fresh.id)
            assert (emptied.content_gz, emptied.pruned_at is not None) == (b"", True)
            assert (gzip.decompress(kept.content_gz), kept.pruned_at) == (b"{}", None)
    finally:
        with sessions() as db:
            db.execute(delete(Team).where(Team.id == team.id))
            db.commit()
