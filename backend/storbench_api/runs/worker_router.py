"""Endpoints a host's worker calls about its assignments, with its host credential.

Bodies are the shared worker protocol's models (storbench_protocol); a host only ever sees its
own work.
"""

import time

from fastapi import APIRouter
from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool

from storbench_api.deps import DB, CurrentHost
from storbench_api.errors import Conflict
from storbench_api.ids import IdPath
from storbench_api.models import Host
from storbench_api.openapi import errors, rules_beyond_schema
from storbench_api.runs import barrier, worker_service
from storbench_protocol.assignments import (
    AssignmentState,
    BarrierState,
    FailureReport,
    FilesReleased,
    Interrupted,
    RestartReport,
    StartReport,
    WorkerAssignment,
)
from storbench_protocol.progress import ProgressReport
from storbench_protocol.results import ResultStored, ResultUpload

router = APIRouter(prefix="/worker", tags=["worker"])


@router.get("/assignments/{assignment_id}", response_model=WorkerAssignment, summary="Fetch an assignment")
def get_assignment(assignment_id: IdPath, host: CurrentHost, db: DB) -> WorkerAssignment:
    """The jobs and target of one of this host's assignments (fetched: it is never sent again)."""
    assignment = worker_service.fetch(db, host, assignment_id)
    db.commit()
    return assignment


@router.post("/restarted", response_model=Interrupted, summary="The worker (re)started")
def restarted(body: RestartReport, host: CurrentHost, db: DB) -> Interrupted:
    """A fresh worker process runs nothing: what this host had begun failed with it, said at once.

    Assignments whose output waits in the host's spool are left alone: they will be delivered.
    """
    interrupted = worker_service.restarted(db, host, body)
    db.commit()
    return interrupted


@router.post(
    "/assignments/{assignment_id}/progress",
    response_model=AssignmentState,
    summary="Report a second of progress; the answer says whether to go on",
    responses=errors(Conflict),
)
def report_progress(
    assignment_id: IdPath, body: ProgressReport, host: CurrentHost, db: DB
) -> AssignmentState:
    """Store per-second samples (shown live and kept with the result); 'cancelled' means stop fio."""
    state = worker_service.report_progress(db, host, assignment_id, body)
    db.commit()
    return state


@router.post(
    "/assignments/{assignment_id}/ready",
    response_model=BarrierState,
    summary="Files laid out; wait at the barrier",
)
async def ready(assignment_id: IdPath, host: CurrentHost, db: DB) -> BarrierState:
    """Answered once start_at is set (every host starts fio then, server clock) or the run ended;
    after 10 s without either, answered as it is: ask again."""
    host_id = host.id
    began = time.monotonic()
    run_id, state = await run_in_threadpool(_mark_ready, db, host, assignment_id)
    barrier.answer_times.record(time.monotonic() - began)
    if barrier.settled(state):
        return state
    return await barrier.wait_for_start(run_id, lambda: _barrier_state(db, host_id, assignment_id))


def _mark_ready(db: Session, host: Host, assignment_id: int) -> tuple[int, BarrierState]:
    marked = worker_service.ready(db, host, assignment_id)
    db.commit()
    return marked


def _barrier_state(db: Session, host_id: int, assignment_id: int) -> BarrierState:
    try:
        return worker_service.barrier_state(db, host_id, assignment_id)
    finally:
        db.rollback()  # the connection goes back to the pool while the host waits


@router.post(
    "/assignments/{assignment_id}/start",
    response_model=WorkerAssignment,
    summary="fio has started",
    responses=errors(Conflict),
)
def start_assignment(
    assignment_id: IdPath, host: CurrentHost, db: DB, body: StartReport | None = None
) -> WorkerAssignment:
    """Mark the assignment running; 409 if it was cancelled meanwhile."""
    assignment = worker_service.start(db, host, assignment_id, body)
    db.commit()
    return assignment


@router.post(
    "/assignments/{assignment_id}/result",
    response_model=ResultStored,
    summary="Upload fio's output",
    openapi_extra=rules_beyond_schema("fio_output must be an output of fio holding at least one job"),
)
def upload_result(assignment_id: IdPath, body: ResultUpload, host: CurrentHost, db: DB) -> ResultStored:
    """Store the output once; uploading the same assignment again is acknowledged, not duplicated."""
    stored = worker_service.store_result(db, host, assignment_id, body)
    db.commit()
    return stored


@router.post(
    "/assignments/{assignment_id}/files-released",
    response_model=FilesReleased,
    summary="Done with the run's files; should this host remove them?",
)
def release_files(assignment_id: IdPath, host: CurrentHost, db: DB) -> FilesReleased:
    """Shared files are removed by the last host to let go of them; a host's own files by that host."""
    released = worker_service.release_files(db, host, assignment_id)
    db.commit()
    return released


@router.post(
    "/assignments/{assignment_id}/failure", response_model=AssignmentState, summary="Report a failure"
)
def report_failure(assignment_id: IdPath, body: FailureReport, host: CurrentHost, db: DB) -> AssignmentState:
    """The assignment could not run; the run is marked failed with this reason."""
    state = worker_service.report_failure(db, host, assignment_id, body)
    db.commit()
    return state
