"""The verdict a run or result page opens with: spec, previous run, regression state, worst finding."""

from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from storbench_api.models import Run, RunStatus, Target
from storbench_api.results import service as results_service
from storbench_api.results.provenance import Provenance
from tests.compare.outputs import shaped, template
from tests.conftest import Caller, make_caller, make_host, make_target


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return template(tmp_path_factory.mktemp("fio-template"))


def _run(db: Session, target: Target, outputs: list[str]) -> Run:
    """A finished run of the preset 'quick' whose repetitions measured these outputs."""
    run = Run(
        team_id=target.team_id,
        target_id=target.id,
        plan_name="quick",
        jobs=[{"name": "randread-4k"}],
        status=RunStatus.completed,
        repetitions=len(outputs),
    )
    db.add(run)
    db.flush()
    for repetition, output in enumerate(outputs):
        source = Provenance(target.team_id, target=target, run_id=run.id, repetitions=(repetition,))
        results_service.store_report(db, source, results_service.parse_output(output), output)
    db.commit()
    return run


def _classed_target(client: TestClient, db: Session, owner: Caller) -> Target:
    """A target of the SSD cloud disk class at 800 GiB: 20,000 IOPS expected."""
    host, _ = make_host(db, team=owner.team)
    target = make_target(db, host=host, name="ssd-800")
    classes = client.get("/api/v1/storage-classes", headers=owner.headers).json()["items"]
    ssd = next(c for c in classes if c["name"] == "SSD cloud disk")
    patched = client.patch(
        f"/api/v1/targets/{target.id}",
        json={"storage_class_id": ssd["id"], "capacity_gib": 800},
        headers=owner.headers,
    )
    assert patched.status_code == 200, patched.text
    db.refresh(target)
    return target


def _iops(line: dict[str, Any]) -> dict[str, Any]:
    return next(f for f in line["figures"] if f["figure"] == "iops")


def test_a_run_opens_with_its_figures_against_the_spec_and_the_previous_run(
    client: TestClient, db: Session, owner: Caller, base: dict[str, Any]
) -> None:
    target = _classed_target(client, db, owner)
    before = _run(
        db, target, [shaped(base, iops=20_000 + i * 100, timestamp=1_700_000_000 + i) for i in range(3)]
    )
    after = _run(
        db, target, [shaped(base, iops=12_000 + i * 100, timestamp=1_700_100_000 + i) for i in range(3)]
    )

    response = client.get(f"/api/v1/runs/{after.id}/verdict", headers=owner.headers)
    assert response.status_code == 200, response.text
    verdict = response.json()
    assert verdict["run_id"] == after.id
    [line] = verdict["lines"]
    assert (line["job_name"], line["direction"], line["n"]) == ("randread-4k", "read", 3)
    iops = _iops(line)
    assert iops["value"] == pytest.approx(12_100)
    # Against the class's 20,000 IOPS: below, with the expected value beside the measured one.
    assert iops["spec"]["expected"] == pytest.approx(20_000)
    assert iops["spec"]["verdict"] == "below"
    assert verdict["spec"] == "below"
    # Against the previous run of the same preset on the same target: worse, with its test.
    assert iops["previous"]["value"] == pytest.approx(20_100)
    assert iops["previous"]["verdict"]["kind"] == "worse"
    assert iops["previous"]["verdict"]["test"] is not None
    assert verdict["previous_run"]["run_id"] == before.id
    assert verdict["previous_run"]["compare_path"].startswith("/compare?ids=")
    assert verdict["regression"]["state"] in {"ok", "regression"}
    assert any("BELOW the spec" in text for text in verdict["text"])
    assert any("previous run: WORSE" in text for text in verdict["text"])


def test_the_first_run_says_there_is_nothing_to_compare_with(
    client: TestClient, db: Session, owner: Caller, base: dict[str, Any]
) -> None:
    host, _ = make_host(db, team=owner.team)
    target = make_target(db, host=host)
    run = _run(db, target, [shaped(base, iops=5_000)])
    verdict = client.get(f"/api/v1/runs/{run.id}/verdict", headers=owner.headers).json()
    assert verdict["previous_run"] is None
    assert "first run" in verdict["previous_note"]
    assert verdict["spec"] == "no_spec"
    assert _iops(verdict["lines"][0])["previous"] is None


