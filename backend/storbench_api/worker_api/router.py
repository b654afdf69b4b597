"""Endpoints workers call with their host credential; a host only ever sees its own work."""

import logging

from fastapi import APIRouter, Request, status

from storbench_api.broker import host_queue
from storbench_api.db import utcnow
from storbench_api.deps import DB, CurrentHost
from storbench_api.hosts import broker_access
from storbench_api.hosts.enrollment import enroll_host
from storbench_api.hosts.service import record_heartbeat
from storbench_api.ids import IdPath
from storbench_api.models import Assignment
from storbench_api.rate_limit import limit_sign_in
from storbench_api.runs import service as runs_service
from storbench_api.settings import get_settings
from storbench_api.worker_api.schemas import (
    AssignmentOut,
    AssignmentState,
    AssignmentTarget,
    BarrierState,
    Enrolled,
    EnrollIn,
    FailureIn,
    FilesReleased,
    FioOutputIn,
    Heartbeat,
    Interrupted,
    ProgressIn,
    RestartIn,
    StartIn,
    Stored,
    WorkerIdentity,
)

log = logging.getLogger(__name__)
router = APIRouter(prefix="/worker", tags=["worker"])


def _assignment_out(assignment: Assignment) -> AssignmentOut:
    target = assignment.run.target
    return AssignmentOut(
        id=assignment.id,
        run_id=assignment.run_id,
        status=assignment.status,
        target=AssignmentTarget(
            path=target.path,
            kind=target.kind,
            destructive=target.destructive,
            confirmed_destructive=assignment.run.confirmed_destructive,
        ),
        jobs=assignment.run.jobs,
        shared_files=assignment.run.shared_files,
        lays_out=runs_service.lays_out_files(assignment),
        scratch_name=runs_service.scratch_name(assignment),
        host_count=len(assignment.run.assignments),
    )


@router.post(
    "/enroll",
    response_model=Enrolled,
    status_code=status.HTTP_201_CREATED,
    summary="Register with an enrollment token",
)
def enroll(request: Request, body: EnrollIn, db: DB) -> Enrolled:
    """Exchange an enrollment token for this host's own worker credential."""
    limit_sign_in(request, f"enroll:{body.name}")
    host, credential = enroll_host(db, body.token, body.name)
    db.commit()
    return Enrolled(host_id=host.id, name=host.name, worker_token=credential)


@router.get("/me", response_model=WorkerIdentity, summary="The calling worker's host and queue")
def whoami(host: CurrentHost) -> WorkerIdentity:
    """The host this credential belongs to, its queue, and the broker URL with its own user.

    The host's broker user is (re)created here and at every heartbeat, so a broker restarted
    without persistence lets the host back in within one heartbeat.
    """
    settings = get_settings()
    try:
        broker_access.ensure_broker_user(host)
    except Exception as exc:  # the broker is down: the worker retries, and so do we
        log.warning("could not set up the broker user of host %s: %s", host.id, exc)
    return WorkerIdentity(
        host_id=host.id,
        name=host.name,
        queue=host_queue(host.id),
        broker_url=broker_access.worker_broker_url(host),
        heartbeat_interval_s=settings.heartbeat_interval.total_seconds(),
        server_time=utcnow(),
    )


@router.post("/heartbeat", response_model=WorkerIdentity, summary="Report liveness and host facts")
def heartbeat(body: Heartbeat, host: CurrentHost, db: DB) -> WorkerIdentity:
    """Mark the host online; facts feed comparisons."""
    record_heartbeat(host, body.facts, body.fio_version)
    db.commit()
    return whoami(host)


@router.get("/assignments/{assignment_id}", response_model=AssignmentOut, summary="Fetch an assignment")
def get_assignment(assignment_id: IdPath, host: CurrentHost, db: DB) -> AssignmentOut:
    """The jobs and target of one of this host's assignments (fetched: it is never sent again)."""
    assignment = runs_service.assignment_for_host(db, host.id, assignment_id)
    runs_service.note_fetched(assignment)
    db.commit()
    return _assignment_out(assignment)


