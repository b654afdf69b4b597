"""The controls a team uses every day on runs: labels and notes, run again, headline figures, the
mount a run ran on, presets only where they run, and a check before starting."""

import base64
import json
import os
from typing import Any

import pytest
import redis
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from storbench_api.models import Host, Target
from tests.conftest import ONLINE_FACTS, Caller, make_caller, make_host, make_target
from tests.support.fio import quick_randread, run_fio_json

JOB = {"name": "randread-4k", "rw": "randread", "bs": "4k", "size": "16m", "runtime": 1, "time_based": True}
NFS_FACTS = {
    **ONLINE_FACTS,
    "os": "Linux-6.1.0-13-amd64-x86_64-with-glibc2.36",
    "mounts": [
        {"source": "/dev/vda1", "mountpoint": "/", "fstype": "ext4", "options": "rw,relatime"},
        {
            "source": "nas.example:/share",
            "mountpoint": "/mnt/nas",
            "fstype": "nfs4",
            "options": "rw,vers=4.1,rsize=1048576,wsize=1048576,hard,proto=tcp,nconnect=8",
        },
    ],
    "path_space": [
        {"path": "/srv", "free_bytes": 100 << 30, "total_bytes": 200 << 30},
        {"path": "/mnt", "free_bytes": 500 << 30, "total_bytes": 900 << 30},
        {"path": "/mnt/nas", "free_bytes": 40 << 30, "total_bytes": 1 << 40},
    ],
}


@pytest.fixture
def nas(db: Session, owner: Caller) -> tuple[Host, str, Target]:
    host, token = make_host(db, team=owner.team, name="nfs-client")
    host.facts = NFS_FACTS
    db.commit()
    return host, token, make_target(db, host=host, name="nas share", path="/mnt/nas/bench")


def _start(client: TestClient, caller: Caller, target: Target, **body: Any) -> Any:
    return client.post("/api/v1/runs", json={"target_id": target.id, **body}, headers=caller.headers)


def _report(client: TestClient, token: str, run_id: int, output: str) -> None:
    """Report the run's assignment as its worker does, with a real fio output."""
    worker = {"Authorization": f"Bearer {token}"}
    queue = client.get("/api/v1/worker/me", headers=worker).json()["queue"]
    connection = redis.Redis.from_url(os.environ["STORBENCH_BROKER_URL"])
    for raw in reversed(connection.lrange(queue, 0, -1)):
        (assignment_id,), _, _ = json.loads(base64.b64decode(json.loads(raw)["body"]))
        fetched = client.get(f"/api/v1/worker/assignments/{assignment_id}", headers=worker)
        if fetched.status_code == 200 and fetched.json()["run_id"] == run_id:
            client.post(f"/api/v1/worker/assignments/{assignment_id}/start", headers=worker)
            done = client.post(
                f"/api/v1/worker/assignments/{assignment_id}/result",
                json={"fio_output": output},
                headers=worker,
            )
            assert done.status_code == 200, done.text
            return
    raise AssertionError(f"no queued assignment for run {run_id}")


def test_a_label_and_note_set_at_start_can_be_changed_and_filtered_on(
    client: TestClient, owner: Caller, nas: tuple[Host, str, Target]
) -> None:
    _, _, target = nas
    run = _start(client, owner, target, jobs=[JOB], label="after firmware 2.1", note="nconnect=8").json()
    assert (run["label"], run["note"]) == ("after firmware 2.1", "nconnect=8")
    _start(client, owner, target, jobs=[JOB], label="baseline")
    patched = client.patch(
        f"/api/v1/runs/{run['id']}", json={"label": "after firmware 2.2"}, headers=owner.headers
    )
    assert patched.status_code == 200, patched.text
    assert (patched.json()["label"], patched.json()["note"]) == ("after firmware 2.2", "nconnect=8")
    cleared = client.patch(f"/api/v1/runs/{run['id']}", json={"note": None}, headers=owner.headers).json()
    assert cleared["note"] is None and cleared["label"] == "after firmware 2.2"

    found = client.get("/api/v1/runs", params={"label": "FIRMWARE"}, headers=owner.headers).json()
    assert [r["id"] for r in found["items"]] == [run["id"]]
    assert client.get("/api/v1/runs", params={"label": "100%"}, headers=owner.headers).json()["total"] == 0
    events = client.get("/api/v1/audit", headers=owner.headers).json()["items"]
    assert any(e["action"] == "run.updated" and e["resource_id"] == run["id"] for e in events)