def test_an_import_without_a_target_has_a_page_and_a_verdict_with_its_worst_finding(
    client: TestClient, owner: Caller, base: dict[str, Any]
) -> None:
    # One I/O in flight for a 32 KiB IOPS test: the advisor warns, and the verdict leads with that.
    output = shaped(base, iops=900, iodepth=1, bs="32k", name="qd1")
    imported = client.post(
        "/api/v1/results/import",
        files={"file": ("vendor.json", output.encode(), "application/json")},
        data={"host_name": "nas-client-7"},
        headers=owner.headers,
    )
    assert imported.status_code == 201, imported.text
    result_id = imported.json()["results"][0]["id"]

    page = client.get(f"/api/v1/results/{result_id}", headers=owner.headers)
    assert page.status_code == 200
    assert page.json()["host_name"] == "nas-client-7"

    verdict = client.get(f"/api/v1/results/{result_id}/verdict", headers=owner.headers).json()
    assert verdict["run_id"] is None
    assert verdict["result_ids"] == [result_id]
    assert verdict["previous_import"] is None
    assert "first import of qd1 from nas-client-7" in verdict["previous_note"]
    assert verdict["regression"]["state"] == "not_watched"
    worst = verdict["worst_finding"]
    assert worst["result_id"] == result_id
    assert worst["finding"]["severity"] == "warning"
    assert worst["finding"]["fix"]


def test_another_teams_run_or_result_is_not_found(
    client: TestClient, db: Session, owner: Caller, base: dict[str, Any]
) -> None:
    host, _ = make_host(db, team=owner.team)
    run = _run(db, make_target(db, host=host), [shaped(base, iops=5_000)])
    stranger = make_caller(db)
    assert client.get(f"/api/v1/runs/{run.id}/verdict", headers=stranger.headers).status_code == 404
    result_id = client.get(f"/api/v1/runs/{run.id}/verdict", headers=owner.headers).json()["result_ids"][0]
    for path in (f"/api/v1/results/{result_id}", f"/api/v1/results/{result_id}/verdict"):
        assert client.get(path, headers=stranger.headers).status_code == 404


def _imported(client: TestClient, owner: Caller, output: str, host_name: str) -> int:
    response = client.post(
        "/api/v1/results/import",
        files={"file": ("out.json", output.encode(), "application/json")},
        data={"host_name": host_name},
        headers=owner.headers,
    )
    assert response.status_code == 201, response.text
    return int(response.json()["results"][0]["id"])


def test_an_import_is_compared_with_the_previous_import_of_its_host_name_and_job(
    client: TestClient, owner: Caller, base: dict[str, Any]
) -> None:
    first = _imported(client, owner, shaped(base, iops=10_000), "nas-client-7")
    _imported(client, owner, shaped(base, iops=12_000), "other-client")
    _imported(client, owner, shaped(base, iops=11_000, bs="64k"), "nas-client-7")
    latest = _imported(client, owner, shaped(base, iops=8_000), "nas-client-7")

    verdict = client.get(f"/api/v1/results/{latest}/verdict", headers=owner.headers).json()
    # Not the other host's import, nor the one measured another way (64 KiB): the same job, host, shape.
    assert verdict["previous_import"]["result_id"] == first
    assert (
        verdict["previous_import"]["compare_path"]
        == f"/compare?ids={first},{latest}&baseline={first}&pool=run"
    )
    assert verdict["previous_run"] is None
    assert "previous import" in verdict["previous_note"]
    previous = _iops(verdict["lines"][0])["previous"]
    assert previous["value"] == pytest.approx(10_000)
    assert previous["delta_pct"] == pytest.approx(-20)
    assert f"compared with result #{first}" in "\n".join(verdict["text"])
    # The first import has nothing before it.
    assert (
        client.get(f"/api/v1/results/{first}/verdict", headers=owner.headers).json()["previous_import"]
        is None
    )
