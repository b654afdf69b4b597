"""Grouped views of imported results of several classes, saved views, and the previous run."""

import csv
import io
import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from storbench_api.compare.schemas import GroupsOut
from storbench_api.models import Plan, Role, Run, RunStatus, Target
from storbench_api.results import service as results_service
from storbench_api.results.provenance import Provenance
from tests.compare.outputs import shaped, template
from tests.compare.test_compare_router import imported
from tests.conftest import Caller, make_caller, make_host, make_target


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return template(tmp_path_factory.mktemp("fio-template"))


def classed_target(
    client: TestClient, db: Session, caller: Caller, name: str, price: float | None, capacity: float
) -> Target:
    """A target of a new team class (NFS, SSD) with a price per GiB-month and a provisioned capacity."""
    body = {
        "name": name,
        "vendor": f"vendor of {name}",
        "product": "filer",
        "tier": name.split()[-1],
        "protocol": "nfs",
        "medium": "ssd",
        "source": "test",
        "spec": {"expectations": [{"metric": "iops", "formula": "100000"}], "price_per_gib_month": price},
    }
    created = client.post("/api/v1/storage-classes", json=body, headers=caller.headers)
    assert created.status_code == 201, created.text
    host, _ = make_host(db, team=caller.team, name=f"h-{name.replace(' ', '-')}")
    target = make_target(db, host=host, name=name)
    patched = client.patch(
        f"/api/v1/targets/{target.id}",
        json={"storage_class_id": created.json()["id"], "capacity_gib": capacity},
        headers=caller.headers,
    )
    assert patched.status_code == 200, patched.text
    return target


def groups(client: TestClient, caller: Caller, query: str) -> Any:
    return client.get(f"/api/v1/compare/groups?{query}", headers=caller.headers)


def test_groups_by_class_with_spread_per_gib_and_per_dollar_never_mixing_shapes(
    client: TestClient, db: Session, owner: Caller, base: dict[str, Any]
) -> None:
    fast = classed_target(client, db, owner, "NAS performance", price=0.3, capacity=1000)
    slow = classed_target(client, db, owner, "NAS capacity", price=0.1, capacity=500)
    unpriced = classed_target(client, db, owner, "CFS turbo", price=None, capacity=2000)
    for t, figures in (
        (fast, [40_000, 42_000, 44_000]),
        (slow, [9_000, 10_000, 11_000]),
        (unpriced, [20_000]),
    ):
        for i, iops in enumerate(figures):
            imported(client, owner, shaped(base, iops=iops, timestamp=1_700_000_000 + i), target_id=str(t.id))
    # A different job shape on the fast class: never averaged with the 4 KiB results.
    imported(client, owner, shaped(base, iops=3_000, bs="1m", name="seq"), target_id=str(fast.id))

    response = groups(client, owner, "by=storage_class&figure=iops&direction=read")
    assert response.status_code == 200, response.text
    body = response.json()
    assert "job shape" in body["note"]
    # Answered from the rollup: n, min and max exact, quantiles within 0.5 % (1 % logarithmic bins).
    assert body["source"] == "rollup" and "±0.5 %" in body["note"]
    near = lambda value: pytest.approx(value, rel=0.005)  # noqa: E731
    by_key = {(g["key"], g["shape"]["bs"]): g for g in body["groups"]}
    perf = by_key[("NAS performance", "4096")]
    assert (perf["n"], perf["median"], perf["min"], perf["max"]) == (3, near(42_000), 40_000, 44_000)
    assert (perf["p25"], perf["p75"]) == (near(41_000), near(43_000))
    assert perf["per_gib"] == near(42.0)
    # 1000 GiB × $0.3 = $300 a month for 42,000 IOPS: $7.14 per 1,000 IOPS.
    assert perf["dollars_per_1000_iops"] == near(300 / 42)
    cap = by_key[("NAS capacity", "4096")]
    assert cap["median"] == near(10_000) and cap["dollars_per_1000_iops"] == near(50 / 10)
    turbo = by_key[("CFS turbo", "4096")]
    assert turbo["n"] == 1 and turbo["dollars_per_1000_iops"] is None and turbo["per_gib"] == 10.0
    seq = by_key[("NAS performance", "1048576")]
    assert seq["n"] == 1 and seq["median"] == 3_000

    by_vendor = groups(client, owner, "by=vendor&storage_class=NAS%20capacity").json()
    assert [(g["key"], g["n"]) for g in by_vendor["groups"]] == [("vendor of NAS capacity", 3)]

    # Grouped by block size: the 4 KiB and 1 MiB results sit side by side, said so in the note.
    by_bs = groups(client, owner, f"by=bs&target_id={fast.id}").json()
    assert sorted((g["key"], g["n"]) for g in by_bs["groups"]) == [("1048576", 1), ("4096", 3)]
    assert "grouped by bs" in by_bs["note"]

    bandwidth = groups(client, owner, "by=storage_class&figure=bw_bytes&storage_class=NAS%20capacity").json()
    (group,) = bandwidth["groups"]
    assert group["dollars_per_mbps"] == near(50 / (10_000 * 4096 / 1e6))