def test_a_viewer_cannot_relabel_and_another_team_cannot_see(
    client: TestClient, owner: Caller, db: Session, nas: tuple[Host, str, Target]
) -> None:
    _, _, target = nas
    run = _start(client, owner, target, jobs=[JOB]).json()
    from storbench_api.models import Role

    viewer = make_caller(db, team=owner.team, role=Role.viewer)
    assert (
        client.patch(f"/api/v1/runs/{run['id']}", json={"label": "x"}, headers=viewer.headers).status_code
        == 403
    )
    stranger = make_caller(db)
    assert (
        client.patch(f"/api/v1/runs/{run['id']}", json={"label": "x"}, headers=stranger.headers).status_code
        == 404
    )
    again = client.post(f"/api/v1/runs/{run['id']}/run-again", json={}, headers=stranger.headers)
    assert again.status_code == 404


def test_run_again_repeats_the_jobs_target_and_plan_version_with_a_new_label(
    client: TestClient, owner: Caller, nas: tuple[Host, str, Target]
) -> None:
    _, _, target = nas
    plan = client.post("/api/v1/plans", json={"name": "nas 4k", "jobs": [JOB]}, headers=owner.headers).json()
    first = _start(client, owner, target, plan_id=plan["id"], label="nconnect=1", note="default mount").json()
    client.patch(f"/api/v1/plans/{plan['id']}", json={"jobs": [{**JOB, "bs": "8k"}]}, headers=owner.headers)
    again = client.post(
        f"/api/v1/runs/{first['id']}/run-again", json={"label": "nconnect=8"}, headers=owner.headers
    )
    assert again.status_code == 201, again.text
    second = again.json()
    assert second["id"] != first["id"] and second["status"] == "queued"
    assert second["target"]["id"] == target.id
    # The jobs it ran, not the plan's newer version.
    assert second["jobs"] == first["jobs"] and second["jobs"][0]["bs"] == 4096
    assert (second["plan_id"], second["plan_name"], second["plan_version"]) == (plan["id"], "nas 4k", 1)
    assert (second["label"], second["note"]) == ("nconnect=8", "default mount")


def test_run_again_keeps_the_number_of_repetitions(
    client: TestClient, owner: Caller, nas: tuple[Host, str, Target]
) -> None:
    _, _, target = nas
    first = _start(client, owner, target, jobs=[JOB], repetitions=3).json()
    again = client.post(f"/api/v1/runs/{first['id']}/run-again", json={}, headers=owner.headers).json()
    assert again["repetitions"] == first["repetitions"] == 3


def test_the_run_keeps_the_mount_its_target_was_on(
    client: TestClient, owner: Caller, db: Session, nas: tuple[Host, str, Target]
) -> None:
    host, _, target = nas
    run = _start(client, owner, target, jobs=[JOB]).json()
    # Remounted afterwards: the run still says what it ran on.
    host.facts = {**NFS_FACTS, "mounts": NFS_FACTS["mounts"][:1]}
    db.commit()
    mount = client.get(f"/api/v1/runs/{run['id']}", headers=owner.headers).json()["assignments"][0]["mount"]
    assert mount["mountpoint"] == "/mnt/nas" and mount["fstype"] == "nfs4"
    assert (mount["nfs_version"], mount["nconnect"], mount["rsize"], mount["wsize"]) == (
        "4.1",
        8,
        1048576,
        1048576,
    )
    later = _start(client, owner, target, jobs=[JOB]).json()
    assert later["assignments"][0]["mount"]["mountpoint"] == "/"


