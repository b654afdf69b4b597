"""Imports without a target: listed in History by host name and job, and filed under a target later.

Filing makes an import what it would have been had it been uploaded onto the target: judged by
the target's storage class spec, fingerprinted with the target's path, class and capacity, counted
in the rollup under the target, and a point of the target's series (change detection included).
All of it happens in the request's transaction, with the results locked: it lands whole or not at all.
"""

from collections.abc import Sequence

from sqlalchemy.orm import Session

from storbench_api.advisor import service as advisor
from storbench_api.audit import service as audit
from storbench_api.auth.service import Principal
from storbench_api.errors import Conflict, Invalid, NotFound
from storbench_api.history import detection as history
from storbench_api.models import Result, Target
from storbench_api.results import repository
from storbench_api.results.filing_schemas import (
    MAX_FILED,
    FiledOut,
    FileResultsIn,
    UnfiledGroupList,
    UnfiledGroupOut,
)
from storbench_api.results.service import judge
from storbench_api.rollup import service as rollup
from storbench_api.targets import service as targets_service

MAX_GROUPS = 500


def unfiled_groups(db: Session, team_id: int) -> UnfiledGroupList:
    """The team's imports without a target, by host name and job, most recently measured first."""
    groups = [
        UnfiledGroupOut.model_validate(row, from_attributes=True)
        for row in repository.unfiled_groups(db, team_id, MAX_GROUPS)
    ]
    return UnfiledGroupList(items=groups, total=len(groups), results=sum(g.results for g in groups))


def _chosen(db: Session, team_id: int, body: FileResultsIn) -> Sequence[Result]:
    """The results the body names, locked; NotFound, Invalid or Conflict when one cannot be filed."""
    found = repository.results_to_file(
        db,
        team_id,
        result_ids=body.result_ids,
        host_name=body.host_name,
        job_name=body.job_name,
        limit=MAX_FILED + 1,
    )
    if body.result_ids is not None:
        missing = sorted(set(body.result_ids) - {r.id for r in found})
        if missing:
            shown = ", ".join(map(str, missing[:20]))
            raise NotFound(f"result{'s' if len(missing) > 1 else ''} {shown} not found in your team")
        measured = [r for r in found if not r.imported]
        if measured:
            raise Invalid(
                f"result {measured[0].id} was measured by run {measured[0].run_id} on its own target: "
                "only imports can be filed under a target",
                [{"field": "result_ids", "value": str(r.id), "reason": "not an import"} for r in measured],
            )
        filed = [r for r in found if r.target_id is not None]
        if filed:
            raise Conflict(
                f"result {filed[0].id} is already filed under target {filed[0].target_id}: "
                "an import is filed once (delete it and import it again to file it elsewhere)"
            )
    elif not found:
        job = f" of job '{body.job_name}'" if body.job_name else ""
        raise NotFound(f"no import{job} from host name '{body.host_name}' is waiting for a target")
    if len(found) > MAX_FILED:
        raise Invalid(
            f"more than {MAX_FILED} imports match: file them by job (job_name) or in parts",
            [{"field": "host_name", "value": str(body.host_name), "reason": "too many imports"}],
        )
    return found


def _notices(target: Target, results: Sequence[Result]) -> list[str]:
    """What filing these results under the target means, where it may surprise."""
    elsewhere = sorted({r.host_name for r in results} - {target.host.name})
    if not elsewhere:
        return []
    names = ", ".join(f"'{name}'" for name in elsewhere)
    return [
        f"measured on {names}, filed under target '{target.name}' of host '{target.host.name}': they "
        "now count in that target's history, trends, rollup and spec checks as if measured on it, and "
        "pool with its runs where the job and fingerprint match; they keep their own host name"
    ]


def file_results(db: Session, principal: Principal, body: FileResultsIn) -> FiledOut:
    """File imports under one of the team's targets: judged, fingerprinted, counted and watched there."""
    target = targets_service.get_target(db, principal.team_id, body.target_id)
    results = _chosen(db, principal.team_id, body)
    counted_before = rollup.removal_of(db, principal.team_id, [r.id for r in results])
    spec = advisor.spec_context(db, target)
    for result in results:
        result.target_id = target.id
        result.storage_class = result.storage_class or target.storage_class
        judge(result, target=target, spec=spec, facts=None)
    db.flush()
    rollup.remove(db, principal.team_id, counted_before)
    rollup.add_results(db, results)
    history.detect_after_store(db, results)
    audit.record(
        db,
        team_id=principal.team_id,
        actor=principal.actor,
        action="results.filed",
        resource_type="target",
        resource_id=target.id,
        hosts=sorted({target.host.name, *(r.host_name for r in results)}),
        target=target.name,
        path=target.path,
        result_ids=[r.id for r in results],
    )
    db.flush()
    return FiledOut(
        target_id=target.id,
        target_name=target.name,
        target_host_name=target.host.name,
        result_ids=[r.id for r in results],
        notices=_notices(target, results),
    )
