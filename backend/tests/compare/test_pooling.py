"""Pooling by what was measured: the runs of one plan on one target are one side, labels split."""

from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from storbench_api.models import Plan, Run, RunStatus, Target
from storbench_api.results import service as results_service
from storbench_api.results.provenance import Provenance
from tests.compare.outputs import shaped, template
from tests.conftest import Caller, make_host, make_target


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return template(tmp_path_factory.mktemp("fio-template"))


def _run(
    db: Session, target: Target, plan: Plan, base: dict[str, Any], iops: float, label: str | None = None
) -> list[int]:
    """A finished run of plan on target with one result of randread-4k at iops; its result ids."""
    run = Run(
        team_id=target.team_id,
        target_id=target.id,
        plan_id=plan.id,
        plan_name=plan.name,
        jobs=plan.jobs,
        label=label,
        status=RunStatus.completed,
    )
    db.add(run)
    db.flush()
    output = shaped(base, iops=iops, timestamp=1_700_000_000 + run.id)
    source = Provenance(target.team_id, target=target, run_id=run.id)
    stored = results_service.store_report(db, source, results_service.parse_output(output), output)
    db.commit()
    return [r.id for r in stored]


def _compare(client: TestClient, owner: Caller, ids: list[int], pool: str | None = None) -> Any:
    query = f"ids={','.join(map(str, ids))}" + (f"&pool={pool}" if pool else "")
    response = client.get(f"/api/v1/compare?{query}", headers=owner.headers)
    assert response.status_code == 200, response.text
    return response.json()


def test_runs_of_one_plan_on_one_target_pool_into_one_side_and_labels_split_them(
    client: TestClient, db: Session, owner: Caller, base: dict[str, Any]
) -> None:
    host, _ = make_host(db, team=owner.team)
    target = make_target(db, host=host)
    plan = Plan(team_id=owner.team.id, name="nightly", jobs=[{"name": "randread-4k"}])
    db.add(plan)
    db.commit()
    pooled = [i for v in (10_000, 10_100, 9_900, 10_050) for i in _run(db, target, plan, base, v)]
    tuned = [i for v in (12_000, 12_100, 11_950) for i in _run(db, target, plan, base, v, label="tuned")]

    body = _compare(client, owner, pooled + tuned)

    assert body["pooling"] == "measured"
    assert [(s["series"], s["n"]) for s in body["sides"]] == [("nightly", 4), ("tuned", 3)]
    iops = next(r for r in body["rows"] if r["figure"] == "iops" and r["direction"] == "read")
    verdict = iops["cells"][1]["verdict"]
    assert (verdict["n_reference"], verdict["n"], verdict["kind"]) == (4, 3, "better")


def test_pooled_by_run_each_run_is_a_side(
    client: TestClient, db: Session, owner: Caller, base: dict[str, Any]
) -> None:
    host, _ = make_host(db, team=owner.team)
    target = make_target(db, host=host)
    plan = Plan(team_id=owner.team.id, name="nightly", jobs=[{"name": "randread-4k"}])
    db.add(plan)
    db.commit()
    ids = [i for v in (10_000, 10_100, 9_900) for i in _run(db, target, plan, base, v)]

    body = _compare(client, owner, ids, pool="run")

    assert body["pooling"] == "run"
    assert [s["n"] for s in body["sides"]] == [1, 1, 1]
    assert body["permalink"].endswith("&pool=run")


def test_the_same_plan_on_two_targets_is_two_sides(
    client: TestClient, db: Session, owner: Caller, base: dict[str, Any]
) -> None:
    host, _ = make_host(db, team=owner.team)
    one = make_target(db, host=host)
    two = make_target(db, host=host, name="other", path="/srv/other")
    plan = Plan(team_id=owner.team.id, name="nightly", jobs=[{"name": "randread-4k"}])
    db.add(plan)
    db.commit()
    ids = [i for t in (one, one, two, two) for i in _run(db, t, plan, base, 10_000)]

    body = _compare(client, owner, ids)

    assert [(s["target_id"], s["n"]) for s in body["sides"]] == [(one.id, 2), (two.id, 2)]
    assert body["sides"][1]["title"] == f"nightly · target #{two.id}"


def test_a_group_that_mixes_targets_which_disagree_says_so(
    client: TestClient, db: Session, owner: Caller, base: dict[str, Any]
) -> None:
    host, _ = make_host(db, team=owner.team)
    fast = make_target(db, host=host, name="fast", path="/srv/fast")
    slow = make_target(db, host=host, name="slow", path="/srv/slow")
    alike = make_target(db, host=host, name="alike", path="/srv/alike")
    plan = Plan(team_id=owner.team.id, name="nightly", jobs=[{"name": "randread-4k"}])
    db.add(plan)
    db.commit()
    apart = [
        i
        for t, values in ((fast, (20_000, 20_400, 19_800)), (slow, (10_000, 10_200, 9_900)))
        for v in values
        for i in _run(db, t, plan, base, v)
    ]
    together = [i for v in (20_100, 19_900) for i in _run(db, alike, plan, base, v)]

    def group(ids: list[int]) -> Any:
        query = f"by=rw&figure=iops&direction=read&ids={','.join(map(str, ids))}"
        response = client.get(f"/api/v1/compare/groups?{query}", headers=owner.headers)
        assert response.status_code == 200, response.text
        (found,) = response.json()["groups"]
        return found

    mixed = group(apart)
    assert (mixed["n"], mixed["targets"]) == (6, 2)
    assert f"target #{fast.id} median 20,000" in mixed["targets_disagree"]
    assert f"target #{slow.id} 10,000" in mixed["targets_disagree"]
    agreeing = group(apart[:3] + together)
    assert (agreeing["targets"], agreeing["targets_disagree"]) == (2, None)
