"""The storage class catalogue: published specs as vendors print them, teams' own classes, versions."""

from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from tests.conftest import Caller, make_caller

API = "/api/v1/storage-classes"


def catalogue(client: TestClient, caller: Caller) -> dict[str, dict[str, Any]]:
    response = client.get(API, headers=caller.headers)
    assert response.status_code == 200, response.text
    return {c["name"]: c for c in response.json()["items"]}


def spec_at(client: TestClient, caller: Caller, class_id: int, **params: Any) -> dict[str, Any]:
    response = client.get(f"{API}/{class_id}/spec", params=params, headers=caller.headers)
    assert response.status_code == 200, response.text
    return dict(response.json())


def test_the_catalogue_holds_every_published_class(client: TestClient, owner: Caller) -> None:
    classes = catalogue(client, owner)
    for name in (
        "SSD cloud disk",
        "Efficiency cloud disk",
        "Basic cloud disk",
        "Enhanced SSD (ESSD) cloud disk",
        "Shared SSD block",
        "Shared efficiency block",
        "NAS capacity type",
        "NAS performance type",
        "Cloud file system standard",
        "Cloud file system turbo standard",
        "HDD 7,200 rpm",
        "HDD 10,000 rpm",
        "HDD 15,000 rpm",
        "SATA HDD (measured)",
        "SAS HDD (measured)",
        "SSD (measured)",
    ):
        assert classes[name]["published"] is True
        assert classes[name]["source"]
    assert classes["Shared SSD block"]["spec"]["min_hosts"] == 2
    assert classes["Basic cloud disk"]["spec"]["max_capacity_gib"] == 2000


@pytest.mark.parametrize(
    ("name", "capacity", "iops", "mbps"),
    [
        ("SSD cloud disk", 800, 20000, 300),  # a user measured 20,126
        ("Enhanced SSD (ESSD) cloud disk", 2000, 201200, 2080),
        ("Efficiency cloud disk", 100, 1600, 60),
        ("Shared SSD block", 500, 20000, 300),
        ("Shared efficiency block", 1000, 5000, 160),
    ],
)
def test_published_worked_examples_hold(
    client: TestClient, owner: Caller, name: str, capacity: int, iops: int, mbps: int
) -> None:
    storage_class = catalogue(client, owner)[name]
    spec = spec_at(client, owner, storage_class["id"], capacity_gib=capacity)
    assert spec["iops"]["expected"] == iops
    assert spec["throughput"]["expected"] == mbps
    assert spec["throughput"]["unit"] == "MB/s"
    assert spec["iops"]["formula"].startswith("min(")
    assert spec["warnings"] == []


def test_the_spec_shows_formulas_ranges_and_per_workload_lines(client: TestClient, owner: Caller) -> None:
    classes = catalogue(client, owner)
    ssd = spec_at(client, owner, classes["SSD cloud disk"]["id"], capacity_gib=800)
    assert ssd["iops"]["formula"] == "min(1200 + 30 × C, 20000)"
    assert (ssd["latency"]["low"], ssd["latency"]["expected"], ssd["latency"]["unit"]) == (0.5, 2, "ms")
    hdd = spec_at(client, owner, classes["HDD 7,200 rpm"]["id"])
    assert hdd["iops"] is None  # no figure for all tests: per workload only
    by_workload = {(f["metric"], f["workload"]): f for f in hdd["figures"]}
    assert round(by_workload[("iops", "random_read")]["expected"]) == 76
    assert by_workload[("latency", "any")]["expected"] == pytest.approx(13.17)


def test_a_capacity_outside_the_class_warns_and_a_missing_one_says_what_is_needed(
    client: TestClient, owner: Caller
) -> None:
    basic = catalogue(client, owner)["Basic cloud disk"]
    assert (
        "above the class's largest volume (2000 GiB)"
        in spec_at(client, owner, basic["id"], capacity_gib=4000)["warnings"][0]
    )
    ssd = catalogue(client, owner)["SSD cloud disk"]
    spec = spec_at(client, owner, ssd["id"])
    assert spec["iops"] is None
    assert any("needs capacity_gib" in w for w in spec["warnings"])


def test_published_classes_are_read_only(client: TestClient, owner: Caller) -> None:
    ssd = catalogue(client, owner)["SSD cloud disk"]
    response = client.patch(f"{API}/{ssd['id']}", json={"name": "mine"}, headers=owner.headers)
    assert response.status_code == 403
    assert "published" in response.json()["message"]


