"""Imports without a target: listed by host name and job, and filed under a target later."""

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from storbench_api.models import Target
from tests.conftest import Caller, make_caller, make_host, make_target
from tests.history.fio_outputs import with_figures
from tests.support.fio import quick_randread

# Nine results at ~10,000 IOPS, then four at ~7,000: a regression from the tenth on.
LEVELS = [10_050, 9_900, 10_100, 9_950, 10_000, 10_080, 9_920, 10_010, 9_990, 7_020, 6_950, 7_080, 6_990]


@pytest.fixture(scope="module")
def base_output(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return json.loads(quick_randread(tmp_path_factory.mktemp("filing-fio")))


def _output(base: dict[str, Any], *, host: str, day: int, iops: int = 10_000, job: str | None = None) -> str:
    doc = json.loads(with_figures(base, iops=iops, lat_ns=3.2e9 / iops, day=day, job=job))
    doc["jobs"][0]["hostname"] = host
    return json.dumps(doc)


def _import(client: TestClient, caller: Caller, content: str, **form: str) -> int:
    files = {"file": ("out.json", content.encode(), "application/json")}
    response = client.post("/api/v1/results/import", files=files, data=form, headers=caller.headers)
    assert response.status_code == 201, response.text
    (result,) = response.json()["results"]
    return int(result["id"])


def _unfiled(client: TestClient, caller: Caller) -> list[dict[str, Any]]:
    response = client.get("/api/v1/results/unfiled", headers=caller.headers)
    assert response.status_code == 200, response.text
    return list(response.json()["items"])


def _file(client: TestClient, caller: Caller, **body: Any) -> Any:
    return client.post("/api/v1/results/file", json=body, headers=caller.headers)


def _classed_target(client: TestClient, db: Session, caller: Caller, host_name: str = "old-client") -> Target:
    host, _ = make_host(db, team=caller.team, name=host_name)
    target = make_target(db, host=host, name="eff-100")
    classes = client.get("/api/v1/storage-classes", headers=caller.headers).json()["items"]
    efficiency = next(c for c in classes if c["name"] == "Efficiency cloud disk")
    patched = client.patch(
        f"/api/v1/targets/{target.id}",
        json={"storage_class_id": efficiency["id"], "capacity_gib": 100},
        headers=caller.headers,
    )
    assert patched.status_code == 200, patched.text
    return target


def test_imports_without_a_target_are_listed_by_host_name_and_job(
    client: TestClient, db: Session, owner: Caller, base_output: dict[str, Any]
) -> None:
    for day in range(3):
        _import(client, owner, _output(base_output, host="old-client", day=day))
    _import(client, owner, _output(base_output, host="old-client", day=5, job="seqread"))
    _import(client, owner, _output(base_output, host="lab-7", day=1))
    host, _ = make_host(db, team=owner.team, name="filed-host")
    target = make_target(db, host=host)
    _import(client, owner, _output(base_output, host="filed-host", day=2), target_id=str(target.id))

    groups = _unfiled(client, owner)
    assert [(g["host_name"], g["job_name"], g["results"]) for g in groups] == [
        ("old-client", "seqread", 1),
        ("old-client", "randread-4k", 3),
        ("lab-7", "randread-4k", 1),
    ]
    assert groups[1]["fingerprints"] == 1
    assert _unfiled(client, make_caller(db)) == []


def test_filing_a_host_names_imports_judges_counts_and_watches_them_on_the_target(
    client: TestClient, db: Session, owner: Caller, base_output: dict[str, Any]
) -> None:
    ids = [
        _import(client, owner, _output(base_output, host="old-client", day=day, iops=iops))
        for day, iops in enumerate(LEVELS)
    ]
    before = client.get(f"/api/v1/results/{ids[0]}", headers=owner.headers).json()
    assert before["spec_checks"] == [] and before["target_id"] is None
    target = _classed_target(client, db, owner)
    assert (
        client.get(f"/api/v1/history/series?target_id={target.id}", headers=owner.headers).json()["items"]
        == []
    )

    response = _file(client, owner, target_id=target.id, host_name="old-client")
    assert response.status_code == 200, response.text
    filed = response.json()
    assert sorted(filed["result_ids"]) == ids
    assert filed["notices"] == []

    after = client.get(f"/api/v1/results/{ids[0]}", headers=owner.headers).json()
    assert after["target_id"] == target.id
    assert after["storage_class"] == "Efficiency cloud disk"
    assert [c["metric"] for c in after["spec_checks"]] == ["latency"]
    assert _unfiled(client, owner) == []
    # The rollup counts them under the target: its series lists the job with every import.
    (series,) = client.get(f"/api/v1/history/series?target_id={target.id}", headers=owner.headers).json()[
        "items"
    ]
    assert (series["job"], series["direction"], series["results"]) == ("randread-4k", "read", len(ids))
    trend = client.get(
        f"/api/v1/history/trend?target_id={target.id}&job=randread-4k&metric=iops&direction=read",
        headers=owner.headers,
    ).json()
    assert [p["result_id"] for p in trend["points"]] == ids
    # Change detection ran on the target's series: the drop from the tenth import is a regression.
    regressions = client.get(
        f"/api/v1/regressions?target_id={target.id}&kind=regression", headers=owner.headers
    ).json()
    assert {c["result_id"] for c in regressions["items"]} == {ids[9]}
    (event,) = client.get("/api/v1/audit?action=results.filed", headers=owner.headers).json()["items"]
    assert event["resource_id"] == target.id
    assert sorted(event["details"]["result_ids"]) == ids


def test_one_import_is_filed_by_id_and_a_target_of_another_host_says_what_it_means(
    client: TestClient, db: Session, owner: Caller, base_output: dict[str, Any]
) -> None:
    first = _import(client, owner, _output(base_output, host="laptop", day=1))
    second = _import(client, owner, _output(base_output, host="laptop", day=2))
    target = _classed_target(client, db, owner, host_name="nas-client")
    response = _file(client, owner, target_id=target.id, result_ids=[second])
    assert response.status_code == 200, response.text
    (notice,) = response.json()["notices"]
    assert "'laptop'" in notice and "'nas-client'" in notice
    assert client.get(f"/api/v1/results/{second}", headers=owner.headers).json()["host_name"] == "laptop"
    assert client.get(f"/api/v1/results/{first}", headers=owner.headers).json()["target_id"] is None
    again = _file(client, owner, target_id=target.id, result_ids=[second])
    assert again.status_code == 409
    assert "already filed" in again.json()["message"]


def test_filing_is_all_or_nothing_and_another_teams_target_is_not_found(
    client: TestClient, db: Session, owner: Caller, base_output: dict[str, Any]
) -> None:
    mine = _import(client, owner, _output(base_output, host="old-client", day=1))
    stranger = make_caller(db)
    theirs = _import(client, stranger, _output(base_output, host="old-client", day=2))
    target = _classed_target(client, db, owner)
    mixed = _file(client, owner, target_id=target.id, result_ids=[mine, theirs])
    assert mixed.status_code == 404
    assert str(theirs) in mixed.json()["message"]
    assert client.get(f"/api/v1/results/{mine}", headers=owner.headers).json()["target_id"] is None
    foreign = _file(client, stranger, target_id=target.id, result_ids=[theirs])
    assert foreign.status_code == 404
    assert _file(client, owner, target_id=target.id, host_name="nobody").status_code == 404
    both = _file(client, owner, target_id=target.id, result_ids=[mine], host_name="old-client")
    assert both.status_code == 422
    viewer = client.post("/api/v1/results/file", json={"target_id": target.id, "result_ids": [mine]})
    assert viewer.status_code == 401