@router.post("/restarted", response_model=Interrupted, summary="The worker (re)started")
def restarted(body: RestartIn, host: CurrentHost, db: DB) -> Interrupted:
    """A fresh worker process runs nothing: what this host had begun failed with it, said at once.

    Assignments whose output waits in the host's spool are left alone: they will be delivered.
    """
    reason = (
        f"the worker on host '{host.name}' restarted while this was running; fio stopped with it "
        "(start the run again)"
    )
    failed = runs_service.fail_host_assignments(
        db, host.id, reason, started_only=True, except_ids=set(body.spooled)
    )
    db.commit()
    return Interrupted(failed=failed)


@router.get("/assignments/{assignment_id}/state", response_model=AssignmentState, summary="Should fio go on?")
def assignment_state(assignment_id: IdPath, host: CurrentHost, db: DB) -> AssignmentState:
    """Polled while fio runs; 'cancelled' tells the worker to stop fio."""
    assignment = runs_service.assignment_for_host(db, host.id, assignment_id)
    return AssignmentState(id=assignment.id, status=assignment.status)


@router.post(
    "/assignments/{assignment_id}/progress",
    response_model=AssignmentState,
    summary="Report a second of progress; the answer says whether to go on",
)
def report_progress(assignment_id: IdPath, body: ProgressIn, host: CurrentHost, db: DB) -> AssignmentState:
    """Store per-second samples (shown live and kept with the result); 'cancelled' means stop fio."""
    assignment = runs_service.assignment_for_host(db, host.id, assignment_id)
    runs_service.record_progress(db, assignment, [s.model_dump(mode="json") for s in body.samples])
    record_heartbeat(host, None, None)
    db.commit()
    return AssignmentState(id=assignment.id, status=assignment.status)


@router.post(
    "/assignments/{assignment_id}/ready",
    response_model=BarrierState,
    summary="Files laid out; wait at the barrier",
)
def ready(assignment_id: IdPath, host: CurrentHost, db: DB) -> BarrierState:
    """Repeated until start_at is set: then every host starts fio at that moment (server clock)."""
    assignment = runs_service.assignment_for_host(db, host.id, assignment_id)
    start_at = runs_service.mark_ready(db, assignment)
    record_heartbeat(host, None, None)
    db.commit()
    return BarrierState(id=assignment.id, status=assignment.status, start_at=start_at, server_time=utcnow())


@router.post("/assignments/{assignment_id}/start", response_model=AssignmentOut, summary="fio has started")
def start_assignment(
    assignment_id: IdPath, host: CurrentHost, db: DB, body: StartIn | None = None
) -> AssignmentOut:
    """Mark the assignment running; 409 if it was cancelled meanwhile."""
    assignment = runs_service.assignment_for_host(db, host.id, assignment_id)
    runs_service.mark_started(
        db, assignment, body.fio_started_at if body else None, body.clock_offset_ms if body else None
    )
    record_heartbeat(host, None, None)
    db.commit()
    return _assignment_out(assignment)


@router.post("/assignments/{assignment_id}/result", response_model=Stored, summary="Upload fio's output")
def upload_result(assignment_id: IdPath, body: FioOutputIn, host: CurrentHost, db: DB) -> Stored:
    """Store the output once; uploading the same assignment again is acknowledged, not duplicated."""
    assignment = runs_service.assignment_for_host(db, host.id, assignment_id)
    results = runs_service.record_output(
        db, assignment, body.fio_output, body.stopped_early, body.worker_cpu_percent
    )
    record_heartbeat(host, None, None)
    db.commit()
    return Stored(results=len(results))


@router.post(
    "/assignments/{assignment_id}/files-released",
    response_model=FilesReleased,
    summary="Done with the run's files; should this host remove them?",
)
def release_files(assignment_id: IdPath, host: CurrentHost, db: DB) -> FilesReleased:
    """Shared files are removed by the last host to let go of them; a host's own files by that host."""
    assignment = runs_service.assignment_for_host(db, host.id, assignment_id)
    remove = runs_service.release_files(db, assignment)
    db.commit()
    return FilesReleased(remove=remove)


@router.post(
    "/assignments/{assignment_id}/failure", response_model=AssignmentState, summary="Report a failure"
)
def report_failure(assignment_id: IdPath, body: FailureIn, host: CurrentHost, db: DB) -> AssignmentState:
    """The assignment could not run; the run is marked failed with this reason."""
    assignment = runs_service.assignment_for_host(db, host.id, assignment_id)
    runs_service.record_failure(db, assignment, body.reason)
    db.commit()
    return AssignmentState(id=assignment.id, status=assignment.status)
