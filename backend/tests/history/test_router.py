"""History over the API: trends, changes found as results are imported, review, the CI check."""

import json
from datetime import UTC, datetime
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session

from storbench_api.models import ChangePoint, Plan, Role, Run, RunStatus, Target, WebhookDelivery
from storbench_api.results import service as results_service
from storbench_api.results.provenance import Provenance
from tests.conftest import Caller, make_caller, make_host, make_target
from tests.history.fio_outputs import START, with_figures
from tests.support.fio import quick_randread

# Nine results at ~10,000 IOPS, then four at ~7,000: a regression from the tenth on.
LEVELS = [10_050, 9_900, 10_100, 9_950, 10_000, 10_080, 9_920, 10_010, 9_990, 7_020, 6_950, 7_080, 6_990]


@pytest.fixture(scope="module")
def base_output(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return json.loads(quick_randread(tmp_path_factory.mktemp("history-fio")))


def _import(client: TestClient, caller: Caller, target: Target, content: str) -> Any:
    files = {"file": ("out.json", content.encode(), "application/json")}
    response = client.post(
        "/api/v1/results/import", files=files, data={"target_id": str(target.id)}, headers=caller.headers
    )
    assert response.status_code == 201, response.text
    return response.json()


def _series(
    client: TestClient, caller: Caller, target: Target, base: dict[str, Any], levels: list[int]
) -> list[int]:
    ids = []
    for day, iops in enumerate(levels):
        body = _import(client, caller, target, with_figures(base, iops=iops, lat_ns=3.2e9 / iops, day=day))
        ids.append(body["results"][0]["id"])
    return ids


def _target(db: Session, caller: Caller, name: str = "nas-a") -> Target:
    host, _ = make_host(db, team=caller.team, name=f"client-{name}")
    return make_target(db, host=host, name=name)


def test_a_drop_is_found_once_marked_on_the_trend_and_listed(
    client: TestClient, db: Session, owner: Caller, base_output: dict[str, Any]
) -> None:
    target = _target(db, owner)
    ids = _series(client, owner, target, base_output, LEVELS)
    trend = client.get(
        f"/api/v1/history/trend?target_id={target.id}&job=randread-4k&metric=iops&direction=read",
        headers=owner.headers,
    )
    assert trend.status_code == 200, trend.text
    body = trend.json()
    assert [p["result_id"] for p in body["points"]] == ids
    assert [p["value"] for p in body["points"]] == LEVELS
    assert body["truncated"] is False
    assert body["unit"] == "IOPS"
    (change,) = body["change_points"]
    assert change["result_id"] == ids[9]
    assert change["kind"] == "regression"
    assert change["before_median"] == pytest.approx(10_000)
    # The medians as they stood when it was found (three results after the drop).
    assert change["after_median"] == pytest.approx(7_020)
    assert change["p_value"] <= 0.01
    # Latency went up at the same result: also a regression, of that figure.
    latency = client.get(
        f"/api/v1/history/trend?target_id={target.id}&job=randread-4k&metric=lat_mean_ns&direction=read",
        headers=owner.headers,
    ).json()
    assert [(c["result_id"], c["kind"]) for c in latency["change_points"]] == [(ids[9], "regression")]
    # Found once, whatever came after.
    stored = db.scalars(select(ChangePoint).where(ChangePoint.team_id == owner.team.id)).all()
    assert sorted({c.metric for c in stored}) == ["bw_bytes", "clat_p99_ns", "iops", "lat_mean_ns"]
    assert len(stored) == 4
    # One step, one regression to review: its four figures listed under it.
    listed = client.get("/api/v1/regressions?kind=regression", headers=owner.headers).json()
    assert listed["total"] == 1
    assert listed["unacknowledged_regressions"] == 1
    (step,) = listed["items"]
    assert step["metric"] == "iops" and step["step_id"] == step["id"]
    assert sorted(f["metric"] for f in step["step_figures"]) == sorted(c.metric for c in stored)


def test_an_improvement_is_not_a_regression_and_an_outlier_is_nothing(
    client: TestClient, db: Session, owner: Caller, base_output: dict[str, Any]
) -> None:
    target = _target(db, owner)
    levels = [
        10_000,
        10_050,
        9_950,
        10_020,
        9_980,
        2_000,
        10_030,
        9_970,
        10_010,
        13_000,
        13_100,
        12_950,
        13_020,
    ]
    ids = _series(client, owner, target, base_output, levels)
    iops = db.scalars(
        select(ChangePoint).where(ChangePoint.target_id == target.id, ChangePoint.metric == "iops")
    ).all()
    assert [(c.result_id, c.kind) for c in iops] == [(ids[9], "improvement")]
    listed = client.get("/api/v1/regressions?kind=regression", headers=owner.headers).json()
    assert listed["items"] == []


def test_acknowledging_a_regression_with_a_comment(
    client: TestClient, db: Session, owner: Caller, base_output: dict[str, Any]
) -> None:
    target = _target(db, owner)
    _series(client, owner, target, base_output, LEVELS)
    items = client.get("/api/v1/regressions?acknowledged=false", headers=owner.headers).json()["items"]
    iops = next(i for i in items if i["metric"] == "iops")
    url = f"/api/v1/regressions/{iops['id']}/acknowledge"
    viewer = make_caller(db, team=owner.team, role=Role.viewer)
    assert client.post(url, json={"comment": "x"}, headers=viewer.headers).status_code == 403
    assert client.post(url, json={"comment": ""}, headers=owner.headers).status_code == 422
    done = client.post(url, json={"comment": "vendor moved us to a slower pool"}, headers=owner.headers)
    assert done.status_code == 200, done.text
    assert done.json()["comment"] == "vendor moved us to a slower pool"
    assert done.json()["acknowledged_by"] == owner.user.email
    again = client.post(url, json={"comment": "again"}, headers=owner.headers)
    assert again.status_code == 409
    assert "already acknowledged" in again.json()["message"]
    after = client.get("/api/v1/regressions?acknowledged=true", headers=owner.headers).json()
    assert [i["id"] for i in after["items"]] == [iops["id"]]
    assert after["unacknowledged_regressions"] == 0
    # The rest of the step (bandwidth, latency) was acknowledged with it, from the trend too.
    latency = client.get(
        f"/api/v1/history/trend?target_id={target.id}&job=randread-4k&metric=clat_p99_ns&direction=read",
        headers=owner.headers,
    ).json()
    (mark,) = latency["change_points"]
    assert mark["acknowledged_by"] == owner.user.email and mark["step_id"] == iops["id"]
    assert (
        client.post(
            f"/api/v1/regressions/{mark['id']}/acknowledge", json={"comment": "again"}, headers=owner.headers
        ).status_code
        == 409
    )


def test_another_team_sees_nothing_of_it(
    client: TestClient, db: Session, owner: Caller, base_output: dict[str, Any]
) -> None:
    target = _target(db, owner)
    _series(client, owner, target, base_output, LEVELS)
    change_id = client.get("/api/v1/regressions", headers=owner.headers).json()["items"][0]["id"]
    stranger = make_caller(db)
    assert client.get("/api/v1/regressions", headers=stranger.headers).json() == {
        "items": [],
        "total": 0,
        "unacknowledged_regressions": 0,
    }
    trend = client.get(
        f"/api/v1/history/trend?target_id={target.id}&job=randread-4k", headers=stranger.headers
    )
    assert trend.status_code == 404
    ack = client.post(
        f"/api/v1/regressions/{change_id}/acknowledge", json={"comment": "mine"}, headers=stranger.headers
    )
    assert ack.status_code == 404


@pytest.mark.parametrize(
    "query",
    [
        "job=randread-4k",  # no target
        "target_id=1",  # no job
        "target_id=abc&job=x",
        "target_id=1&job=x&metric=speed",
        "target_id=1&job=x&direction=sideways",
        "target_id=1&job=x&limit=0",
        "target_id=1&job=x&limit=5001",
    ],
)
def test_a_bad_trend_query_is_a_422_naming_the_parameter(
    client: TestClient, owner: Caller, query: str
) -> None:
    response = client.get(f"/api/v1/history/trend?{query}", headers=owner.headers)
    assert response.status_code == 422, response.text
    assert response.json()["errors"]


def test_the_trend_of_an_unknown_target_is_a_404(client: TestClient, owner: Caller) -> None:
    response = client.get("/api/v1/history/trend?target_id=999999&job=x", headers=owner.headers)
    assert response.status_code == 404


def test_the_trend_is_capped_and_says_so(
    client: TestClient, db: Session, owner: Caller, base_output: dict[str, Any]
) -> None:
    target = _target(db, owner)
    ids = _series(client, owner, target, base_output, [1000, 1010, 990, 1005])
    body = client.get(
        f"/api/v1/history/trend?target_id={target.id}&job=randread-4k&limit=3", headers=owner.headers
    ).json()
    assert body["truncated"] is True
    assert [p["result_id"] for p in body["points"]] == ids[1:]


def test_the_trend_carries_the_spec_line_of_the_targets_class(
    client: TestClient, db: Session, owner: Caller, base_output: dict[str, Any]
) -> None:
    target = _target(db, owner)
    classes = client.get("/api/v1/storage-classes", headers=owner.headers).json()["items"]
    with_iops = next(
        c for c in classes if c["spec"]["expectations"] and c["spec"]["expectations"][0]["metric"] == "iops"
    )
    patched = client.patch(
        f"/api/v1/targets/{target.id}",
        json={"storage_class_id": with_iops["id"], "capacity_gib": 500},
        headers=owner.headers,
    )
    assert patched.status_code == 200, patched.text
    _series(client, owner, target, base_output, [1000, 1010])
    expected = client.get(
        f"/api/v1/storage-classes/{with_iops['id']}/spec?capacity_gib=500", headers=owner.headers
    ).json()
    body = client.get(
        f"/api/v1/history/trend?target_id={target.id}&job=randread-4k", headers=owner.headers
    ).json()
    assert body["spec"] is not None
    assert body["spec"]["storage_class_id"] == with_iops["id"]
    figures = [f["expected"] for f in expected["figures"] if f["metric"] == "iops"]
    assert body["spec"]["value"] in figures


def test_a_team_threshold_policy_replaces_e_divisive(
    client: TestClient, db: Session, owner: Caller, base_output: dict[str, Any]
) -> None:
    member = make_caller(db, team=owner.team, role=Role.member)
    policy = {"method": "percent", "threshold": 15, "min_points_after": 1}
    assert client.put("/api/v1/history/policy", json=policy, headers=member.headers).status_code == 403
    bad = client.put("/api/v1/history/policy", json={"method": "percent"}, headers=owner.headers)
    assert bad.status_code == 422
    assert "threshold" in bad.text
    assert (
        client.put(
            "/api/v1/history/policy", json={**policy, "method": "e_divisive"}, headers=owner.headers
        ).status_code
        == 422
    )
    saved = client.put("/api/v1/history/policy", json=policy, headers=owner.headers)
    assert saved.status_code == 200, saved.text
    assert client.get("/api/v1/history/policy", headers=member.headers).json()["method"] == "percent"
    target = _target(db, owner)
    ids = _series(client, owner, target, base_output, [10_000, 10_050, 9_950, 10_020, 9_980, 8_000])
    iops = db.scalars(
        select(ChangePoint).where(ChangePoint.target_id == target.id, ChangePoint.metric == "iops")
    ).all()
    assert [(c.result_id, c.kind, c.method) for c in iops] == [(ids[5], "regression", "percent>=15")]


def test_a_change_is_sent_to_the_teams_webhooks(
    client: TestClient, db: Session, owner: Caller, base_output: dict[str, Any]
) -> None:
    from storbench_api.models import Webhook

    db.add(
        Webhook(
            team_id=owner.team.id,
            url="https://hooks.example.com/storbench",
            secret="s" * 32,
            events=["change_point.regression"],
        )
    )
    db.commit()
    target = _target(db, owner)
    ids = _series(client, owner, target, base_output, LEVELS)
    deliveries = db.scalars(select(WebhookDelivery).where(WebhookDelivery.team_id == owner.team.id)).all()
    # One step, one message (not one per figure that moved with it).
    assert [d.event for d in deliveries] == ["change_point.regression"]
    iops = next(d.payload for d in deliveries if d.payload["metric"] == "iops")
    assert iops["what_changed"].startswith("nothing in how it was measured changed")
    assert iops["result_id"] == ids[9]
    assert iops["trend"].startswith(f"/history?target_id={target.id}&job=randread-4k")


def test_a_failing_detection_never_loses_the_results(
    client: TestClient,
    db: Session,
    owner: Caller,
    base_output: dict[str, Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from storbench_api.history import detection as history

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("detector down")

    monkeypatch.setattr(history, "detect_series", broken)
    target = _target(db, owner)
    ids = _series(client, owner, target, base_output, LEVELS)
    assert client.get(f"/api/v1/results?target_id={target.id}", headers=owner.headers).json()["total"] == len(
        ids
    )


def _run_of(db: Session, plan: Plan, target: Target, text: str) -> Run:
    run = Run(
        team_id=plan.team_id, target_id=target.id, plan_id=plan.id, jobs=plan.jobs, status=RunStatus.completed
    )
    db.add(run)
    db.flush()
    report = results_service.parse_output(text)
    results_service.store_report(db, Provenance(plan.team_id, target=target, run_id=run.id), report, text)
    db.commit()
    return run


def test_check_fails_on_an_unacknowledged_regression_of_the_newest_run(
    client: TestClient, db: Session, owner: Caller, base_output: dict[str, Any]
) -> None:
    target = _target(db, owner)
    plan = Plan(team_id=owner.team.id, name="nightly", jobs=[{"name": "randread-4k", "rw": "randread"}])
    db.add(plan)
    db.commit()
    url = f"/api/v1/history/check?plan_id={plan.id}&target_id={target.id}"
    assert client.get(url, headers=owner.headers).json()["message"].startswith("no results")
    for day, iops in enumerate(LEVELS[:9]):
        _run_of(db, plan, target, with_figures(base_output, iops=iops, lat_ns=3.2e9 / iops, day=day))
    ok = client.get(url, headers=owner.headers).json()
    assert ok["regression"] is False
    assert {s["status"] for s in ok["series"]} == {"ok"}
    for day, iops in enumerate(LEVELS[9:], start=9):
        run = _run_of(db, plan, target, with_figures(base_output, iops=iops, lat_ns=3.2e9 / iops, day=day))
    bad = client.get(url, headers=owner.headers).json()
    assert bad["regression"] is True
    assert bad["run_id"] == run.id
    assert "randread-4k read iops" in bad["message"]
    iops = next(s for s in bad["series"] if s["metric"] == "iops")
    assert iops["status"] == "regression"
    assert iops["value"] == LEVELS[-1]
    for series in bad["series"]:
        change = series["change_point"]
        client.post(
            f"/api/v1/regressions/{change['id']}/acknowledge",
            json={"comment": "known"},
            headers=owner.headers,
        )
    assert client.get(url, headers=owner.headers).json()["regression"] is False
    assert (
        client.get(
            f"/api/v1/history/check?plan_id=999999&target_id={target.id}", headers=owner.headers
        ).status_code
        == 404
    )


def _day(day: int) -> str:
    """The date of with_figures' day, as the API writes it."""
    return datetime.fromtimestamp(START + day * 86_400, UTC).date().isoformat()


def test_the_series_of_a_target_list_its_jobs_and_directions(
    client: TestClient, db: Session, owner: Caller, base_output: dict[str, Any]
) -> None:
    target = _target(db, owner)
    imports = [
        _import(client, owner, target, with_figures(base_output, iops=1000 + day, lat_ns=1e6, day=day))
        for day in range(3)
    ]
    _import(client, owner, target, with_figures(base_output, iops=900, lat_ns=1e6, day=9, job="other"))
    body = client.get(f"/api/v1/history/series?target_id={target.id}", headers=owner.headers).json()
    assert [(s["job"], s["direction"], s["results"], s["last_measured_at"][:10]) for s in body["items"]] == [
        ("other", "read", 1, _day(9)),
        ("randread-4k", "read", 3, _day(2)),
    ]

    # The newest result deleted: one fewer, and the last measurement is the one before.
    newest = imports[-1]["results"][0]["id"]
    assert client.delete(f"/api/v1/results/{newest}", headers=owner.headers).status_code == 204
    body = client.get(f"/api/v1/history/series?target_id={target.id}", headers=owner.headers).json()
    assert [(s["job"], s["results"], s["last_measured_at"][:10]) for s in body["items"]] == [
        ("other", 1, _day(9)),
        ("randread-4k", 2, _day(1)),
    ]
    stranger = make_caller(db)
    assert (
        client.get(f"/api/v1/history/series?target_id={target.id}", headers=stranger.headers).status_code
        == 404
    )