def test_runs_list_their_headline_iops_or_throughput_and_p99(
    client: TestClient, owner: Caller, nas: tuple[Host, str, Target], tmp_path: Any
) -> None:
    _, token, target = nas
    small = _start(client, owner, target, jobs=[JOB]).json()
    _report(client, token, small["id"], quick_randread(tmp_path / "small"))
    large_job = {**JOB, "name": "read-1m", "rw": "read", "bs": "1m"}
    large = _start(client, owner, target, jobs=[large_job]).json()
    output = run_fio_json(
        tmp_path / "large",
        "--name=read-1m",
        "--rw=read",
        "--bs=1m",
        "--size=16m",
        "--runtime=1",
        "--time_based",
        "--ioengine=psync",
    )
    _report(client, token, large["id"], output)
    queued = _start(client, owner, target, jobs=[JOB]).json()

    listed = {r["id"]: r for r in client.get("/api/v1/runs", headers=owner.headers).json()["items"]}
    iops = listed[small["id"]]["headline"]
    assert iops["metric"] == "iops" and iops["job_name"] == "randread-4k"
    detail = client.get(f"/api/v1/runs/{small['id']}", headers=owner.headers).json()
    read = detail["results"][0]["directions"]["read"]
    assert iops["iops"] == pytest.approx(read["iops"])
    assert iops["p99_ns"] == pytest.approx(read["clat_ns"]["percentiles"]["99"])
    assert listed[large["id"]]["headline"]["metric"] == "throughput"
    assert listed[large["id"]]["headline"]["bw_bytes"] > 0
    assert listed[queued["id"]]["headline"] is None
    # Lists leave results out but name them, so runs can be compared.
    assert listed[small["id"]]["result_ids"] == [r["id"] for r in detail["results"]]
    assert listed[queued["id"]]["result_ids"] == []


def test_a_windows_preset_is_refused_on_a_linux_host_before_the_run(
    client: TestClient, owner: Caller, nas: tuple[Host, str, Target]
) -> None:
    _, _, target = nas
    response = _start(client, owner, target, preset_id="nas-windows-randread-iops")
    assert response.status_code == 422, response.text
    body = response.json()
    assert "nas-windows-randread-iops" in body["message"] and "runs Linux" in body["message"]
    assert body["errors"][0]["field"] == "preset_id"
    assert client.get("/api/v1/runs", headers=owner.headers).json()["total"] == 0


def test_the_check_gives_space_and_memory_in_human_units_and_every_refusal(
    client: TestClient, owner: Caller, nas: tuple[Host, str, Target]
) -> None:
    _, _, target = nas
    fits = client.post(
        "/api/v1/runs/check", json={"target_id": target.id, "jobs": [JOB]}, headers=owner.headers
    )
    assert fits.status_code == 200, fits.text
    body = fits.json()
    assert body["ok"] is True and body["problems"] == []
    assert (body["needs_bytes"], body["free_bytes"]) == (16 << 20, 40 << 30)
    assert body["platform"] == "linux"
    assert "needs 16 MiB, the target has 40 GiB free" in body["summary"][0]

    big = {**JOB, "size": "160g"}
    refused = client.post(
        "/api/v1/runs/check", json={"target_id": target.id, "jobs": [big]}, headers=owner.headers
    )
    body = refused.json()
    assert body["ok"] is False
    assert "needs 160 GiB, the target has 40 GiB free" in body["summary"][0]
    assert any("40 GiB free" in p["reason"] for p in body["problems"])
    # Starting it is refused with the same words, before anything is queued.
    started = _start(client, owner, target, jobs=[big])
    assert started.status_code == 422 and "40 GiB free" in started.text

    windows = client.post(
        "/api/v1/runs/check",
        json={"target_id": target.id, "preset_id": "nas-windows-randread-iops"},
        headers=owner.headers,
    ).json()
    assert windows["ok"] is False and windows["problems"][0]["field"] == "preset_id"
    assert client.get("/api/v1/runs", headers=owner.headers).json()["total"] == 0


def test_the_check_names_an_unknown_plan_or_target_as_the_field_to_fix(
    client: TestClient, owner: Caller, nas: tuple[Host, str, Target]
) -> None:
    _, _, target = nas
    plan = client.post(
        "/api/v1/runs/check", json={"target_id": target.id, "plan_id": 424242}, headers=owner.headers
    )
    assert plan.status_code == 422 and plan.json()["errors"][0]["field"] == "plan_id"
    unknown = client.post(
        "/api/v1/runs/check", json={"target_id": 424242, "jobs": [JOB]}, headers=owner.headers
    )
    assert unknown.status_code == 422 and unknown.json()["errors"][0]["field"] == "target_id"
