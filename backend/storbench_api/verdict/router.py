"""The verdict strip of a run and of a result."""

from fastapi import APIRouter

from storbench_api.deps import DB, ReadAccess
from storbench_api.errors import NotFound
from storbench_api.ids import IdPath
from storbench_api.openapi import errors
from storbench_api.verdict import service
from storbench_api.verdict.schemas import VerdictStrip

router = APIRouter(tags=["verdict"])


@router.get(
    "/runs/{run_id}/verdict",
    response_model=VerdictStrip,
    summary="What a run's results say: spec, previous run, regressions, worst finding",
    responses=errors(NotFound),
)
def run_verdict(run_id: IdPath, db: DB, principal: ReadAccess) -> VerdictStrip:
    """Each headline figure (IOPS, bandwidth, p99) against its class's spec and the previous run of
    the same plan on the same target (with the comparison's test), the regression state of its series
    and the most serious finding with its fix; `text` says it in plain lines."""
    return service.run_verdict(db, principal.team_id, run_id)


@router.get(
    "/results/{result_id}/verdict",
    response_model=VerdictStrip,
    summary="What a result says: spec, previous run, regressions, worst finding",
    responses=errors(NotFound),
)
def result_verdict(result_id: IdPath, db: DB, principal: ReadAccess) -> VerdictStrip:
    """As a run's verdict, for one result; an import is compared with the previous import of the same host
    name and job measured the same way (previous_import). One without a target has no series to watch."""
    return service.result_verdict(db, principal.team_id, result_id)
