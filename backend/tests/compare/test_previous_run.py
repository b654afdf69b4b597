"""The previous run a run is compared with: same target, same plan (by id, preset name or jobs)."""

from typing import Any

import pytest
from sqlalchemy.orm import Session

from storbench_api.compare import repository
from storbench_api.models import Plan, Run, RunStatus, Target
from storbench_api.results import service as results_service
from storbench_api.results.provenance import Provenance
from tests.compare.outputs import shaped, template
from tests.conftest import Caller, make_host, make_target


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return template(tmp_path_factory.mktemp("fio-template"))


def _run(
    db: Session,
    target: Target,
    base: dict[str, Any],
    *,
    plan: Plan | None = None,
    preset: str | None = None,
    jobs: list[dict[str, Any]] | None = None,
    status: RunStatus = RunStatus.completed,
    with_result: bool = True,
) -> Run:
    run = Run(
        team_id=target.team_id,
        target_id=target.id,
        plan_id=plan.id if plan is not None else None,
        plan_name=plan.name if plan is not None else preset,
        jobs=jobs if jobs is not None else [{"name": "randread-4k"}],
        status=status,
    )
    db.add(run)
    db.flush()
    if with_result:
        output = shaped(base, iops=10_000)
        source = Provenance(target.team_id, target=target, run_id=run.id)
        results_service.store_report(db, source, results_service.parse_output(output), output)
    db.commit()
    return run


def test_the_previous_run_is_the_latest_earlier_finished_run_with_results_of_the_same_preset(
    db: Session, owner: Caller, base: dict[str, Any]
) -> None:
    host, _ = make_host(db, team=owner.team)
    target = make_target(db, host=host)
    elsewhere = make_target(db, host=host, name="other", path="/srv/other")
    older = _run(db, target, base, preset="quick")
    first = _run(db, target, base, preset="quick")
    _run(db, target, base, preset="thorough")
    _run(db, target, base, preset="quick", with_result=False)
    _run(db, target, base, preset="quick", status=RunStatus.running)
    _run(db, elsewhere, base, preset="quick")
    latest = _run(db, target, base, preset="quick")
    assert repository.previous_run(db, latest) == first
    assert repository.previous_run(db, first) == older
    assert repository.previous_run(db, older) is None


def test_a_plan_run_is_compared_with_the_plans_previous_run_even_when_a_preset_has_its_name(
    db: Session, owner: Caller, base: dict[str, Any]
) -> None:
    host, _ = make_host(db, team=owner.team)
    target = make_target(db, host=host)
    plan = Plan(team_id=owner.team.id, name="nightly", jobs=[{"name": "randread-4k"}])
    db.add(plan)
    db.commit()
    _run(db, target, base, plan=plan)
    first = _run(db, target, base, plan=plan)
    _run(db, target, base, preset="nightly")
    latest = _run(db, target, base, plan=plan)
    assert repository.previous_run(db, latest) == first


def test_inline_jobs_are_compared_with_the_previous_run_of_the_very_same_jobs(
    db: Session, owner: Caller, base: dict[str, Any]
) -> None:
    host, _ = make_host(db, team=owner.team)
    target = make_target(db, host=host)
    same = [{"name": "randread-4k", "rw": "randread", "bs": "4k"}]
    _run(db, target, base, jobs=same)
    first = _run(db, target, base, jobs=same)
    _run(db, target, base, jobs=[{"name": "seqwrite-1m", "rw": "write", "bs": "1m"}])
    latest = _run(db, target, base, jobs=same)
    assert repository.previous_run(db, latest) == first