def _team_class(**overrides: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "name": "filer-a tier 1",
        "vendor": "Acme",
        "product": "Filer A",
        "tier": "tier 1",
        "protocol": "nfs",
        "medium": "ssd",
        "source": "Acme datasheet rev 3, p. 12",
        "spec": {
            "expectations": [
                {"metric": "iops", "formula": "min(500 * C / 1024, 80000)"},
                {"metric": "throughput", "workload": "sequential_read", "formula": "min(2 * C, 1600)"},
            ],
            "price_per_gib_month": 0.12,
        },
    }
    body.update(overrides)
    return body


def test_a_team_adds_its_own_class_and_a_spec_change_makes_a_new_version(
    client: TestClient, owner: Caller
) -> None:
    created = client.post(API, json=_team_class(), headers=owner.headers)
    assert created.status_code == 201, created.text
    class_id = created.json()["id"]
    assert created.json()["published"] is False
    assert created.json()["version"] == 1
    assert spec_at(client, owner, class_id, capacity_gib=2048)["iops"]["expected"] == 1000

    new_spec = {"expectations": [{"metric": "iops", "formula": "min(600 * C / 1024, 80000)"}]}
    changed = client.patch(f"{API}/{class_id}", json={"spec": new_spec}, headers=owner.headers)
    assert changed.status_code == 200, changed.text
    assert changed.json()["version"] == 2
    assert spec_at(client, owner, class_id, capacity_gib=2048)["iops"]["expected"] == 1200
    # The earlier version stays, for results judged by it.
    assert spec_at(client, owner, class_id, capacity_gib=2048, version=1)["iops"]["expected"] == 1000
    versions = client.get(f"{API}/{class_id}/versions", headers=owner.headers).json()
    assert [v["version"] for v in versions["items"]] == [1, 2]
    assert versions["items"][0]["price_per_gib_month"] == 0.12

    audit = client.get("/api/v1/audit", headers=owner.headers).json()["items"]
    assert {"storage_class.created", "storage_class.updated"} <= {e["action"] for e in audit}


def test_a_bad_formula_is_refused_naming_the_field_and_the_fault(client: TestClient, owner: Caller) -> None:
    body = _team_class(spec={"expectations": [{"metric": "iops", "formula": "min(1200 + 30 * C"}]})
    response = client.post(API, json=body, headers=owner.headers)
    assert response.status_code == 422
    error = response.json()["errors"][0]
    assert "formula" in error["field"]
    assert "expected ')'" in error["reason"]


def test_two_lines_for_the_same_test_are_refused(client: TestClient, owner: Caller) -> None:
    line = {"metric": "iops", "formula": "100"}
    response = client.post(API, json=_team_class(spec={"expectations": [line, line]}), headers=owner.headers)
    assert response.status_code == 422
    assert "two expectations for iops" in response.text


def test_names_are_unique_per_team_and_classes_private_to_it(
    client: TestClient, owner: Caller, db: Session
) -> None:
    first = client.post(API, json=_team_class(), headers=owner.headers)
    assert client.post(API, json=_team_class(), headers=owner.headers).status_code == 409
    stranger = make_caller(db)
    assert client.get(f"{API}/{first.json()['id']}", headers=stranger.headers).status_code == 404
    assert "filer-a tier 1" not in catalogue(client, stranger)
    # Another team may use the same name for its own class.
    assert client.post(API, json=_team_class(), headers=stranger.headers).status_code == 201


def test_viewers_read_the_catalogue_but_cannot_add_to_it(
    client: TestClient, owner: Caller, db: Session
) -> None:
    from storbench_api.models import Role

    viewer = make_caller(db, team=owner.team, role=Role.viewer)
    assert catalogue(client, viewer)
    assert client.post(API, json=_team_class(), headers=viewer.headers).status_code == 403


def test_a_spec_takes_the_types_its_schema_states(client: TestClient, owner: Caller) -> None:
    spec = {"expectations": [{"metric": "iops", "formula": "100"}], "min_hosts": "2"}
    response = client.post(API, json=_team_class(spec=spec), headers=owner.headers)
    assert response.status_code == 422
    assert "min_hosts" in response.text
