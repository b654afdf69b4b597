"""Running a run again: its jobs on its target and hosts, keeping the plan (and version) it ran."""

from pydantic import ValidationError
from sqlalchemy.orm import Session

from storbench_api.auth.service import Principal
from storbench_api.errors import Invalid
from storbench_api.models import Run
from storbench_api.runs import service, start
from storbench_api.runs.schemas import RunAgain, RunCreate
from storbench_api.runs.sweep import sweep_request


def run_again(db: Session, principal: Principal, run_id: int, body: RunAgain) -> Run:
    """A new queued run with the jobs, target, hosts and file sharing of an earlier one.

    The label and note are the earlier run's unless the body gives them (null clears them).
    """
    previous = service.get_run(db, principal.team_id, run_id)
    given = body.model_fields_set
    request = {
        "target_id": previous.target_id,
        "jobs": previous.jobs,
        "host_ids": [a.host_id for a in previous.assignments if a.host_id != previous.target.host_id],
        "shared_files": previous.shared_files,
        "confirm_destructive": body.confirm_destructive,
        "label": body.label if "label" in given else previous.label,
        "note": body.note if "note" in given else previous.note,
    }
    if "repetitions" in RunCreate.model_fields:
        request["repetitions"] = previous.repetitions
    request["precondition"] = previous.precondition
    if previous.sweep:
        request.update(sweep_request(previous.sweep))
    try:
        body_again = RunCreate.model_validate(request)
    except ValidationError as exc:
        # Stored jobs a newer rule no longer reads: say so instead of failing.
        raise Invalid(
            f"run {run_id} cannot be run again as it was: {exc.errors()[0]['msg']}",
            [{"field": "jobs", "reason": str(error["msg"])} for error in exc.errors()],
        ) from exc
    run = start.start_run(db, principal, body_again)
    run.plan_id = previous.plan_id
    run.plan_name = previous.plan_name
    run.plan_version = previous.plan_version
    db.flush()
    return run
