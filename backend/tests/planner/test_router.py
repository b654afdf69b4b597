"""POST /planner: every class sized for a workload, backed by the team's measurements, with reasons."""

from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session

from storbench_api.models.storage_class import StorageClass, StorageClassSpec
from tests.conftest import Caller, make_host, make_target
from tests.support.factories import make_result

API = "/api/v1/planner"


def _class_id(client: TestClient, caller: Caller, name: str) -> int:
    response = client.get("/api/v1/storage-classes", params={"limit": 200}, headers=caller.headers)
    return next(c["id"] for c in response.json()["items"] if c["name"] == name)


def plan(
    client: TestClient, caller: Caller, demands: list[dict[str, Any]], **constraints: Any
) -> list[dict[str, Any]]:
    body = {"demands": demands, "constraints": constraints}
    response = client.post(API, json=body, headers=caller.headers)
    assert response.status_code == 200, response.text
    return list(response.json()["candidates"])


def by_name(candidates: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {c["name"]: c for c in candidates}


IOPS_8K = {"figure": "iops", "value": 20000, "rw": "randread", "bs": "8k"}


def test_every_class_is_answered_feasible_first_with_reasons_for_the_rest(
    client: TestClient, owner: Caller
) -> None:
    candidates = plan(client, owner, [{**IOPS_8K, "latency_percentile": 99, "latency_ms": 2}])
    assert len(candidates) == 16
    feasible = [c["feasible"] for c in candidates]
    assert feasible == sorted(feasible, reverse=True)
    found = by_name(candidates)
    ssd = found["SSD cloud disk"]
    assert (ssd["feasible"], ssd["capacity_gib"], ssd["hosts"]) == (True, 627, 1)
    assert ssd["monthly_cost"] is None and "no price" in ssd["reasons"]
    assert ssd["measured_ratio"] is None
    assert any("no measurements by the team" in r for r in ssd["reasons"])
    assert ssd["verification_presets"] == ["clouddisk-randread-iops"]
    essd = found["Enhanced SSD (ESSD) cloud disk"]
    assert essd["capacity_gib"] == 188  # 1200 + 100 × 188 = 20,000
    efficiency = found["Efficiency cloud disk"]
    assert efficiency["feasible"] is False
    assert any("caps at 3,000 IOPS for every kind of test" in r for r in efficiency["reasons"])
    hdd = found["HDD 7,200 rpm"]
    assert any("caps at 75.9 IOPS for random reads at any capacity" in r for r in hdd["reasons"])
    standard = found["Cloud file system standard"]
    assert any("publishes no IOPS or throughput for random reads" in r for r in standard["reasons"])


def test_a_latency_bound_out_of_reach_makes_a_class_infeasible(client: TestClient, owner: Caller) -> None:
    found = by_name(
        plan(client, owner, [{**IOPS_8K, "value": 2000, "latency_percentile": 99, "latency_ms": 0.3}])
    )
    assert found["Enhanced SSD (ESSD) cloud disk"]["feasible"] is True
    ssd = found["SSD cloud disk"]
    assert ssd["feasible"] is False
    assert any(
        "latency is 0.5–2 ms: p99 under 0.3 ms for random reads is out of reach" in r for r in ssd["reasons"]
    )
    one_ms = by_name(plan(client, owner, [{**IOPS_8K, "value": 2000, "latency_ms": 1}]))
    assert one_ms["SSD cloud disk"]["feasible"] is True
    assert any("is not assured" in r for r in one_ms["SSD cloud disk"]["reasons"])


def test_minimum_hosts_and_client_nics_set_the_hosts(client: TestClient, owner: Caller) -> None:
    found = by_name(plan(client, owner, [{**IOPS_8K, "value": 10000, "bs": "4k"}]))
    assert found["Shared SSD block"]["hosts"] == 2
    assert found["Shared SSD block"]["capacity_gib"] == 250  # 40 × 250 = 10,000
    turbo = by_name(plan(client, owner, [{"figure": "mbps", "value": 2000, "rw": "read", "bs": "1M"}]))[
        "Cloud file system turbo standard"
    ]
    assert (turbo["feasible"], turbo["hosts"], turbo["capacity_gib"]) == (True, 8, 20480)
    capped = by_name(plan(client, owner, [{**IOPS_8K, "value": 10000, "bs": "4k"}], max_hosts=1))
    assert capped["Shared SSD block"]["feasible"] is False
    assert "needs 2 client hosts, more than the 1 allowed" in capped["Shared SSD block"]["reasons"]
    nas = by_name(
        plan(client, owner, [{"figure": "mbps", "value": 600, "rw": "read", "bs": "1M"}], host_nic_mbps=125)
    )["NAS performance type"]
    assert (nas["capacity_gib"], nas["hosts"], nas["hosts_by_nic"]) == (1000, 5, 5)


def test_the_teams_hosts_nics_are_the_default_client_bound(
    client: TestClient, owner: Caller, db: Session
) -> None:
    for index, speed in enumerate((1000, 1000, 10000)):
        host, _ = make_host(db, team=owner.team, name=f"client-{index}")
        host.facts = {
            "nics": [
                {"name": "lo", "speed_mbps": 100000},
                {"name": "eth0", "speed_mbps": speed, "state": "up"},
            ]
        }
    db.commit()
    response = client.post(
        API,
        json={"demands": [{"figure": "mbps", "value": 500, "rw": "read", "bs": "1M"}]},
        headers=owner.headers,
    )
    answer = response.json()
    assert answer["client"]["host_nic_mbps"] == 125
    assert "3 hosts" in answer["client"]["source"]
    assert by_name(answer["candidates"])["NAS performance type"]["hosts"] == 4


def _measure(db: Session, caller: Caller, class_name: str, checks: list[tuple[float, str]]) -> None:
    """Results of the team judged by the class's spec, at these measured-to-spec ratios."""
    spec = db.scalars(
        select(StorageClassSpec)
        .join(StorageClass)
        .where(StorageClass.name == class_name, StorageClass.team_id.is_(None))
    ).one()
    for index, (ratio, verdict) in enumerate(checks):
        check = {
            "direction": "read",
            "metric": "iops",
            "workload": "any",
            "unit": "IOPS",
            "expected": 10000,
            "low": None,
            "measured": 10000 * ratio,
            "percent": 100 * ratio,
            "verdict": verdict,
            "formula": "min(1200 + 30 × C, 20000)",
        }
        make_result(
            db, team=caller.team, job_name=f"r{index}", storage_class_spec_id=spec.id, spec_checks=[check]
        )


def test_a_class_measured_below_its_spec_needs_more_capacity(
    client: TestClient, owner: Caller, db: Session
) -> None:
    _measure(db, owner, "SSD cloud disk", [(0.75, "below"), (0.8, "below"), (0.85, "meets")])
    ssd = by_name(plan(client, owner, [{**IOPS_8K, "value": 9600, "bs": "4k"}]))["SSD cloud disk"]
    assert ssd["capacity_gib"] == 280  # by the spec: 1200 + 30 × 280 = 9,600
    assert ssd["measured_capacity_gib"] == 360  # 9,600 ÷ 0.8 = 12,000 = 1200 + 30 × 360
    assert ssd["proposed_capacity_gib"] == 360
    assert ssd["measured_ratio"] == {
        "metric": "iops", "workload": "any", "median": 0.8, "low": 0.75, "high": 0.85,
        "n": 3, "above_spec": 0, "trusted": True,
    }  # fmt: skip
    beyond = by_name(plan(client, owner, [{**IOPS_8K, "value": 17000, "bs": "4k"}]))["SSD cloud disk"]
    assert beyond["capacity_gib"] == 527 and beyond["feasible"] is False
    assert any("measured at 0.80× its spec, tops out at 16,000 IOPS" in r for r in beyond["reasons"])


def test_a_class_measured_only_above_its_spec_is_not_trusted(
    client: TestClient, owner: Caller, db: Session
) -> None:
    _measure(db, owner, "SSD cloud disk", [(1.6, "above"), (1.7, "above")])
    ssd = by_name(plan(client, owner, [{**IOPS_8K, "value": 9600, "bs": "4k"}]))["SSD cloud disk"]
    assert (ssd["capacity_gib"], ssd["measured_capacity_gib"], ssd["proposed_capacity_gib"]) == (
        280,
        None,
        280,
    )
    assert ssd["measurements"][0]["trusted"] is False and ssd["measurements"][0]["above_spec"] == 2
    assert any("measured only above its spec (2 results: a cache answered)" in r for r in ssd["reasons"])


def _team_class(client: TestClient, caller: Caller, name: str, iops: str, price: float) -> int:
    body = {
        "name": name,
        "vendor": "Cloud provider",
        "product": "Cloud disk",
        "tier": name,
        "protocol": "block",
        "source": "the team's contract",
        "spec": {
            "expectations": [
                {"metric": "iops", "formula": iops},
                {"metric": "throughput", "formula": "min(100 + 0.25 * C, 180)"},
            ],
            "max_capacity_gib": 65536,
            "price_per_gib_month": price,
        },
    }
    response = client.post("/api/v1/storage-classes", json=body, headers=caller.headers)
    assert response.status_code == 201, response.text
    return int(response.json()["id"])


def test_priced_classes_rank_by_cost_and_budget_and_caps_refuse(client: TestClient, owner: Caller) -> None:
    pl0 = _team_class(client, owner, "ESSD PL0", "min(1800 + 12 * C, 10000)", 0.1)
    pl1 = _team_class(client, owner, "ESSD PL1", "min(1800 + 50 * C, 50000)", 0.2)
    candidates = plan(client, owner, [{**IOPS_8K, "value": 6000, "bs": "4k"}], include_classes=[pl1, pl0])
    assert [(c["name"], c["capacity_gib"], c["monthly_cost"]) for c in candidates] == [
        ("ESSD PL1", 84, 16.8),  # 1800 + 50 × 84 = 6,000
        ("ESSD PL0", 350, 35.0),  # 1800 + 12 × 350 = 6,000
    ]
    refused = plan(client, owner, [IOPS_8K], include_classes=[pl0, pl1], budget=100)
    assert [c["name"] for c in refused] == ["ESSD PL1", "ESSD PL0"]
    assert refused[0]["monthly_cost"] == 72.8  # 1800 + 50 × 364 = 20,000
    assert (
        "ESSD PL0 caps at 10,000 IOPS for every kind of test at its largest volume (65,536 GiB); "
        "the workload needs 20,000 IOPS" in refused[1]["reasons"]
    )
    over = plan(client, owner, [IOPS_8K], include_classes=[pl1], budget=50)[0]
    assert over["feasible"] is False and "costs 72.80 a month, above the budget of 50.00" in over["reasons"]


def test_constraints_filter_the_classes_considered(client: TestClient, owner: Caller) -> None:
    nfs = plan(client, owner, [IOPS_8K], protocol="nfs")
    assert {c["name"] for c in nfs} == {"NAS capacity type", "NAS performance type"}
    ssd = _class_id(client, owner, "SSD cloud disk")
    assert ssd not in {c["storage_class_id"] for c in plan(client, owner, [IOPS_8K], exclude_classes=[ssd])}
    assert plan(client, owner, [IOPS_8K], vendor="generic")[0]["vendor"] == "Generic"


def test_bad_workloads_get_a_422_naming_the_field(client: TestClient, owner: Caller) -> None:
    for body, field in [
        ({"demands": []}, "demands"),
        ({"demands": [{**IOPS_8K, "bs": "8q"}]}, "bs"),
        ({"demands": [{**IOPS_8K, "rw": "randrw"}]}, "rw"),
        ({"demands": [{**IOPS_8K, "value": -1}]}, "value"),
        ({"demands": [IOPS_8K], "constraints": {"include_classes": [999999]}}, "include_classes"),
    ]:
        response = client.post(API, json=body, headers=owner.headers)
        assert response.status_code == 422, (body, response.text)
        assert field in response.text


def test_a_candidates_verification_plan_is_saved_to_run_on_its_class(
    client: TestClient, owner: Caller, db: Session
) -> None:
    ssd = _class_id(client, owner, "SSD cloud disk")
    host, _ = make_host(db, team=owner.team)
    target = make_target(db, host=host)
    target.storage_class_id = ssd
    db.commit()
    body = {
        "storage_class_id": ssd,
        "demands": [
            {**IOPS_8K, "value": 19000, "latency_ms": 2},
            {"figure": "mbps", "value": 100, "rw": "write", "bs": "1M"},
        ],
    }
    response = client.post(f"{API}/verification-plans", json=body, headers=owner.headers)
    assert response.status_code == 201, response.text
    created = response.json()
    # 1200 + 30 × C ≥ 19,000 + 95.4 (the writes of 1 MiB count against the IOPS line too)
    assert created["capacity_gib"] == 597 and created["target_ids"] == [target.id]
    assert created["presets"] == ["clouddisk-randread-iops", "clouddisk-seqwrite-throughput"]
    plan_out = created["plan"]
    assert plan_out["name"] == "Verify SSD cloud disk at 597 GiB"
    jobs = {j["name"]: j for j in plan_out["jobs"]}
    assert jobs["demand-1-randread-8k"]["bs"] == 8192 and jobs["demand-1-randread-8k"]["iodepth"] == 128
    assert jobs["demand-2-write-1m"]["rw"] == "write"
    assert "clouddisk-randread-iops" in jobs
    again = client.post(f"{API}/verification-plans", json=body, headers=owner.headers)
    assert again.json()["plan"]["name"] == "Verify SSD cloud disk at 597 GiB (2)"
    listed = client.get(f"/api/v1/plans/{plan_out['id']}", headers=owner.headers)
    assert listed.status_code == 200


def test_the_smallest_positive_numbers_are_answered_not_a_server_error(
    client: TestClient, owner: Caller
) -> None:
    # 5e-324 is the smallest positive double: a ratio of it overflows to infinity.
    tiny = 5e-324
    bodies = [
        {"demands": [{**IOPS_8K, "value": tiny}]},
        {"demands": [{**IOPS_8K, "latency_percentile": 99, "latency_ms": tiny}]},
        {"demands": [{"figure": "mbps", "value": tiny, "rw": "write", "bs": "1M"}]},
        {"demands": [IOPS_8K], "constraints": {"budget": tiny}},
        {"demands": [IOPS_8K], "constraints": {"data_gib": tiny}},
        {"demands": [IOPS_8K], "constraints": {"host_nic_mbps": tiny}},
    ]
    for body in bodies:
        response = client.post(API, json=body, headers=owner.headers)
        assert response.status_code in (200, 422), (body, response.text)
        if response.status_code == 200:
            for candidate in response.json()["candidates"]:
                assert candidate["hosts"] is None or candidate["hosts"] < 2**31, candidate


def test_a_verification_plan_of_a_shape_fio_cannot_run_says_why(client: TestClient, owner: Caller) -> None:
    essd = _class_id(client, owner, "Enhanced SSD (ESSD) cloud disk")
    demands = [
        {"figure": "mbps", "value": 300, "rw": "randread", "bs": 52719},
        {"figure": "iops", "value": 5000, "rw": "randwrite", "latency_ms": 461123.1},
    ]
    body = {"demands": demands, "storage_class_id": essd}
    response = client.post(f"{API}/verification-plans", json=body, headers=owner.headers)
    assert response.status_code in (201, 422), response.text
