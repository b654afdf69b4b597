"""GET /curves: a sweep's points with their spread, the knee, the latency bound, per host and together."""

from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session

from storbench_api.models import Result, ResultDirection, Run, Target, Team
from tests.conftest import Caller, make_caller, make_host, make_target
from tests.support.factories import make_result, make_run

RAID0 = {1: 1216, 2: 4657, 4: 5370, 8: 5540, 16: 5490}


def _point(db: Session, team: Team, target: Target, run: Run, qd: int, iops: float, **columns: Any) -> Result:
    options = {"rw": "randwrite", "bs": "4k", "iodepth": str(qd)}
    result = make_result(
        db, team=team, target=target, run=run, iops={"write": iops}, options=options, **columns
    )
    row = db.scalar(select(ResultDirection).where(ResultDirection.result_id == result.id))
    assert row is not None
    row.lat_mean_ns = qd / iops * 1e9  # Little's law
    row.clat_p99_ns = 2 * row.lat_mean_ns
    db.commit()
    return result


def _raid0_sweep(db: Session, owner: Caller, hosts: tuple[str, ...] = ("host-a",)) -> Run:
    host, _ = make_host(db, team=owner.team)
    target = make_target(db, host=host)
    run = make_run(db, target=target, repetitions=3)
    for qd, iops in RAID0.items():
        for repetition, noise in enumerate((0.99, 1.0, 1.01)):
            for name in hosts:
                _point(db, owner.team, target, run, qd, iops * noise, repetition=repetition, host_name=name)
    return run


def test_a_raid0_sweep_draws_its_median_curve_with_spread_and_its_knee_at_qd_4(
    client: TestClient, db: Session, owner: Caller
) -> None:
    run = _raid0_sweep(db, owner)
    response = client.get(
        "/api/v1/curves", params={"run_ids": str(run.id), "axis": "iodepth"}, headers=owner.headers
    )
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["direction"] == "write" and body["figure"]["name"] == "iops"
    [curve] = body["curves"]
    assert [p["value"] for p in curve["points"]] == [1, 2, 4, 8, 16]
    first = curve["points"][0]
    assert first["n"] == 3 and first["median"] == 1216 and first["low"] < 1216 < first["high"]
    assert curve["knee"]["value"] == 4 and curve["knee"]["next_value"] == 8
    assert "queue only adds wait" in curve["knee_reason"]


def test_hosts_add_up_in_the_aggregate_and_each_has_its_own_curve(
    client: TestClient, db: Session, owner: Caller
) -> None:
    run = _raid0_sweep(db, owner, hosts=("host-a", "host-b"))
    body = client.get(
        "/api/v1/curves", params={"run_ids": str(run.id), "axis": "iodepth"}, headers=owner.headers
    ).json()
    together, *each = body["curves"]
    assert together["host_name"] is None and together["points"][0]["median"] == 2 * 1216
    assert [c["host_name"] for c in each] == ["host-a", "host-b"]
    assert each[0]["points"][0]["median"] == 1216


def test_the_highest_load_under_a_p99_bound(client: TestClient, db: Session, owner: Caller) -> None:
    run = _raid0_sweep(db, owner)
    # p99 = 2 × QD / IOPS: 1.6 ms at QD 1, 0.86 ms at 2, 1.49 ms at 4, 2.9 ms at 8.
    params = {"run_ids": str(run.id), "axis": "iodepth", "p99_bound_ns": "2000000"}
    [curve] = client.get("/api/v1/curves", params=params, headers=owner.headers).json()["curves"]
    assert curve["highest_load_under_bound"] == 4


def test_latency_is_drawn_along_the_axis_and_the_knee_still_read_on_iops(
    client: TestClient, db: Session, owner: Caller
) -> None:
    run = _raid0_sweep(db, owner)
    params = {"run_ids": str(run.id), "axis": "iodepth", "figure": "lat_mean_ns"}
    body = client.get("/api/v1/curves", params=params, headers=owner.headers).json()
    assert body["knee_figure"]["name"] == "iops"
    [curve] = body["curves"]
    assert curve["points"][0]["median"] == 1 / 1216 * 1e9
    assert curve["knee"]["value"] == 4