def test_grouped_exports_round_trip(
    client: TestClient, db: Session, owner: Caller, base: dict[str, Any]
) -> None:
    target = classed_target(client, db, owner, "Disk ESSD", price=0.2, capacity=100)
    for i, iops in enumerate([5_000, 6_000]):
        imported(
            client, owner, shaped(base, iops=iops, timestamp=1_700_000_000 + i), target_id=str(target.id)
        )
    query = "by=storage_class&figure=iops&direction=read"
    shown = groups(client, owner, query).json()
    as_json = client.get(f"/api/v1/compare/groups/export?{query}&format=json", headers=owner.headers)
    assert as_json.headers["content-disposition"] == 'attachment; filename="groups-by-storage_class.json"'
    assert GroupsOut.model_validate_json(as_json.content).model_dump(mode="json") == shown
    as_csv = client.get(f"/api/v1/compare/groups/export?{query}&format=csv", headers=owner.headers)
    rows = list(csv.DictReader(io.StringIO(as_csv.text)))
    assert [(r["key"], int(r["n"]), float(r["median"])) for r in rows] == [
        (g["key"], g["n"], g["median"]) for g in shown["groups"]
    ]
    assert float(rows[0]["dollars_per_1000_iops"]) == shown["groups"][0]["dollars_per_1000_iops"]


def test_grouping_chosen_results_without_the_figure_says_so(
    client: TestClient, owner: Caller, base: dict[str, Any]
) -> None:
    result = imported(client, owner, shaped(base, iops=1_000), label="reads only")
    response = groups(client, owner, f"by=label&figure=iops&direction=write&ids={result['id']}")
    assert response.status_code == 422
    assert "write iops" in response.json()["message"]
    assert groups(client, owner, "by=nonsense").status_code == 422
    assert groups(client, owner, "by=label&ids=x").status_code == 422


def test_a_saved_view_opens_for_a_teammate_and_not_for_another_team(
    client: TestClient, db: Session, owner: Caller, base: dict[str, Any]
) -> None:
    a = imported(client, owner, shaped(base, iops=1_000), label="a")["id"]
    b = imported(client, owner, shaped(base, iops=2_000), label="b")["id"]
    body = {"name": "a vs b", "kind": "compare", "query": {"ids": f"{a},{b}", "baseline": str(b)}}
    created = client.post("/api/v1/compare/views", json=body, headers=owner.headers)
    assert created.status_code == 201, created.text
    view = created.json()
    assert view["path"] == f"/compare?view={view['id']}"

    teammate = make_caller(db, team=owner.team, role=Role.viewer)
    opened = client.get(f"/api/v1/compare/views/{view['id']}", headers=teammate.headers)
    assert opened.status_code == 200
    assert opened.json()["query"] == {"ids": f"{a},{b}", "baseline": str(b)}
    assert opened.json()["created_by"] == owner.user.email
    shown = client.get(f"/api/v1/compare?ids={a},{b}&baseline={b}", headers=teammate.headers).json()
    assert shown["baseline_result_id"] == b

    stranger = make_caller(db)
    assert client.get(f"/api/v1/compare/views/{view['id']}", headers=stranger.headers).status_code == 404
    assert client.get("/api/v1/compare/views", headers=stranger.headers).json()["total"] == 0
    theirs = dict(body, name="theirs")
    assert client.post("/api/v1/compare/views", json=theirs, headers=stranger.headers).status_code == 422
    assert client.post("/api/v1/compare/views", json=body, headers=owner.headers).status_code == 409
    assert client.post("/api/v1/compare/views", json=body, headers=teammate.headers).status_code == 403
    bad = {"name": "bad", "kind": "groups", "query": {"by": "colour"}}
    refused = client.post("/api/v1/compare/views", json=bad, headers=owner.headers)
    assert refused.status_code == 422 and "query.by" in json.dumps(refused.json())
    assert client.delete(f"/api/v1/compare/views/{view['id']}", headers=owner.headers).status_code == 204
    assert client.get(f"/api/v1/compare/views/{view['id']}", headers=owner.headers).status_code == 404


def _run_with_result(db: Session, target: Target, plan: Plan, output: str) -> Run:
    run = Run(
        team_id=target.team_id,
        target_id=target.id,
        plan_id=plan.id,
        plan_name=plan.name,
        jobs=plan.jobs,
        status=RunStatus.completed,
    )
    db.add(run)
    db.flush()
    report = results_service.parse_output(output)
    results_service.store_report(db, Provenance(target.team_id, target=target, run_id=run.id), report, output)
    db.commit()
    return run


def test_a_run_compares_with_the_previous_run_of_its_plan_on_its_target(
    client: TestClient, db: Session, owner: Caller, base: dict[str, Any]
) -> None:
    host, _ = make_host(db, team=owner.team)
    target = make_target(db, host=host)
    plan = Plan(team_id=owner.team.id, name="nightly", jobs=[{"name": "randread-4k"}])
    db.add(plan)
    db.commit()
    first = _run_with_result(db, target, plan, shaped(base, iops=10_000))
    second = _run_with_result(db, target, plan, shaped(base, iops=8_000, timestamp=1_800_000_000))
    response = client.get(f"/api/v1/compare/previous?run_id={second.id}", headers=owner.headers)
    assert response.status_code == 200, response.text
    body = response.json()
    assert [s["run_ids"] for s in body["sides"]] == [[first.id], [second.id]]
    iops = next(r for r in body["rows"] if r["figure"] == "iops")["cells"][1]
    assert iops["delta_pct"] == pytest.approx(-20.0)
    missing = client.get(f"/api/v1/compare/previous?run_id={first.id}", headers=owner.headers)
    assert missing.status_code == 404 and "no earlier run" in missing.json()["message"]
    stranger = make_caller(db)
    assert (
        client.get(f"/api/v1/compare/previous?run_id={second.id}", headers=stranger.headers).status_code
        == 404
    )