def test_curves_say_what_to_fix(client: TestClient, db: Session, owner: Caller) -> None:
    run = _raid0_sweep(db, owner)
    cases = [
        ({"run_ids": str(run.id), "axis": "rw"}, 422, "axis"),
        ({"run_ids": str(run.id), "axis": "iodepth", "figure": "cpu_usr_pct"}, 422, "figure"),
        ({"run_ids": str(run.id), "axis": "iodepth", "direction": "read"}, 422, "direction"),
        ({"axis": "iodepth"}, 422, "ids"),
        ({"ids": "abc", "axis": "iodepth"}, 422, "ids"),
        ({"ids": "999999", "axis": "iodepth"}, 404, None),
    ]
    for params, status, field in cases:
        response = client.get("/api/v1/curves", params=params, headers=owner.headers)
        assert response.status_code == status, (params, response.text)
        if field:
            assert any(field in (e.get("field") or "") for e in response.json()["errors"]), response.text


def test_another_teams_results_are_not_found(client: TestClient, db: Session, owner: Caller) -> None:
    run = _raid0_sweep(db, owner)
    other_owner = make_caller(db)
    ids = ",".join(str(r) for r in db.scalars(select(Result.id).where(Result.run_id == run.id)))
    response = client.get(
        "/api/v1/curves", params={"ids": ids, "axis": "iodepth"}, headers=other_owner.headers
    )
    assert response.status_code == 404


def test_ids_that_are_not_ids_are_refused_naming_the_field_never_a_500(
    client: TestClient, owner: Caller
) -> None:
    # int() refuses '²' although str.isdigit() accepts it, and refuses more than 4,300 digits.
    for bad in ["²", "1" * 5000, "99999999999"]:
        for field in ("ids", "run_ids"):
            answer = client.get(
                "/api/v1/curves", params={field: f"1,{bad}", "axis": "iodepth"}, headers=owner.headers
            )
            assert answer.status_code == 422, (field, bad[:12], answer.text[:200])
            assert answer.json()["errors"][0]["field"] == field
    compared = client.get("/api/v1/compare", params={"ids": "1,²"}, headers=owner.headers)
    assert compared.status_code == 422 and compared.json()["errors"][0]["field"] == "ids"


def test_a_point_says_whether_it_was_measured_in_steady_state(
    client: TestClient, db: Session, owner: Caller
) -> None:
    host, _ = make_host(db, team=owner.team)
    target = make_target(db, host=host)
    run = make_run(db, target=target)
    steady = {"write": {"status": "steady", "reached_at": 1, "basis": "per_second"}}
    settling = {"write": {"status": "not_steady", "reached_at": None, "basis": "per_second"}}
    _point(db, owner.team, target, run, 1, 1000, steady_state=steady)
    _point(db, owner.team, target, run, 2, 1900, steady_state=settling)
    _point(db, owner.team, target, run, 4, 3000)
    response = client.get(
        "/api/v1/curves", params={"run_ids": str(run.id), "axis": "iodepth"}, headers=owner.headers
    )
    assert response.status_code == 200, response.text
    [curve] = response.json()["curves"]
    assert [p["steady"] for p in curve["points"]] == [True, False, None]


def test_a_two_axis_sweep_gives_a_curve_per_value_of_its_other_axis(
    client: TestClient, db: Session, owner: Caller
) -> None:
    host, _ = make_host(db, team=owner.team)
    target = make_target(db, host=host)
    run = make_run(db, target=target)
    for numjobs in (1, 2):
        for qd in (1, 2, 4):
            result = make_result(
                db,
                team=owner.team,
                target=target,
                run=run,
                iops={"read": 1000.0 * qd * numjobs},
                options={"rw": "randread", "bs": "4k", "iodepth": str(qd), "numjobs": str(numjobs)},
            )
            assert result.id
    response = client.get(
        "/api/v1/curves", params={"run_ids": str(run.id), "axis": "iodepth"}, headers=owner.headers
    )
    assert response.status_code == 200, response.text
    rows = {c["fixed"]["numjobs"]: [p["median"] for p in c["points"]] for c in response.json()["curves"]}
    assert rows == {1: [1000, 2000, 4000], 2: [2000, 4000, 8000]}
